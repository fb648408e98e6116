/**
 * `feedgate user disable|enable <login>`: suspend an account as GitHub Enterprise's site administrators do (its
 * password and tokens are refused with 403 "Sorry. Your account was suspended."), and reinstate it. Nothing is
 * deleted: its tokens work again once it is enabled, and its events stay in the feeds throughout.
 */
import type { Command } from "commander";
import { setSuspension } from "../server/services/users.js";
import type { CliIo } from "./io.js";
import { storeOptions, withStore } from "./options.js";
import { isoSeconds } from "./table.js";

export function userSuspensionCommands(user: Command, io: CliIo): void {
  storeOptions(
    user.command("disable <login>").description("suspend a user: its password and tokens are refused"),
    io.env,
  ).action(async (login: string, options) => {
    const before = await withStore(options, (store) => setSuspension(store, login, new Date()));
    io.stdout.write(
      before.suspendedAt
        ? `${before.login} is already disabled (since ${isoSeconds(before.suspendedAt)})\n`
        : `disabled ${before.login}: its password and tokens are refused until \`feedgate user enable ${before.login}\`\n`,
    );
  });

  storeOptions(user.command("enable <login>").description("lift a user's suspension"), io.env).action(
    async (login: string, options) => {
      const before = await withStore(options, (store) => setSuspension(store, login, null));
      io.stdout.write(before.suspendedAt ? `enabled ${before.login}\n` : `${before.login} is not disabled\n`);
    },
  );
}
