/** `feedgate seed <world.json>`: load a world file, idempotently and all or nothing, and say what it held and added. */
import type { Command } from "commander";
import { IngestService } from "../server/services/ingest.js";
import { SETTINGS } from "../server/settings/table.js";
import { webhookKeyFile } from "../server/webhooks/key-file.js";
import { SecretBox } from "../server/webhooks/secret-box.js";
import type { CliIo } from "./io.js";
import { storeOptions, dbPath, passwordCostOption, withStore } from "./options.js";
import { settingOption, settingValue } from "./setting-options.js";
import { readWorldFile, seedReport } from "./world-file.js";

export function seedCommand(program: Command, io: CliIo): void {
  const seed = program.command("seed <world>").description("load a world file (users, orgs, repos, tokens, events)");
  // An app's webhook secret is sealed with the key `serve` on this database opens it with (beside it by default).
  settingOption(seed, SETTINGS.webhooks.keyFile);
  passwordCostOption(storeOptions(seed, io.env), io.env).action(async (file: string, options) => {
    const { doc, baseDir } = await readWorldFile(file);
    const keyFile = webhookKeyFile(dbPath(options), settingValue(seed, SETTINGS.webhooks.keyFile, io.env));
    const secrets = keyFile === null ? SecretBox.ephemeral() : SecretBox.atPath(keyFile);
    const result = await withStore(options, (store) =>
      new IngestService(store, () => new Date()).seedWorld(doc, { baseDir, sealSecret: (s) => secrets.seal(s) }),
    );
    io.stdout.write(seedReport(file, result));
  });
}
