/** Chooses the store driver from the `--db` value. */
import type { Store } from "./store.js";
import { SqliteStore } from "./sqlite/sqlite-store.js";

export async function openStore(db: string): Promise<Store> {
  if (/^postgres(ql)?:\/\//.test(db)) {
    throw new Error("PostgreSQL is not supported yet; pass a SQLite file path to --db");
  }
  return SqliteStore.open(db);
}
