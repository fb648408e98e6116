/**
 * `feedgate keys rotate`: seals every stored webhook secret under a new key, on the database, while servers go on
 * delivering (server/webhooks/key-rotation.ts says how). The new key is given as secrets are, never on the command
 * line: standard input, a file, or an environment variable.
 */
import type { Command } from "commander";
import { SETTINGS } from "../server/config.js";
import { InvalidInputError } from "../server/failures.js";
import { isKey, readKeyFile, webhookKeyFile } from "../server/webhooks/key-file.js";
import { rotateWebhookKey } from "../server/webhooks/key-rotation.js";
import type { CliIo } from "./io.js";
import { storeOptions, dbPath, withStore } from "./options.js";
import { givenSecret, type SecretFlags } from "./secret-input.js";
import { settingOption, settingValue } from "./setting-options.js";
import { count } from "./table.js";

interface RotateOptions {
  db?: string;
  newKeyStdin?: boolean;
  newKeyFile?: string;
  newKeyEnv?: string;
  keepOld?: boolean;
}

const NEW_KEY: SecretFlags = {
  what: "new key",
  stdin: "--new-key-stdin",
  file: "--new-key-file",
  env: "--new-key-env",
};
const MAKE_ONE = "64 hex digits, e.g. from `openssl rand -hex 32`";

export function keysCommand(program: Command, io: CliIo): void {
  const keys = program.command("keys").description("the key webhook secrets are sealed with");
  const rotate = keys
    .command("rotate")
    .description("seal every stored webhook secret under a new key; servers go on delivering meanwhile")
    .option("--new-key-stdin", `read the new key (${MAKE_ONE}) from standard input`)
    .option("--new-key-file <file>", "read the new key from this file")
    .option("--new-key-env <name>", "read the new key from this environment variable")
    .option(
      "--keep-old",
      "keep the old keys in the key file, after the new one (for instances whose copy of the file is not updated yet)",
    );
  storeOptions(rotate, io.env);
  settingOption(rotate, SETTINGS.webhooks.keyFile);
  rotate.action(async (options: RotateOptions) => {
    const given = await givenSecret(
      { stdin: options.newKeyStdin, file: options.newKeyFile, env: options.newKeyEnv },
      NEW_KEY,
      io,
    );
    if (given === undefined) {
      throw new InvalidInputError(
        `keys rotate needs the new key (${MAKE_ONE}): --new-key-stdin, --new-key-file FILE or ` +
          "--new-key-env NAME; nothing was changed",
      );
    }
    if (!isKey(given.trim())) throw new InvalidInputError(`the new key must be ${MAKE_ONE}; nothing was changed`);
    const path = webhookKeyFile(dbPath(options), settingValue(rotate, SETTINGS.webhooks.keyFile, io.env));
    if (path === null)
      throw new InvalidInputError("a database in memory has no webhook key file to rotate; nothing was changed");
    // Before the database is opened (which would make a missing SQLite file): the key file is what says this is the place.
    if (readKeyFile(path) === null) {
      throw new InvalidInputError(
        `no webhook key file at ${path}: name the one the server uses (--webhook-key-file, or ` +
          "the --db it sits beside); nothing was changed",
      );
    }
    const report = await withStore(options, (store) =>
      rotateWebhookKey(store.hooks, path, Buffer.from(given.trim(), "hex"), { keepOld: options.keepOld === true }),
    );
    if (report.unopenable.length > 0) {
      io.stderr.write(
        `feedgate: no key in ${path} opens the secret of hook${report.unopenable.length === 1 ? "" : "s"} ` +
          `${report.unopenable.join(", ")}: left as ${report.unopenable.length === 1 ? "it was" : "they were"}; set ` +
          "their secret again through the API or the console\n",
      );
    }
    const was = report.previousKeyIds.length ? ` (was ${report.previousKeyIds.join(", ")})` : "";
    const file =
      report.keptOld && report.previousKeyIds.length ? `${path} keeps the old keys after it` : `${path} holds it alone`;
    io.stdout.write(`resealed ${count(report.resealed, "webhook secret")} under key ${report.keyId}${was}; ${file}\n`);
  });
}
