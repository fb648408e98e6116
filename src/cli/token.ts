/**
 * `feedgate token add|list|revoke`: tokens as an administrator sees them, whoever owns them. add is here (issue a
 * token, or register a known one for test fixtures); list and revoke in token-*.ts.
 */
import type { Command } from "commander";
import { AuthorizationService } from "../server/services/authorizations.js";
import { isTokenShaped, mintToken } from "../server/services/credentials.js";
import { InvalidInputError } from "../server/failures.js";
import { longerThanZero } from "../server/settings/parsers.js";
import type { CliIo } from "./io.js";
import { storeOptions, withStore } from "./options.js";
import { validScopes } from "../server/services/input-checks.js";
import { requireUser } from "../server/services/users.js";
import { tokenListCommand } from "./token-list.js";
import { tokenRevokeCommand } from "./token-revoke.js";
import { fineGrainedRequest, type FineGrainedFlags } from "./token-fine-grained.js";
import { FineGrainedTokenService } from "../server/services/fine-grained-tokens.js";

/** commander's way of taking a flag more than once. */
const collect = (value: string, previous: string[]) => [...previous, value];

/** The fine-grained form of `token add`: the API's rules, checked in full before anything is stored. */
async function addFineGrained(
  login: string,
  options: FineGrainedFlags & { db?: string; scopes?: string },
  lifetimeMs: number | null,
  io: CliIo,
): Promise<void> {
  if (options.scopes !== undefined)
    throw new InvalidInputError("--scopes belongs to classic tokens; a fine-grained token takes --permission");
  const now = new Date();
  const expiresAt = lifetimeMs === null ? null : new Date(now.getTime() + lifetimeMs).toISOString();
  const request = fineGrainedRequest(options, expiresAt);
  const { token } = await withStore(options, async (store) =>
    new FineGrainedTokenService(store, () => now).create(await requireUser(store, login), request),
  );
  io.stdout.write(`${token}\n`);
}

function parseScopes(list: string | undefined): string[] {
  return validScopes(
    (list ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

export function tokenCommand(program: Command, io: CliIo): void {
  const token = program.command("token").description("manage tokens");

  storeOptions(
    token.command("add <login>").alias("create").description("issue a token and print it (shown once)"),
    io.env,
  )
    .option("--scopes <list>", "comma-separated scopes, e.g. repo,read:org")
    .option("--note <text>", "what the token is for")
    .option(
      "--token <value>",
      "register this token value (40 hex characters or feedgate's fgp_ format; with --fine-grained, " +
        "feedgate_pat_...)",
    )
    .option(
      "--expires <duration>",
      "the token stops working this long from now, e.g. 30d (GitHub offers 7, 30, 60 or 90 " + "days); default: never",
    )
    .option(
      "--fine-grained",
      "a fine-grained token (feedgate_pat_...): limited to --owner, its repositories and --permission",
    )
    .option("--owner <login>", "fine-grained: the user or organization whose resources it reaches (default: the user)")
    .option(
      "--repo <owner/name>",
      "fine-grained: a repository it may reach (repeat for more); without --repo or " +
        "--all-repos, public repositories only",
      collect,
      [],
    )
    .option("--all-repos", "fine-grained: every repository of --owner")
    .option(
      "--permission <name:level>",
      "fine-grained: a permission, e.g. webhooks:write, issues:read, " +
        "organization_webhooks:read (repeat for more); metadata:read is always granted",
      collect,
      [],
    )
    .option("--description <text>", "fine-grained: what the token is for, at length")
    .action(async (login: string, options) => {
      // Read before the store opens, so a malformed duration changes nothing; an administrator's command is not bound
      // by --token-max-lifetime, which is the server's rule for its API and console.
      const lifetimeMs =
        options.expires === undefined ? null : longerThanZero(options.expires, { name: "--expires", env: "" });
      if (options.fineGrained) return addFineGrained(login, options, lifetimeMs, io);
      const scopes = parseScopes(options.scopes);
      const value: string = options.token ?? mintToken();
      if (!isTokenShaped(value)) {
        throw new InvalidInputError("--token must be 40 lowercase hex characters or a feedgate token (fgp_...)");
      }
      await withStore(options, async (store) => {
        const user = await requireUser(store, login);
        const now = new Date();
        const expiresAt = lifetimeMs === null ? null : new Date(now.getTime() + lifetimeMs);
        await new AuthorizationService(store, () => now).issue(
          user,
          { scopes, note: options.note ?? null, noteUrl: null, fingerprint: null, expiresAt },
          value,
        );
      });
      io.stdout.write(`${value}\n`);
    });

  tokenListCommand(token, io);
  tokenRevokeCommand(token, io);
}
