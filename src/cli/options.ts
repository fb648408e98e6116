/** Options several commands share, and the store they open. */
import type { Command } from "commander";
import { DEFAULT_DB, passwordCost, webhookMaxQueue } from "../server/config.js";
import { DEFAULT_PASSWORD_COST, setPasswordCost } from "../server/services/credentials.js";
import { openStoreExplained } from "../server/store/open-failures.js";
import { DEFAULT_WEBHOOK_MAX_QUEUE, type IngestOptions, type Store } from "../server/store/store.js";

/** `--db`; without it, FEEDGATE_DB from `env`, then the default file. */
export function dbOption(command: Command, env: NodeJS.ProcessEnv): Command {
  return command.option("--db <path|url>", `SQLite file or postgres:// URL (env FEEDGATE_DB, default ${DEFAULT_DB})`)
    .hook("preAction", () => {
      command.setOptionValue("db", command.getOptionValue("db") ?? env.FEEDGATE_DB ?? DEFAULT_DB);
    });
}

export function dbPath(options: { db?: string }): string {
  return options.db ?? DEFAULT_DB;
}

/**
 * `--password-cost` of the commands that hash passwords (`serve` among them); without it, FEEDGATE_PASSWORD_COST,
 * then the default.
 */
export function passwordCostOption(command: Command, env: NodeJS.ProcessEnv): Command {
  return command
    .option("--password-cost <log2>",
      `log2 of scrypt's N for new password hashes (env FEEDGATE_PASSWORD_COST, default ${DEFAULT_PASSWORD_COST})`)
    .hook("preAction", () => {
      setPasswordCost(passwordCost(command.getOptionValue("passwordCost") ?? env.FEEDGATE_PASSWORD_COST));
    });
}

/**
 * `--webhook-max-queue` (and, where `skippable`, `--no-webhooks`) of the commands that ingest events: what their
 * ingests queue for webhooks, read through `ingestOptions`. FEEDGATE_WEBHOOK_MAX_QUEUE as for `serve`.
 */
export function webhookOptions(command: Command, env: NodeJS.ProcessEnv, skippable: boolean): Command {
  command.option("--webhook-max-queue <n>", "deliveries queued for one hook at most, past which it gets none " +
    `(env FEEDGATE_WEBHOOK_MAX_QUEUE, default ${DEFAULT_WEBHOOK_MAX_QUEUE})`);
  if (skippable) command.option("--no-webhooks", "queue no webhook deliveries for the events added");
  return command.hook("preAction", () => {
    const webhooks = command.getOptionValue("webhooks") !== false;
    const maxQueue = webhookMaxQueue(command.getOptionValue("webhookMaxQueue") ?? env.FEEDGATE_WEBHOOK_MAX_QUEUE);
    command.setOptionValue("ingestOptions", { webhooks: webhooks ? { maxQueue } : null } satisfies IngestOptions);
  });
}

/** What an ingest's result says of hooks it could not queue for: one line, or nothing. */
export function fullQueuesNote(hooksFull: ReadonlySet<number>): string {
  return hooksFull.size === 0 ? "" : `webhooks: the queue of hook${hooksFull.size === 1 ? "" : "s"} ${[...hooksFull].join(", ")} ` +
    "was full (--webhook-max-queue): some deliveries were not queued\n";
}

/**
 * Opens the store, runs `work`, and always closes it again. A database that does not exist or does not answer
 * is one line naming it and the fix, as for `serve`.
 */
export async function withStore<T>(options: { db?: string }, work: (store: Store) => Promise<T>): Promise<T> {
  const db = dbPath(options);
  const store = await openStoreExplained(db);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
