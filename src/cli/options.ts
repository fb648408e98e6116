/** Options several commands share, and the store they open. */
import type { Command } from "commander";
import { DEFAULT_DB, SETTINGS } from "../server/config.js";
import { setPasswordCost } from "../server/services/credentials.js";
import { openStoreExplained } from "../server/store/open-failures.js";
import type { IngestOptions, Store } from "../server/store/store.js";
import { settingOption, settingValue } from "./setting-options.js";

/** `--db`; without it, FEEDGATE_DB from `env`, then the default file. */
export function dbOption(command: Command, env: NodeJS.ProcessEnv): Command {
  return settingOption(command, SETTINGS.db).hook("preAction", () => {
    command.setOptionValue("db", settingValue(command, SETTINGS.db, env));
  });
}

/**
 * `--db` and `--db-direct` of the commands that open the store (withStore): behind a pooler in transaction mode, the
 * migrations and a bulk load's index build and VACUUM need PostgreSQL itself, as `serve`'s do. FEEDGATE_DB_DIRECT as
 * for `serve`.
 */
export function storeOptions(command: Command, env: NodeJS.ProcessEnv): Command {
  return settingOption(dbOption(command, env), SETTINGS.dbDirect).hook("preAction", () => {
    command.setOptionValue("dbDirect", settingValue(command, SETTINGS.dbDirect, env));
  });
}

export function dbPath(options: { db?: string }): string {
  return options.db ?? DEFAULT_DB;
}

/**
 * `--password-cost` of the commands that hash passwords but do not serve; without it, FEEDGATE_PASSWORD_COST,
 * then the default. (`serve` reads it with its other settings.)
 */
export function passwordCostOption(command: Command, env: NodeJS.ProcessEnv): Command {
  return settingOption(command, SETTINGS.passwordCost).hook("preAction", () => {
    setPasswordCost(settingValue(command, SETTINGS.passwordCost, env));
  });
}

/**
 * `--webhook-max-queue` (and, where `skippable`, `--no-webhooks`) of the commands that ingest events: what their
 * ingests queue for webhooks, read through `ingestOptions`. FEEDGATE_WEBHOOK_MAX_QUEUE as for `serve`.
 */
export function webhookOptions(command: Command, env: NodeJS.ProcessEnv, skippable: boolean): Command {
  settingOption(command, SETTINGS.webhooks.maxQueue);
  if (skippable) command.option("--no-webhooks", "queue no webhook deliveries for the events added");
  return command.hook("preAction", () => {
    const webhooks = command.getOptionValue("webhooks") !== false;
    const maxQueue = settingValue(command, SETTINGS.webhooks.maxQueue, env);
    command.setOptionValue("ingestOptions", { webhooks: webhooks ? { maxQueue } : null } satisfies IngestOptions);
  });
}

/** What an ingest's result says of hooks it could not queue for: one line, or nothing. */
export function fullQueuesNote(hooksFull: ReadonlySet<number>): string {
  return hooksFull.size === 0
    ? ""
    : `webhooks: the queue of hook${hooksFull.size === 1 ? "" : "s"} ${[...hooksFull].join(", ")} ` +
        "was full (--webhook-max-queue): some deliveries were not queued\n";
}

/**
 * Opens the store (options of storeOptions), runs `work`, and always closes it again. A database that does not exist
 * or does not answer, or a pooler given without `--db-direct`, is one line naming it and the fix, as for `serve`.
 */
export async function withStore<T>(
  options: { db?: string; dbDirect?: string },
  work: (store: Store) => Promise<T>,
): Promise<T> {
  const db = dbPath(options);
  const store = await openStoreExplained(db, undefined, undefined, undefined, options.dbDirect);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
