/**
 * Database images in SQLite (../state-store.ts): each kept as tables `<image>__<table>` of one in-memory database
 * attached to the connection, copied with INSERT ... SELECT inside SQLite. A table empty when the image is taken is
 * not copied (a test double's start took 1.4 ms copying some fifty tables, most of them empty): putting it back is
 * emptying it.
 *
 * On a database only this connection writes (the in-memory store's), the database is held at the image it last
 * equalled (SqliteExecutor.hold(): a savepoint left open), and a replace of that image is one ROLLBACK TO, whose cost
 * follows the pages written since, not the rows kept or the indexes they are in (issue 47: a reset after 100 writes to
 * a 1,000-event world took 0.8 ms putting rows back one by one from an undo log, half of it in the events' seven
 * indexes). The numbers that are not state are read before the rollback and written back after it, raised.
 * Any other replace copies every table back whole. Only an error that makes SQLite roll back the whole transaction
 * ends a hold unasked (none of the statements asks for one; out of memory would), and then the writes since are gone.
 *
 * Not shared: an attached in-memory database and sqlite_sequence; PostgreSQL keeps images in a schema, with sequences.
 */
import type Database from "better-sqlite3";
import { checkImageName, NOT_STATE, RAISE_EVERY_VERSION, type StateStore } from "../state-store.js";
import type { SqliteExecutor } from "./executor.js";

const IMAGES = "feedgate_images";
const SEQUENCES = "sqlite_sequence";
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The column received_versions is read in, as JSON, beside ingest_state's before a rollback. */
const RECEIVED = "feedgate_received_versions";

export class SqliteState implements StateStore {
  private attached = false;
  /** The tables each image copied (those not empty then), by image name; sqlite_sequence always. */
  private readonly images = new Map<string, Set<string>>();
  /**
   * The image the database is held at (its writes since undone by a rollback), with main's schema version and the
   * connection's count of changed rows then: a migration since cannot be rolled back, and no change means no write.
   */
  private held: { image: string; version: number; changes: number } | null = null;
  /** The state tables, as main's schema version `version` has them, and the query naming those holding rows. */
  private tableList: { version: number; names: string[]; holdingRows: Database.Statement } | undefined;

  private readonly db: Database.Database;

  /**
   * Each call takes its turn on the connection (SqliteExecutor.exclusive): never an image of an open transaction.
   * @param soleWriter no other connection uses the database (`:memory:`): it may be held at an image.
   */
  constructor(
    private readonly connection: SqliteExecutor,
    private readonly soleWriter = false,
  ) {
    this.db = connection.db;
  }

  private schemaVersion(): number {
    // Prepared once: a reset asks twice, and db.pragma() prepares at every call.
    return this.connection.prepared("PRAGMA main.schema_version").pluck().get() as number;
  }

  /** Rows changed by this connection since it opened: the same as at hold() when nothing was written since. */
  private changes(): number {
    return this.connection.prepared("SELECT total_changes()").pluck().get() as number;
  }

  /** The tables that hold state, in the order they were created, and the query naming those that hold rows. */
  private currentTables(): NonNullable<SqliteState["tableList"]> {
    // Read again only when main's schema changed (a migration): a reset asks at every call.
    const version = this.schemaVersion();
    if (this.tableList?.version !== version) {
      const names = this.connection
        .prepared(`SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
      AND name NOT IN (${NOT_STATE.map(() => "?").join(", ")}) ORDER BY rowid`)
        .pluck()
        .all(...NOT_STATE) as string[];
      const holdingRows = this.db
        .prepare(
          names
            .map((name) => `SELECT '${name.replaceAll("'", "''")}' WHERE EXISTS (SELECT 1 FROM main.${quoted(name)})`)
            .join(" UNION ALL "),
        )
        .pluck();
      this.tableList = { version, names, holdingRows };
    }
    return this.tableList;
  }

  private attach(): void {
    if (this.attached) return;
    this.db.exec(`ATTACH DATABASE ':memory:' AS ${IMAGES}`);
    this.attached = true;
  }

  /** Whether the database is held at `image` and may be rolled back to it. */
  private heldAt(image: string): boolean {
    return this.held?.image === image && this.connection.holding && this.held.version === this.schemaVersion();
  }

  /** Holds the database at `image`, which it equals now (only a database no other connection uses). */
  private hold(image: string): void {
    if (!this.soleWriter) return;
    this.connection.hold();
    this.held = { image, version: this.schemaVersion(), changes: this.changes() };
  }

  /**
   * Commits what the hold kept undoable: before an image's tables are made or dropped (a rollback would undo that too)
   * and before foreign keys are turned off (SQLite ignores the pragma inside a transaction).
   */
  private release(): void {
    this.connection.release();
    this.held = null;
  }

  async capture(name: string): Promise<void> {
    checkImageName(name);
    await this.connection.exclusive(() => {
      // The database still equals that image: it stands (a parked test double's store, taken again: src/testing).
      if (this.heldAt(name) && this.held?.changes === this.changes()) return;
      this.release();
      this.attach();
      this.db.transaction(() => {
        this.drop(name);
        const copied = new Set([...(this.currentTables().holdingRows.all() as string[]), SEQUENCES]);
        for (const table of copied) {
          this.db.exec(`CREATE TABLE ${IMAGES}.${quoted(`${name}__${table}`)} AS SELECT * FROM main.${quoted(table)}`);
        }
        this.images.set(name, copied);
      })();
      this.hold(name);
    });
  }

  async replace(name: string): Promise<void> {
    checkImageName(name);
    await this.connection.exclusive(() => this.replaceNow(name));
  }

  private replaceNow(name: string): void {
    const copied = this.images.get(name);
    if (!copied) throw new RangeError(`no image named ${name}`);
    if (this.heldAt(name)) {
      this.rollBack();
      return;
    }
    this.release();
    this.withoutForeignKeys(() => this.copyBack(name, copied));
    this.hold(name);
  }

  /** Every write since the hold undone, the numbers that are not state kept and raised (RAISE_EVERY_VERSION). */
  private rollBack(): void {
    // Read in one statement: ingest_state's row, and received_versions as `[[user_id, version], ...]`.
    const { [RECEIVED]: received, ...numbers } = this.connection
      .prepared(`SELECT *, (SELECT json_group_array(json_array(user_id, version)) FROM received_versions) AS ${RECEIVED}
        FROM ingest_state WHERE id = 1`)
      .get() as Record<string, unknown>;
    this.connection.rollbackToHeld();
    const columns = Object.keys(numbers).filter((column) => column !== "id");
    this.connection
      .prepared(
        `UPDATE ingest_state SET ${columns.map((column) => `${quoted(column)} = @${column}`).join(", ")} WHERE id = 1`,
      )
      .run(numbers);
    this.connection.prepared("DELETE FROM received_versions").run();
    this.connection
      .prepared("INSERT INTO received_versions (user_id, version) SELECT value ->> 0, value ->> 1 FROM json_each(?)")
      .run(received);
    for (const statement of RAISE_EVERY_VERSION) this.connection.prepared(statement).run();
    this.held = { ...this.held!, changes: this.changes() };
  }

  /** Runs `work` with foreign keys off (SQLite ignores the pragma inside a transaction), then as they were. */
  private withoutForeignKeys(work: () => void): void {
    const enforced = this.db.pragma("foreign_keys", { simple: true }) === 1;
    if (enforced) this.db.pragma("foreign_keys = OFF");
    try {
      work();
    } finally {
      if (enforced) this.db.pragma("foreign_keys = ON");
    }
  }

  /**
   * Every table copied back whole from the image `name`, the tables it did not copy emptied; foreign keys are off:
   * an image is whole by construction, and a table's delete must not cascade into one already put back.
   */
  private copyBack(name: string, copied: Set<string>): void {
    const all = this.currentTables().names;
    this.db
      .transaction(() => {
        for (const table of [...all].reverse()) this.db.exec(`DELETE FROM main.${quoted(table)}`);
        for (const table of all) {
          if (!copied.has(table)) continue;
          this.db.exec(`INSERT INTO main.${quoted(table)} SELECT * FROM ${IMAGES}.${quoted(`${name}__${table}`)}`);
        }
        this.connection.prepared(`DELETE FROM main.${SEQUENCES}`).run();
        this.connection
          .prepared(`INSERT INTO main.${SEQUENCES} SELECT * FROM ${IMAGES}.${quoted(`${name}__${SEQUENCES}`)}`)
          .run();
        for (const statement of RAISE_EVERY_VERSION) this.connection.prepared(statement).run();
      })
      .immediate();
  }

  async discard(name: string): Promise<void> {
    checkImageName(name);
    await this.connection.exclusive(() => {
      if (!this.attached) return;
      // Dropped for good: a rollback to the image held must not bring the tables back.
      this.release();
      this.db.transaction(() => this.drop(name))();
    });
  }

  async has(name: string): Promise<boolean> {
    checkImageName(name);
    return this.connection.exclusive(() => this.images.has(name));
  }

  private drop(name: string): void {
    for (const table of this.images.get(name) ?? [])
      this.db.exec(`DROP TABLE ${IMAGES}.${quoted(`${name}__${table}`)}`);
    this.images.delete(name);
  }
}
