/** `feedgate user delete <login> --yes`: the user, its tokens and relations go; its events stay (store.ts, AccountDeletion). */
import type { Command } from "commander";
import { InvalidInputError } from "../server/failures.js";
import { requireUser } from "../server/services/users.js";
import type { CliIo } from "./io.js";
import { storeOptions, withStore } from "./options.js";
import { count } from "./table.js";

export function userDeleteCommand(user: Command, io: CliIo): void {
  storeOptions(
    user
      .command("delete <login>")
      .description("delete a user with its tokens, follows, watches, memberships and collaborations (its events stay)"),
    io.env,
  )
    .option("--yes", "confirm: the deletion cannot be undone")
    .action(async (login: string, options) => {
      const done = await withStore(options, async (store) => {
        const found = await requireUser(store, login);
        // Asked after the login is known to exist, so the operator fixes one mistake at a time.
        if (!options.yes)
          throw new InvalidInputError(`deleting ${found.login} cannot be undone: add --yes to delete it`);
        return { login: found.login, ...(await store.users.delete(found.id)) };
      });
      io.stdout.write(
        `deleted user ${done.login}: ${count(done.authorizationsDeleted, "token")} revoked` +
          `${done.rowKept ? "; its events and repositories stay, under an account that cannot log in" : ""}\n`,
      );
    });
}
