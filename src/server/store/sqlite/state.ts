/**
 * Database images in SQLite (../state-store.ts): each kept as tables `<image>__<table>` of one in-memory database
 * attached to the connection, copied with INSERT ... SELECT inside SQLite.
 *
 * On a database only this connection writes (the in-memory store's), a replace puts back only what was written since
 * the database last equalled that image (issue 47: a test double's reset after a few writes to a 1,000-event world
 * took 4 ms, nearly all of it the events deleted and copied back unchanged). Temporary triggers, installed at the
 * first replace, note each row inserted (by rowid) and each table a row of was updated or deleted in. A table with
 * updates or deletes is copied back whole; a table with inserts only loses the rows inserted. No statement here
 * uses INSERT OR REPLACE, whose deletes fire no trigger (SQLite's recursive_triggers is off): a table written so
 * would have to be marked as rewritten.
 *
 * Not shared: an attached in-memory database and sqlite_sequence; PostgreSQL keeps images in a schema, with sequences.
 */
import type Database from "better-sqlite3";
import { checkImageName, NOT_STATE, RAISE_EVERY_VERSION, type StateStore } from "../state-store.js";
import type { SqliteExecutor } from "./executor.js";

const IMAGES = "feedgate_images";
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
/** Tables updated or deleted in since the database last equalled `basis` (temporary tables: this connection's alone). */
const REWRITTEN = "temp.feedgate_rewritten";
/** Rows inserted since, by table and rowid. */
const INSERTED = "temp.feedgate_inserted";

export class SqliteState implements StateStore {
  private attached = false;
  /** Whether the triggers that fill TOUCHED are in place. */
  private tracking = false;
  /** The image the database equals but for the tables in TOUCHED; null when it may equal none. */
  private basis: string | null = null;
  /** The state tables, as main's schema version `version` has them. */
  private tableList: { version: number; names: string[] } | undefined;

  private readonly db: Database.Database;

  /**
   * Each call takes its turn on the connection (SqliteExecutor.exclusive): never an image of an open transaction.
   * @param soleWriter no other connection writes the database (`:memory:`): the triggers see every write.
   */
  constructor(
    private readonly connection: SqliteExecutor,
    private readonly soleWriter = false,
  ) {
    this.db = connection.db;
  }

  /** The tables that hold state, in the order they were created (parents before the rows that point at them). */
  private tables(): string[] {
    // Read again only when main's schema changed (a migration): a reset asks at every call.
    const version = this.db.pragma("main.schema_version", { simple: true }) as number;
    if (this.tableList?.version !== version) {
      const names = this.connection
        .prepared(`SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
      AND name NOT IN (${NOT_STATE.map(() => "?").join(", ")}) ORDER BY rowid`)
        .pluck()
        .all(...NOT_STATE) as string[];
      this.tableList = { version, names };
    }
    return this.tableList.names;
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
        this.forgetTouched();
      })();
      this.basis = name;
    });
  }

  async replace(name: string): Promise<void> {
    checkImageName(name);
    await this.connection.exclusive(() => this.replaceNow(name));
  }

  private replaceNow(name: string): void {
    if (!this.holds(name)) throw new RangeError(`no image named ${name}`);
    const all = this.tables();
    const changes = this.tracking && this.basis === name ? this.changes() : null;
    const tables = changes ? all.filter((table) => changes.rewritten.has(table)) : all;
    // Off for the copy (SQLite ignores the pragma inside a transaction): an image is whole by construction, and a
    // rewritten table's delete must not cascade into a table that is not put back (ON DELETE CASCADE).
    const enforced = this.db.pragma("foreign_keys", { simple: true }) === 1;
    if (enforced) this.db.pragma("foreign_keys = OFF");
    try {
      this.copyBack(name, all, tables, changes?.insertedOnly ?? []);
    } finally {
      if (enforced) this.db.pragma("foreign_keys = ON");
    }
    // Set once the transaction holds: a failed replace leaves the database, and these, as they were.
    this.tracking ||= this.soleWriter;
    this.basis = name;
  }

  /** `tables` copied back whole from the image `name`, the rows `insertedOnly` tables gained since it deleted. */
  private copyBack(name: string, all: string[], tables: string[], insertedOnly: string[]): void {
    this.db
      .transaction(() => {
        for (const table of [...tables].reverse()) this.db.exec(`DELETE FROM main.${quoted(table)}`);
        for (const table of tables) {
          this.db.exec(`INSERT INTO main.${quoted(table)} SELECT * FROM ${IMAGES}.${quoted(`${name}__${table}`)}`);
        }
        for (const table of insertedOnly) {
          this.connection
            .prepared(`DELETE FROM main.${quoted(table)} WHERE rowid IN (SELECT id FROM ${INSERTED} WHERE name = ?)`)
            .run(table);
        }
        this.db.exec("DELETE FROM main.sqlite_sequence");
        this.db.exec(`INSERT INTO main.sqlite_sequence SELECT * FROM ${IMAGES}.${quoted(`${name}__sqlite_sequence`)}`);
        // The version numbers are not state (NOT_STATE): raising them touches no table the triggers watch.
        for (const statement of RAISE_EVERY_VERSION) this.db.exec(statement);
        // Installed after the rows went back, so that nothing is noted yet.
        if (this.soleWriter && !this.tracking) this.track(all);
        else this.forgetTouched();
      })
      .immediate();
  }

  /** The database equals an image now: nothing is written since. */
  private forgetTouched(): void {
    if (!this.tracking) return;
    this.db.exec(`DELETE FROM ${REWRITTEN}; DELETE FROM ${INSERTED}`);
  }

  /** What was written since the basis: tables to copy back whole, and tables that only gained rows. */
  private changes(): { rewritten: Set<string>; insertedOnly: string[] } {
    const rewritten = new Set(this.connection.prepared(`SELECT name FROM ${REWRITTEN}`).pluck().all() as string[]);
    const inserted = this.connection.prepared(`SELECT DISTINCT name FROM ${INSERTED}`).pluck().all() as string[];
    return { rewritten, insertedOnly: inserted.filter((table) => !rewritten.has(table)) };
  }

  /**
   * Notes each write to `tables` from now on (this.tracking, once committed). A table without rowids has no id to
   * note an insert by: any write to one rewrites it.
   */
  private track(tables: string[]): void {
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${REWRITTEN} (name TEXT PRIMARY KEY) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS ${INSERTED} (name TEXT NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (name, id)) WITHOUT ROWID`);
    const withoutRowid = new Set(
      (this.db.pragma("main.table_list") as { name: string; wr: number }[]).filter((t) => t.wr).map((t) => t.name),
    );
    for (const table of tables) {
      const literal = `'${table.replaceAll("'", "''")}'`;
      // Unqualified: SQLite refuses a schema name in a trigger's statements; a TEMP trigger finds temp's tables.
      const rewrite = `INSERT OR IGNORE INTO feedgate_rewritten VALUES (${literal})`;
      const notes = {
        INSERT: withoutRowid.has(table)
          ? rewrite
          : `INSERT OR IGNORE INTO feedgate_inserted VALUES (${literal}, NEW.rowid)`,
        UPDATE: rewrite,
        DELETE: rewrite,
      };
      for (const [operation, note] of Object.entries(notes)) {
        this.db.exec(
          `CREATE TEMP TRIGGER IF NOT EXISTS ${quoted(`feedgate_${table}_${operation}`)} AFTER ${operation} ` +
            `ON main.${quoted(table)} BEGIN ${note}; END`,
        );
      }
    }
  }

  async discard(name: string): Promise<void> {
    checkImageName(name);
    await this.connection.exclusive(() => {
      if (this.basis === name) this.basis = null;
      if (this.attached) this.db.transaction(() => this.drop(name))();
    });
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
