/**
 * `feedgate oauth-app create --name N --callback-url URL [--owner LOGIN] [--url URL] [--device-flow]`: registers an
 * OAuth app and prints its client id and, this once, its client secret (the database keeps only its hash).
 */
import type { Command } from "commander";
import { wallClock } from "../server/clock.js";
import { OAuthAppService } from "../server/services/oauth/oauth-apps.js";
import type { CliIo } from "./io.js";
import { storeOptions, withStore } from "./options.js";

export function oauthAppCommand(program: Command, io: CliIo): void {
  const oauthApp = program.command("oauth-app").description("manage OAuth apps (sign-in with feedgate)");

  storeOptions(
    oauthApp.command("create").description("register an OAuth app; prints its client id and, once, its client secret"),
    io.env,
  )
    .requiredOption("--name <name>", "the app's name, shown on the consent page")
    .requiredOption("--callback-url <url>", "where the web flow sends the code (redirect_uri must be at or below it)")
    .option("--owner <login>", "the account that owns the app")
    .option("--url <url>", "the app's homepage (by default the callback URL)")
    .option("--device-flow", "allow the device flow (as `gh auth login` uses)")
    .action(async (options) => {
      const { app, clientSecret } = await withStore(options, (store) =>
        new OAuthAppService(store, wallClock).register({
          name: options.name,
          callbackUrl: options.callbackUrl,
          owner: options.owner,
          url: options.url,
          deviceFlow: options.deviceFlow === true,
        }),
      );
      // One `name value` per line, so a script can take either with `awk`.
      io.stdout.write(`client_id ${app.clientId}\nclient_secret ${clientSecret}\n`);
      io.stderr.write("the client secret is shown only now: keep it with the app\n");
    });
}
