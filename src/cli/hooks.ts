/**
 * `feedgate hooks list|create|deliveries|redeliver`: a repository's or an organization's webhooks on a server, over
 * HTTP with the SDK. The target is `owner/repo`, or an organization's login; credentials are a token (--token or
 * FEEDGATE_TOKEN, with `admin:repo_hook` or `admin:org_hook`) or a password (--user). `redeliver --failed --since`
 * queues every failed delivery since then again, of one repository's or organization's hooks, or (a site
 * administrator) of every hook.
 */
import type { Command } from "commander";
import type { Client } from "../client/index.js";
import { InvalidInputError } from "../server/failures.js";
import { clientAction, passwordClient, tokenClient, urlOption, type ConnectionOptions } from "./client-options.js";
import type { CliIo } from "./io.js";
import { givenSecret, type SecretFlags } from "./secret-input.js";

interface HooksOptions extends ConnectionOptions {
  json?: boolean;
  hookUrl?: string;
  events?: string;
  secret?: string;
  secretStdin?: boolean;
  secretFile?: string;
  secretEnv?: string;
  contentType?: string;
  inactive?: boolean;
  failed?: boolean;
  since?: string;
  repo?: string;
  org?: string;
}

type Target = { user: string; repo: string } | { org: string };

/** `alice/hello` names a repository, `acme` an organization. */
function target(name: string): Target {
  const parts = name.split("/");
  if (parts.length === 2 && parts[0] && parts[1]) return { user: parts[0], repo: parts[1] };
  if (parts.length === 1 && name) return { org: name };
  throw new InvalidInputError(`the target must be owner/repo or an organization's login, got ${JSON.stringify(name)}`);
}

function connection(command: Command): Command {
  return urlOption(command)
    .option("--token <token>", "a token with admin:repo_hook (organizations: admin:org_hook) (env FEEDGATE_TOKEN)")
    .option("--user <login>", "use this login's password instead (FEEDGATE_PASSWORD, a pipe on stdin, or a prompt)")
    .option("--json", "print JSON lines, as the server sent them");
}

const connect = (options: HooksOptions, io: CliIo): Promise<Client> | Client =>
  options.user !== undefined ? passwordClient(options, io) : tokenClient(options, io.env);

const SECRET_FLAGS: SecretFlags = {
  what: "webhook secret",
  inline: "--secret",
  stdin: "--secret-stdin",
  file: "--secret-file",
  env: "--secret-env",
};

/** The hook's secret from whichever way was given; read before connecting, so that a refusal sends nothing. */
async function hookSecret(options: HooksOptions, io: CliIo): Promise<string | undefined> {
  if (options.secretStdin && options.user !== undefined && !io.env.FEEDGATE_PASSWORD) {
    throw new InvalidInputError(
      "--secret-stdin and --user would both read standard input: set FEEDGATE_PASSWORD, or give the " +
        "secret with --secret-file or --secret-env; nothing was sent",
    );
  }
  return givenSecret(
    { inline: options.secret, stdin: options.secretStdin, file: options.secretFile, env: options.secretEnv },
    SECRET_FLAGS,
    io,
  );
}

const eventList = (list: string | undefined) =>
  list
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);

export function hooksCommand(program: Command, io: CliIo): void {
  const hooks = program.command("hooks").description("manage a repository's or an organization's webhooks (over HTTP)");
  const line = (json: boolean | undefined, value: object, text: string) =>
    io.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);

  connection(
    hooks
      .command("list <target>")
      .description("list the hooks of owner/repo or of an organization: id, active, events, URL"),
  ).action(
    clientAction(async (name: string, options: HooksOptions) => {
      const client = await connect(options, io);
      const where = target(name);
      const pages =
        "org" in where
          ? client.paginate(client.hooks.listForOrg, { ...where, per_page: 100 })
          : client.paginate(client.hooks.list, { ...where, per_page: 100 });
      for await (const page of pages) {
        for (const hook of page.data)
          line(
            options.json,
            hook,
            `${hook.id}\t${hook.active ? "active" : "inactive"}\t${hook.events.join(",")}\t${hook.config.url}`,
          );
      }
    }),
  );

  connection(hooks.command("create <target>").description("create a hook (the server pings it) and print its id"))
    .requiredOption("--hook-url <url>", "where deliveries are sent")
    .option("--events <list>", "comma-separated event names (default push; * for all)")
    .option("--secret-stdin", "read the secret deliveries are signed with from standard input (a prompt on a terminal)")
    .option("--secret-file <file>", "read the secret from this file (a line end after it is dropped)")
    .option("--secret-env <name>", "read the secret from this environment variable")
    .option("--secret <secret>", "the secret itself: avoid, the shell's history and the process list keep it")
    .option("--content-type <type>", "json or form (default form, as on GitHub)")
    .option("--inactive", "create it inactive: nothing is delivered until it is activated")
    .action(
      clientAction(async (name: string, options: HooksOptions) => {
        const where = target(name);
        const secret = await hookSecret(options, io);
        const client = await connect(options, io);
        const body = {
          events: eventList(options.events),
          active: !options.inactive,
          config: { url: options.hookUrl, secret, content_type: options.contentType },
        };
        const { data } =
          "org" in where
            ? await client.hooks.createForOrg({ ...where, ...body })
            : await client.hooks.create({ ...where, ...body });
        line(options.json, data, String(data.id));
      }),
    );

  connection(
    hooks
      .command("deliveries <target> <hook-id>")
      .description("list a hook's deliveries, newest first: id, GUID, event, status, when"),
  ).action(
    clientAction(async (name: string, hookId: string, options: HooksOptions) => {
      const client = await connect(options, io);
      const where = { ...target(name), hook_id: hookId };
      const pages =
        "org" in where
          ? client.paginate(client.hooks.listDeliveriesForOrg, { ...where, per_page: 100 })
          : client.paginate(client.hooks.listDeliveries, { ...where, per_page: 100 });
      for await (const page of pages) {
        for (const d of page.data) {
          line(
            options.json,
            d,
            `${d.id}\t${d.guid}\t${d.event}${d.action ? `.${d.action}` : ""}\t${d.status_code} ${d.status}\t${d.delivered_at}`,
          );
        }
      }
    }),
  );

  connection(
    hooks
      .command("redeliver [target] [hook-id] [delivery-id]")
      .description(
        "deliver an attempt again (same GUID and body); or, with --failed --since, every failed delivery since then",
      ),
  )
    .option("--failed", "queue again every delivery that failed since --since, each once, instead of one attempt")
    .option("--since <when>", "with --failed: a duration back from now (30m, 2h, 7d) or an ISO 8601 time")
    .option("--repo <owner/repo>", "with --failed: only this repository's hooks")
    .option(
      "--org <org>",
      "with --failed: only this organization's hooks (default: every hook; a site administrator's)",
    )
    .action(
      clientAction(
        async (
          name: string | undefined,
          hookId: string | undefined,
          deliveryId: string | undefined,
          options: HooksOptions,
        ) => {
          if (options.failed) return redeliverFailed(name, options);
          if (options.since !== undefined || options.repo !== undefined || options.org !== undefined) {
            throw new InvalidInputError("--since, --repo and --org go with --failed");
          }
          if (!name || !hookId || !deliveryId)
            throw new InvalidInputError("redeliver needs <target> <hook-id> <delivery-id>, or --failed --since <when>");
          const client = await connect(options, io);
          const where = { ...target(name), hook_id: hookId, delivery_id: deliveryId };
          if ("org" in where) await client.hooks.redeliverForOrg(where);
          else await client.hooks.redeliver(where);
          io.stdout.write(`redelivery of ${deliveryId} queued\n`);
        },
      ),
    );

  /** The bulk form: one request; the server picks the deliveries, so that each is queued once however often it is run. */
  async function redeliverFailed(name: string | undefined, options: HooksOptions): Promise<void> {
    if (name !== undefined)
      throw new InvalidInputError(
        "with --failed, name the hooks' owner with --repo owner/repo or --org org, not an argument",
      );
    if (!options.since)
      throw new InvalidInputError(
        "--failed needs --since <when>: a duration back from now (30m, 2h, 7d) or an ISO 8601 time",
      );
    if (options.repo !== undefined && options.org !== undefined)
      throw new InvalidInputError("give --repo or --org, not both");
    const since = options.since;
    const client = await connect(options, io);
    let data: { queued: number; hooks: number; since: string };
    if (options.repo !== undefined) {
      const where = target(options.repo);
      if (!("repo" in where))
        throw new InvalidInputError(`--repo must be owner/repo, got ${JSON.stringify(options.repo)}`);
      ({ data } = await client.hooks.redeliverFailed({ ...where, since }));
    } else if (options.org !== undefined) {
      const where = target(options.org);
      if (!("org" in where))
        throw new InvalidInputError(`--org must be an organization's login, got ${JSON.stringify(options.org)}`);
      ({ data } = await client.hooks.redeliverFailedForOrg({ ...where, since }));
    } else {
      ({ data } = await client.hooks.redeliverAllFailed({ since }));
    }
    line(
      options.json,
      data,
      `queued ${data.queued} failed ${data.queued === 1 ? "delivery" : "deliveries"} again, ` +
        `to ${data.hooks} ${data.hooks === 1 ? "hook" : "hooks"} (failed since ${data.since})`,
    );
  }
}
