/** `feedgate token revoke <id>`: delete a token whoever owns it; the next request that presents it gets 401. */
import type { Command } from "commander";
import { InvalidInputError } from "../server/failures.js";
import type { CliIo } from "./io.js";
import { storeOptions, withStore } from "./options.js";

/** Ids are the row ids `token list` shows; anything else cannot name a token (and would overflow PostgreSQL's bigint). */
function tokenId(text: string): number {
  const id = /^[1-9][0-9]{0,15}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(id))
    throw new InvalidInputError(`"${text}" is not a token id: use the ID column of \`feedgate token list\``);
  return id;
}

export function tokenRevokeCommand(token: Command, io: CliIo): void {
  storeOptions(
    token.command("revoke <id>").description("delete a token (an ID from token list); it stops working at once"),
    io.env,
  ).action(async (text: string, options) => {
    const id = tokenId(text);
    const revoked = await withStore(options, async (store) => {
      const row = await store.authorizations.revoke(id);
      if (!row) throw new InvalidInputError(`no token with id ${id}: \`feedgate token list\` shows the ids`);
      return { row, owner: await store.users.findById(row.userId) };
    });
    io.stdout.write(
      `revoked token ${id} (...${revoked.row.tokenLastEight}) of ${revoked.owner?.login ?? "a deleted user"}\n`,
    );
  });
}
