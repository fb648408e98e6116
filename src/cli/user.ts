/** `feedgate user add|list|passwd`: account administration. */
import type { Command } from "commander";
import { changePassword, createAccount } from "../server/services/users.js";
import { dbOption, withStore } from "./options.js";
import { readSecret } from "./prompt.js";

export function userCommand(program: Command): void {
  const user = program.command("user").description("manage user accounts");

  dbOption(user.command("add <login>").description("create a user"))
    .option("--password <password>", "the password (prompted, or read from stdin, when omitted)")
    .option("--otp-secret <base32>", "TOTP secret: the user must then send a one-time code with Basic auth")
    .option("--site-admin", "make the user a site administrator")
    .action(async (login: string, options) => {
      const password = options.password ?? (await readSecret(`password for ${login}: `));
      await withStore(options, (store) =>
        createAccount(store, { login, password, otpSecret: options.otpSecret, siteAdmin: options.siteAdmin }));
      process.stdout.write(`created user ${login}\n`);
    });

  dbOption(user.command("list").description("list users"))
    .action(async (options) => {
      const users = await withStore(options, (store) => store.users.list());
      for (const u of users) {
        const flags = [u.otpSecret ? "2fa" : "", u.siteAdmin ? "site-admin" : ""].filter(Boolean).join(",");
        process.stdout.write(`${u.id}\t${u.login}\t${flags || "-"}\t${u.createdAt.toISOString()}\n`);
      }
    });

  dbOption(user.command("passwd <login>").description("set a user's password"))
    .option("--password <password>", "the new password (prompted, or read from stdin, when omitted)")
    .action(async (login: string, options) => {
      const password = options.password ?? (await readSecret(`new password for ${login}: `));
      await withStore(options, (store) => changePassword(store, login, password));
      process.stdout.write(`password of ${login} changed\n`);
    });
}
