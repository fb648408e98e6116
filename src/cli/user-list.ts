/** `feedgate user list`: the login users, as a table for people or JSON lines for scripts. */
import type { Command } from "commander";
import type { UserRow } from "../server/store/store.js";
import type { CliIo } from "./io.js";
import { storeOptions, withStore } from "./options.js";
import { formatTable, isoSeconds, yesNo } from "./table.js";

const HEADER = ["ID", "LOGIN", "TYPE", "SITE ADMIN", "TWO-FACTOR", "TOKENS", "DISABLED", "CREATED"];

/** What a script may rely on; names as GitHub's API spells them. No secret, not even whether a password is set. */
function jsonLine(u: UserRow, tokens: number): string {
  return JSON.stringify({
    id: u.id,
    login: u.login,
    type: u.type,
    site_admin: u.siteAdmin,
    two_factor: u.otpSecret !== null,
    tokens,
    disabled: u.suspendedAt !== null,
    suspended_at: u.suspendedAt?.toISOString() ?? null,
    created_at: u.createdAt.toISOString(),
  });
}

export function userListCommand(user: Command, io: CliIo): void {
  storeOptions(user.command("list").description("list the users who can log in, with their token counts"), io.env)
    .option("--json", "one JSON object per line, for scripts")
    .action(async (options) => {
      const [users, counts] = await withStore(options, (store) =>
        Promise.all([store.users.list(), store.authorizations.countByUser()]),
      );
      const tokens = (u: UserRow) => counts.get(u.id) ?? 0;
      if (options.json) {
        for (const u of users) io.stdout.write(`${jsonLine(u, tokens(u))}\n`);
        return;
      }
      io.stdout.write(
        formatTable(
          HEADER,
          users.map((u) => [
            String(u.id),
            u.login,
            u.type,
            yesNo(u.siteAdmin),
            yesNo(u.otpSecret !== null),
            String(tokens(u)),
            yesNo(u.suspendedAt !== null),
            isoSeconds(u.createdAt),
          ]),
        ),
      );
    });
}
