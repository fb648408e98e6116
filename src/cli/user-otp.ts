/**
 * `feedgate user otp <login> [--remove]`: a new TOTP secret for two-factor authentication, shown once as the
 * otpauth:// URI and a QR code of it for the user's authenticator app, or two-factor turned off.
 */
import type { Command } from "commander";
import { otpUri } from "../server/services/credentials.js";
import { removeTwoFactor, resetTwoFactor } from "../server/services/users.js";
import type { CliIo } from "./io.js";
import { storeOptions, withStore } from "./options.js";

export function userOtpCommand(user: Command, io: CliIo): void {
  storeOptions(
    user
      .command("otp <login>")
      .description("give a user a new two-factor (TOTP) secret and print it as an otpauth:// URI and a QR code"),
    io.env,
  )
    .option("--remove", "turn two-factor authentication off instead")
    .action(async (login: string, options) => {
      if (options.remove) {
        const done = await withStore(options, (store) => removeTwoFactor(store, login));
        io.stdout.write(`two-factor authentication is off for ${done.login}\n`);
        return;
      }
      const { user: owner, secret } = await withStore(options, (store) => resetTwoFactor(store, login));
      const uri = otpUri(secret, owner.login);
      // The URI first and alone on its line, so a script can take it with `head -1`; the QR code is drawn in
      // text (half blocks), so it needs no display and no network.
      const { default: QRCode } = await import("qrcode"); // only here: every other command loads this file
      io.stdout.write(`${uri}\n${await QRCode.toString(uri, { type: "terminal", small: true })}`);
      io.stderr.write(
        `scan the code (or enter the URI) in ${owner.login}'s authenticator app; ` +
          "the previous secret no longer works\n",
      );
    });
}
