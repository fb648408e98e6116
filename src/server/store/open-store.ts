/** Chooses the store driver from the `--db` value: a postgres:// URL, or a SQLite file path. */
import type { Store } from "./store.js";
import { SqliteStore } from "./sqlite/sqlite-store.js";
import type { StandbySettings } from "./postgres/postgres-store.js";
import type { LsnFloors } from "./postgres/read-scope.js";
import type { PoolLimits } from "./postgres/pool.js";

export const isPostgresUrl = (db: string) => /^postgres(ql)?:\/\//.test(db);

/**
 * @param limits the PostgreSQL pool's size and timeouts; without them, no statement is cut short (imports, migrations).
 * @param direct PostgreSQL itself when `db` is a pooler (`--db-direct`).
 */
export async function openStore(
  db: string,
  limits?: PoolLimits,
  standbys?: StandbySettings,
  floors?: LsnFloors,
  direct?: string,
): Promise<Store> {
  if (!isPostgresUrl(db)) return SqliteStore.open(db);
  // Loaded only for PostgreSQL: a start on SQLite (the default, --ephemeral, the test double) need not load the driver.
  const { PostgresStore } = await import("./postgres/postgres-store.js");
  return PostgresStore.open(db, limits, standbys, floors, direct);
}
