/** `feedgate user ...`: account administration; add and passwd here, the other subcommands in user-*.ts. */
import type { Command } from "commander";
import { changePassword, createAccount } from "../server/services/users.js";
import type { CliIo } from "./io.js";
import { storeOptions, passwordCostOption, withStore } from "./options.js";
import { readSecret } from "./prompt.js";
import { userListCommand } from "./user-list.js";
import { userDeleteCommand } from "./user-delete.js";
import { userSuspensionCommands } from "./user-suspension.js";
import { userOtpCommand } from "./user-otp.js";

export function userCommand(program: Command, io: CliIo): void {
  const user = program.command("user").description("manage user accounts");

  passwordCostOption(storeOptions(user.command("add <login>").description("create a user"), io.env), io.env)
    .option("--password <password>", "the password (prompted, or read from stdin, when omitted)")
    .option("--otp-secret <base32>", "TOTP secret: the user must then send a one-time code with Basic auth")
    .option("--site-admin", "make the user a site administrator")
    .action(async (login: string, options) => {
      const password = options.password ?? (await readSecret(`password for ${login}: `, io));
      await withStore(options, (store) =>
        createAccount(store, { login, password, otpSecret: options.otpSecret, siteAdmin: options.siteAdmin }),
      );
      io.stdout.write(`created user ${login}\n`);
    });

  userListCommand(user, io);

  passwordCostOption(storeOptions(user.command("passwd <login>").description("set a user's password"), io.env), io.env)
    .option("--password <password>", "the new password (prompted, or read from stdin, when omitted)")
    .action(async (login: string, options) => {
      const password = options.password ?? (await readSecret(`new password for ${login}: `, io));
      await withStore(options, (store) => changePassword(store, login, password));
      io.stdout.write(`password of ${login} changed\n`);
    });

  userDeleteCommand(user, io);
  userSuspensionCommands(user, io);
  userOtpCommand(user, io);
}
