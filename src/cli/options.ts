/** Options several commands share, and the store they open. */
import type { Command } from "commander";
import { DEFAULT_DB } from "../server/config.js";
import { openStore } from "../server/store/open-store.js";
import type { Store } from "../server/store/store.js";

export function dbOption(command: Command): Command {
  return command.option("--db <path|url>", `SQLite file or postgres:// URL (env FEEDGATE_DB, default ${DEFAULT_DB})`);
}

export function dbPath(options: { db?: string }): string {
  return options.db ?? process.env.FEEDGATE_DB ?? DEFAULT_DB;
}

/** Opens the store, runs `work`, and always closes it again. */
export async function withStore<T>(options: { db?: string }, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(dbPath(options));
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
