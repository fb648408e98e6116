/**
 * `feedgate auth list|create|update|delete`: your authorizations on a server, over HTTP with the SDK and
 * Basic auth (plus a one-time code for two-factor accounts), as GitHub's token tools did.
 */
import type { Command } from "commander";
import type { Authorization } from "../client/index.js";
import { clientAction, passwordClient, urlOption, type ConnectionOptions } from "./client-options.js";
import type { CliIo } from "./io.js";

type AuthCommandOptions = ConnectionOptions & {
  json?: boolean;
  scopes?: string;
  addScopes?: string;
  removeScopes?: string;
  note?: string;
  noteUrl?: string;
  fingerprint?: string;
};

function connection(command: Command): Command {
  return urlOption(command).option(
    "--user <login>",
    "your login (env FEEDGATE_USER); the password comes from FEEDGATE_PASSWORD, a pipe on stdin, or a prompt, " +
      "and a two-factor code, when the server asks, from FEEDGATE_OTP or a prompt",
  );
}

const JSON_HELP = "print authorizations as JSON lines, as the server sent them";

/** `repo, user` or `repo,user` -> ["repo", "user"]; the server checks the names. */
const scopeList = (list: string | undefined) =>
  list
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);

function print(authorization: Authorization, json: boolean | undefined, io: CliIo): void {
  const a = authorization;
  io.stdout.write(
    json
      ? `${JSON.stringify(a)}\n`
      : `${a.id}\t${a.scopes.join(",") || "-"}\t${a.note ?? "-"}\t${a.note_url ?? "-"}\t${a.created_at}\n`,
  );
}

export function authCommand(program: Command, io: CliIo): void {
  const auth = program.command("auth").description("manage your authorizations on a server (over HTTP)");

  connection(auth.command("list").description("list your authorizations: id, scopes, note, note URL, created"))
    .option("--json", JSON_HELP)
    .action(
      clientAction(async (options: AuthCommandOptions) => {
        const client = await passwordClient(options, io);
        for await (const page of client.paginate(client.authorization.getAll, { per_page: 100 })) {
          for (const authorization of page.data) print(authorization, options.json, io);
        }
      }),
    );

  connection(auth.command("create").description("create an authorization and print its token (shown once)"))
    .option("--scopes <list>", "comma-separated scopes, e.g. repo,read:org")
    .option("--note <text>", "what the token is for")
    .option("--note-url <url>", "the application the token is for")
    .option("--fingerprint <text>", "tells apart tokens of one application")
    .option("--json", "print the whole authorization as JSON instead of the token alone")
    .action(
      clientAction(async (options: AuthCommandOptions) => {
        const client = await passwordClient(options, io);
        const { data } = await client.authorization.create({
          scopes: scopeList(options.scopes),
          note: options.note,
          note_url: options.noteUrl,
          fingerprint: options.fingerprint,
        });
        io.stdout.write(options.json ? `${JSON.stringify(data)}\n` : `${data.token}\n`);
      }),
    );

  connection(auth.command("update <id>").description("change an authorization's scopes, note or note URL"))
    .option("--scopes <list>", "replace the scopes")
    .option("--add-scopes <list>", "add these scopes")
    .option("--remove-scopes <list>", "remove these scopes")
    .option("--note <text>", "new note")
    .option("--note-url <url>", "new note URL")
    .option("--json", JSON_HELP)
    .action(
      clientAction(async (id: string, options: AuthCommandOptions) => {
        const client = await passwordClient(options, io);
        const { data } = await client.authorization.update({
          id,
          scopes: scopeList(options.scopes),
          add_scopes: scopeList(options.addScopes),
          remove_scopes: scopeList(options.removeScopes),
          note: options.note,
          note_url: options.noteUrl,
        });
        print(data, options.json, io);
      }),
    );

  connection(auth.command("delete <id>").description("delete an authorization; its token stops working")).action(
    clientAction(async (id: string, options: AuthCommandOptions) => {
      const client = await passwordClient(options, io);
      await client.authorization.delete({ id });
      io.stdout.write(`deleted authorization ${id}\n`);
    }),
  );
}
