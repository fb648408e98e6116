/**
 * Database images in SQLite (../state-store.ts): each kept as tables `<image>__<table>` of one in-memory database
 * attached to the connection, copied with INSERT ... SELECT inside SQLite.
 *
 * Not shared: an attached in-memory database and sqlite_sequence; PostgreSQL keeps images in a schema, with sequences.
 */
import type Database from "better-sqlite3";
import { checkImageName, NOT_STATE, RAISE_EVERY_VERSION, type StateStore } from "../state-store.js";
import type { SqliteExecutor } from "./executor.js";

const IMAGES = "feedgate_images";
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

export class SqliteState implements StateStore {
  private attached = false;

  private readonly db: Database.Database;

  /** Each call takes its turn on the connection (SqliteExecutor.exclusive): never an image of an open transaction. */
  constructor(private readonly connection: SqliteExecutor) {
    this.db = connection.db;
  }

  /** The tables that hold state, in the order they were created (parents before the rows that point at them). */
  private tables(): string[] {
    return this.db
      .prepare<[], string>(`SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
      AND name NOT IN (${NOT_STATE.map(() => "?").join(", ")}) ORDER BY rowid`)
      .pluck()
      .all(...(NOT_STATE as []));
  }

  private attach(): void {
    if (this.attached) return;
    this.db.exec(`ATTACH DATABASE ':memory:' AS ${IMAGES}`);
    this.attached = true;
  }

  async capture(name: string): Promise<void> {
    checkImageName(name);
    await this.connection.exclusive(() => {
      this.attach();
      this.db.transaction(() => {
        this.drop(name);
        for (const table of [...this.tables(), "sqlite_sequence"]) {
          this.db.exec(`CREATE TABLE ${IMAGES}.${quoted(`${name}__${table}`)} AS SELECT * FROM main.${quoted(table)}`);
        }
      })();
    });
  }

  async replace(name: string): Promise<void> {
    checkImageName(name);
    await this.connection.exclusive(() => this.replaceNow(name));
  }

  private replaceNow(name: string): void {
    if (!this.holds(name)) throw new RangeError(`no image named ${name}`);
    const tables = this.tables();
    this.db
      .transaction(() => {
        // Rows go back in any order; the references between them are checked once, at commit.
        this.db.pragma("defer_foreign_keys = ON");
        for (const table of [...tables].reverse()) this.db.exec(`DELETE FROM main.${quoted(table)}`);
        for (const table of tables) {
          this.db.exec(`INSERT INTO main.${quoted(table)} SELECT * FROM ${IMAGES}.${quoted(`${name}__${table}`)}`);
        }
        this.db.exec("DELETE FROM main.sqlite_sequence");
        this.db.exec(`INSERT INTO main.sqlite_sequence SELECT * FROM ${IMAGES}.${quoted(`${name}__sqlite_sequence`)}`);
        for (const statement of RAISE_EVERY_VERSION) this.db.exec(statement);
      })
      .immediate();
  }

  async discard(name: string): Promise<void> {
    checkImageName(name);
    await this.connection.exclusive(() => this.attached && this.db.transaction(() => this.drop(name))());
  }

  async has(name: string): Promise<boolean> {
    checkImageName(name);
    return this.connection.exclusive(() => this.holds(name));
  }

  private holds(name: string): boolean {
    if (!this.attached) return false;
    return (
      this.db.prepare(`SELECT 1 FROM ${IMAGES}.sqlite_master WHERE name = ?`).get(`${name}__sqlite_sequence`) !==
      undefined
    );
  }

  private drop(name: string): void {
    const tables = this.db
      .prepare<[string], string>(
        `SELECT name FROM ${IMAGES}.sqlite_master WHERE type = 'table' AND name LIKE ? ESCAPE '\\'`,
      )
      .pluck()
      .all(`${name.replaceAll("_", "\\_")}\\_\\_%`);
    for (const table of tables) this.db.exec(`DROP TABLE ${IMAGES}.${quoted(table)}`);
  }
}
