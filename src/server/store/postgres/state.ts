/**
 * Database images in PostgreSQL (../state-store.ts): each kept as tables `<image>__<table>` in a schema of their
 * own beside feedgate's, so every instance sharing the database sees them; the identity counters as rows of
 * `<image>__sequences`. Copied with INSERT ... SELECT inside the server.
 *
 * Not shared: a schema of images, TRUNCATE and setval are PostgreSQL's; SQLite attaches an in-memory database.
 */
import type pg from "pg";
import { checkImageName, NOT_STATE, RAISE_EVERY_VERSION, type StateStore } from "../state-store.js";
import { transaction } from "./pool.js";

const IMAGES = "feedgate_images";
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** feedgate's tables in the schema it uses, parents before the tables whose foreign keys point at them. */
const TABLES = `
  WITH RECURSIVE state AS (
    SELECT c.oid, c.relname FROM pg_class c
    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      AND c.relname <> ALL ($1::text[])
  ), depth AS (
    SELECT s.oid, 0 AS level FROM state s
    UNION ALL
    SELECT f.conrelid, d.level + 1 FROM depth d JOIN pg_constraint f ON f.contype = 'f' AND f.confrelid = d.oid AND f.conrelid <> d.oid
  )
  SELECT s.relname AS name FROM state s JOIN depth d ON d.oid = s.oid GROUP BY s.relname ORDER BY max(d.level), s.relname`;

/** Every identity or serial counter of those tables. */
const SEQUENCES = `
  SELECT seq.relname AS name FROM pg_class seq JOIN pg_depend dep ON dep.objid = seq.oid AND dep.deptype IN ('a', 'i')
    JOIN pg_class tab ON tab.oid = dep.refobjid
  WHERE seq.relkind = 'S' AND tab.relnamespace = current_schema()::regnamespace AND tab.relname <> ALL ($1::text[])`;

export class PostgresState implements StateStore {
  constructor(private readonly pool: pg.Pool) {}

  async capture(name: string): Promise<void> {
    checkImageName(name);
    await transaction(
      this.pool,
      async (client) => {
        await client.query(`CREATE SCHEMA IF NOT EXISTS ${IMAGES}`);
        await this.drop(client, name);
        for (const table of await this.tables(client)) {
          await client.query(`CREATE TABLE ${IMAGES}.${quoted(`${name}__${table}`)} AS SELECT * FROM ${quoted(table)}`);
        }
        await client.query(
          `CREATE TABLE ${IMAGES}.${quoted(`${name}__sequences`)} (name text PRIMARY KEY, last_value bigint, is_called boolean)`,
        );
        for (const sequence of await this.sequences(client)) {
          await client.query(
            `INSERT INTO ${IMAGES}.${quoted(`${name}__sequences`)} SELECT $1, last_value, is_called FROM ${quoted(sequence)}`,
            [sequence],
          );
        }
      },
      "REPEATABLE READ",
    );
  }

  async replace(name: string): Promise<void> {
    checkImageName(name);
    if (!(await this.has(name))) throw new RangeError(`no image named ${name}`);
    await transaction(this.pool, async (client) => {
      const tables = await this.tables(client);
      // TRUNCATE fires no row trigger: the numbers the triggers would raise are raised below, once.
      await client.query(`TRUNCATE ${tables.map(quoted).join(", ")}`);
      for (const table of tables) {
        await client.query(
          `INSERT INTO ${quoted(table)} OVERRIDING SYSTEM VALUE SELECT * FROM ${IMAGES}.${quoted(`${name}__${table}`)}`,
        );
      }
      const counters = await client.query<{ name: string; last_value: number; is_called: boolean }>(
        `SELECT name, last_value, is_called FROM ${IMAGES}.${quoted(`${name}__sequences`)}`,
      );
      for (const counter of counters.rows) {
        await client.query("SELECT setval($1::regclass, $2, $3)", [
          quoted(counter.name),
          counter.last_value,
          counter.is_called,
        ]);
      }
      for (const statement of RAISE_EVERY_VERSION) await client.query(statement);
    });
  }

  async discard(name: string): Promise<void> {
    checkImageName(name);
    await transaction(this.pool, (client) => this.drop(client, name));
  }

  async has(name: string): Promise<boolean> {
    checkImageName(name);
    const found = await this.pool.query("SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = $2", [
      IMAGES,
      `${name}__sequences`,
    ]);
    return found.rowCount === 1;
  }

  private async tables(client: pg.PoolClient): Promise<string[]> {
    return (await client.query<{ name: string }>(TABLES, [NOT_STATE])).rows.map((row) => row.name);
  }

  private async sequences(client: pg.PoolClient): Promise<string[]> {
    return (await client.query<{ name: string }>(SEQUENCES, [NOT_STATE])).rows.map((row) => row.name);
  }

  private async drop(client: pg.PoolClient, name: string): Promise<void> {
    const found = await client.query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = $1 AND starts_with(tablename, $2)",
      [IMAGES, `${name}__`],
    );
    for (const { tablename } of found.rows) await client.query(`DROP TABLE ${IMAGES}.${quoted(tablename)}`);
  }
}
