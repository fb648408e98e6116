/** Chooses the store driver from the `--db` value: a postgres:// URL, or a SQLite file path. */
import type { Store } from "./store.js";
import { SqliteStore } from "./sqlite/sqlite-store.js";
import { PostgresStore } from "./postgres/postgres-store.js";

export const isPostgresUrl = (db: string) => /^postgres(ql)?:\/\//.test(db);

export async function openStore(db: string): Promise<Store> {
  return isPostgresUrl(db) ? PostgresStore.open(db) : SqliteStore.open(db);
}
