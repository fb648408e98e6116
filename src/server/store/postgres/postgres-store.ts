/**
 * The scale-out store: PostgreSQL through a `pg` pool, shared by any number of stateless feedgate instances.
 * Migrations run under an advisory lock, so instances starting together do not race.
 */
import type pg from "pg";
import { migrations } from "../migrations/index.js";
import type { AuthorizationStore, DirectoryStore, EventStore, IngestStore, Store, UserStore } from "../store.js";
import { createPool } from "./pool.js";
import { PostgresUsers } from "./users.js";
import { PostgresAuthorizations } from "./authorizations.js";
import { PostgresDirectory } from "./directory.js";
import { PostgresEvents } from "./events.js";
import { PostgresIngest } from "./ingest.js";

const MIGRATION_LOCK = "hashtext('feedgate:migrations')";

export class PostgresStore implements Store {
  readonly users: UserStore;
  readonly authorizations: AuthorizationStore;
  readonly directory: DirectoryStore;
  readonly events: EventStore;
  readonly ingest: IngestStore;

  private constructor(private readonly pool: pg.Pool) {
    this.users = new PostgresUsers(pool);
    this.authorizations = new PostgresAuthorizations(pool);
    this.directory = new PostgresDirectory(pool);
    this.events = new PostgresEvents(pool);
    this.ingest = new PostgresIngest(pool);
  }

  static async open(url: string): Promise<PostgresStore> {
    const store = new PostgresStore(createPool(url));
    try {
      await store.migrate();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  async migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)`);
      const { rows } = await client.query<{ id: number }>("SELECT id FROM schema_migrations");
      const applied = new Set(rows.map((r) => r.id));
      for (const migration of migrations) {
        if (applied.has(migration.id)) continue;
        await client.query("BEGIN");
        try {
          await client.query(migration.postgres);
          await client.query("INSERT INTO schema_migrations (id, name, applied_at) VALUES ($1, $2, now())",
            [migration.id, migration.name]);
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK");
          throw error;
        }
      }
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => undefined);
      client.release();
    }
  }

  async ping(): Promise<void> {
    await this.pool.query("SELECT 1");
  }

  /** Drains the pool: waits for checked-out clients, then closes every connection. */
  async close(): Promise<void> {
    await this.pool.end();
  }
}
