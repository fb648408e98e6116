/**
 * Database images in SQLite (../state-store.ts): each kept as tables `<image>__<table>` of one in-memory database
 * attached to the connection, copied with INSERT ... SELECT inside SQLite. A table empty when the image is taken is
 * not copied (a test double's start took 1.4 ms copying some fifty tables, most of them empty): putting it back is
 * emptying it.
 *
 * On a database only this connection writes (the in-memory store's), a replace of the image the database last
 * equalled puts back only the rows written since, from a row-level undo log (./undo-log.ts) begun at the first
 * replace. Any other replace copies every table back whole.
 *
 * Not shared: an attached in-memory database and sqlite_sequence; PostgreSQL keeps images in a schema, with sequences.
 */
import type Database from "better-sqlite3";
import { checkImageName, NOT_STATE, RAISE_EVERY_VERSION, type StateStore } from "../state-store.js";
import type { SqliteExecutor } from "./executor.js";
import { UndoLog } from "./undo-log.js";

const IMAGES = "feedgate_images";
const SEQUENCES = "sqlite_sequence";
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

export class SqliteState implements StateStore {
  private attached = false;
  /** The tables each image copied (those not empty then), by image name; sqlite_sequence always. */
  private readonly images = new Map<string, Set<string>>();
  /** Notes each row written, once begun (at the first replace, on a database only this connection writes). */
  private readonly undo: UndoLog;
  /** main's schema version when the log was begun: a migration since leaves its new tables out of it. */
  private undoVersion: number | null = null;
  /** The image the database equals but for what the undo log holds; null when it may equal none. */
  private basis: string | null = null;
  /** The state tables, as main's schema version `version` has them, and the query naming those holding rows. */
  private tableList: { version: number; names: string[]; holdingRows: Database.Statement } | undefined;

  private readonly db: Database.Database;

  /**
   * Each call takes its turn on the connection (SqliteExecutor.exclusive): never an image of an open transaction.
   * @param soleWriter no other connection writes the database (`:memory:`): the undo log's triggers see every write.
   */
  constructor(
    private readonly connection: SqliteExecutor,
    private readonly soleWriter = false,
  ) {
    this.db = connection.db;
    this.undo = new UndoLog(connection);
  }

  private schemaVersion(): number {
    return this.db.pragma("main.schema_version", { simple: true }) as number;
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

  async capture(name: string): Promise<void> {
    checkImageName(name);
    await this.connection.exclusive(() => {
      // The database still equals that image: it stands (a parked test double's store, taken again: src/testing).
      if (this.basis === name && this.undoVersion === this.schemaVersion() && this.undo.holdsNothing()) return;
      this.attach();
      this.db.transaction(() => {
        this.drop(name);
        const copied = new Set([...(this.currentTables().holdingRows.all() as string[]), SEQUENCES]);
        for (const table of copied) {
          this.db.exec(`CREATE TABLE ${IMAGES}.${quoted(`${name}__${table}`)} AS SELECT * FROM main.${quoted(table)}`);
        }
        this.images.set(name, copied);
        this.undo.empty();
      })();
      this.basis = name;
    });
  }

  async replace(name: string): Promise<void> {
    checkImageName(name);
    await this.connection.exclusive(() => this.replaceNow(name));
  }

  private replaceNow(name: string): void {
    const copied = this.images.get(name);
    if (!copied) throw new RangeError(`no image named ${name}`);
    if (this.basis === name && this.undoVersion === this.schemaVersion()) {
      this.putBack(name);
      return;
    }
    this.withoutForeignKeys(() => this.copyBack(name, copied));
    this.basis = name;
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

  /** The rows written since the image `name` the database equalled, put back from the undo log. */
  private putBack(name: string): void {
    try {
      this.db.transaction(() => this.afterRowsBack(name, () => this.undo.putBack())).immediate();
    } catch (error) {
      // A constraint midway (rows that swapped a unique value, a parent deleted before its children are put back):
      // the same rows again, all deleted first, with foreign keys off. The first attempt was rolled back whole.
      if (!(error instanceof Error && "code" in error && String(error.code).startsWith("SQLITE_CONSTRAINT")))
        throw error;
      this.withoutForeignKeys(() =>
        this.db.transaction(() => this.afterRowsBack(name, () => this.undo.putBackUnchecked())).immediate(),
      );
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
        // Noted by no trigger: the undo log starts again from here.
        this.undo.unnoted(() => {
          for (const table of [...all].reverse()) this.db.exec(`DELETE FROM main.${quoted(table)}`);
          for (const table of all) {
            if (!copied.has(table)) continue;
            this.db.exec(`INSERT INTO main.${quoted(table)} SELECT * FROM ${IMAGES}.${quoted(`${name}__${table}`)}`);
          }
        });
        this.afterRowsBack(name, () => {});
        // Begun once the rows are back, so that the log starts empty, at the image.
        if (this.soleWriter && this.undoVersion === null) {
          this.undo.install(all);
          this.undoVersion = this.schemaVersion();
        } else this.undo.empty();
      })
      .immediate();
  }

  /** Inside a replace's transaction: `putRowsBack`, then the id counters and the version numbers. */
  private afterRowsBack(name: string, putRowsBack: () => void): void {
    putRowsBack();
    this.connection.prepared(`DELETE FROM main.${SEQUENCES}`).run();
    this.connection
      .prepared(`INSERT INTO main.${SEQUENCES} SELECT * FROM ${IMAGES}.${quoted(`${name}__${SEQUENCES}`)}`)
      .run();
    // The version numbers are not state (NOT_STATE): raising them touches no table the undo log holds.
    for (const statement of RAISE_EVERY_VERSION) this.connection.prepared(statement).run();
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
    return this.connection.exclusive(() => this.images.has(name));
  }

  private drop(name: string): void {
    for (const table of this.images.get(name) ?? [])
      this.db.exec(`DROP TABLE ${IMAGES}.${quoted(`${name}__${table}`)}`);
    this.images.delete(name);
  }
}
