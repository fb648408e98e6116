/**
 * `feedgate token list [login]`: every user's tokens, or one user's, for administrators. Never the token nor its
 * hash: the last eight characters are what GitHub shows too (`token_last_eight`), enough to tell tokens apart.
 */
import type { Command } from "commander";
import { requireUser } from "../server/services/users.js";
import type { OwnedAuthorization } from "../server/store/store.js";
import type { CliIo } from "./io.js";
import { storeOptions, withStore } from "./options.js";
import { formatTable, isoSeconds } from "./table.js";

const HEADER = ["ID", "LOGIN", "KIND", "SCOPES OR PERMISSIONS", "NOTE", "LAST EIGHT", "CREATED", "EXPIRES"];

/** A classic token's scopes, or a fine-grained token's permissions (`repository_hooks=write`) and repository selection. */
function reach(a: OwnedAuthorization): string {
  if (!a.fineGrained) return a.scopes.join(",") || "-";
  const permissions = Object.entries(a.fineGrained.permissions)
    .map(([name, level]) => `${name}=${level}`)
    .join(",");
  return `${permissions} (repositories: ${a.fineGrained.repositorySelection})`;
}

const jsonLine = (a: OwnedAuthorization) =>
  JSON.stringify({
    id: a.id,
    login: a.login,
    kind: a.fineGrained ? "fine-grained" : "classic",
    scopes: a.scopes,
    note: a.note,
    token_last_eight: a.tokenLastEight,
    created_at: a.createdAt.toISOString(),
    expires_at: a.expiresAt?.toISOString() ?? null,
    ...(a.fineGrained
      ? {
          repository_selection: a.fineGrained.repositorySelection,
          repository_ids: a.fineGrained.repositoryIds,
          permissions: a.fineGrained.permissions,
        }
      : {}),
  });

export function tokenListCommand(token: Command, io: CliIo): void {
  storeOptions(
    token.command("list [login]").description("list tokens (all users', or one user's): never the token itself"),
    io.env,
  )
    .option("--json", "one JSON object per line, for scripts")
    .action(async (login: string | undefined, options) => {
      const rows = await withStore(options, async (store) =>
        store.authorizations.listAll(login === undefined ? undefined : (await requireUser(store, login)).id),
      );
      if (options.json) {
        for (const a of rows) io.stdout.write(`${jsonLine(a)}\n`);
        return;
      }
      io.stdout.write(
        formatTable(
          HEADER,
          rows.map((a) => [
            String(a.id),
            a.login,
            a.fineGrained ? "fine-grained" : "classic",
            reach(a),
            a.note ?? "-",
            a.tokenLastEight,
            isoSeconds(a.createdAt),
            a.expiresAt ? isoSeconds(a.expiresAt) : "never",
          ]),
        ),
      );
    });
}
