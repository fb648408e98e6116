/**
 * A row-level undo log of a SQLite connection's tables (./state.ts): for each table, every row written since the log
 * was last emptied, as it was before its first write. Putting those rows back returns the database to that moment at
 * a cost that follows the rows written, not the rows kept (issue 47: a test double's reset after 100 writes to a
 * 1,000-event world, where copying back each written table whole took 1 ms).
 *
 * Temporary triggers fill the log; they see only this connection's writes, so the log is kept only on a database no
 * other connection writes (the in-memory store's). Each table has a temporary log table of the same columns, keyed as
 * the table is (its rowid, or a WITHOUT ROWID table's primary key): a key's first write notes the row as it was
 * (`feedgate_existed` 1), or that there was none (0); later writes of that key note nothing. `feedgate_touched`
 * names the tables written, and whether any row of one was updated or deleted.
 *
 * No statement of the stores uses INSERT OR REPLACE, whose deletes fire no trigger (recursive_triggers is off).
 */
import type Database from "better-sqlite3";
import type { SqliteExecutor } from "./executor.js";

const TOUCHED = "feedgate_touched";
/** The SQL function the triggers ask whether to note a write: not while the log puts rows back. */
const NOTING = "feedgate_noting";
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
/** A column's name in SQL; `rowid` bare, as SQLite names the key of a table without one of its own. */
const column = (name: string) => (name === "rowid" ? name : quoted(name));

/** What the log needs of a table: how its rows are keyed, and its columns. */
interface TableShape {
  name: string;
  columns: string[];
  /** The key's columns in the log: `feedgate_rowid`, or a WITHOUT ROWID table's primary key. */
  key: string[];
  /** The same key read on the table itself: `rowid`, or the primary key's columns. */
  tableKey: string[];
  /** The column that is the rowid (INTEGER PRIMARY KEY), which a restored row's rowid comes back through. */
  rowidAlias: string | null;
}

/** The statements that put one table's logged rows back: prepared when first run (most tables are never written). */
interface TableUndo {
  /** Deletes the rows inserted since (keys that held no row). */
  dropInserted: string;
  /** Sets rows that still exist back to their logged values. */
  setBack: string;
  /** Inserts logged rows that are gone. */
  insertGone: string;
  /** Deletes every row the log names: the fallback's first half, with foreign keys off. */
  dropLogged: string;
  insertLogged: string;
  empty: string;
}

export class UndoLog {
  private readonly db: Database.Database;
  private readonly undo = new Map<string, TableUndo>();
  /** The tables in creation order, for the order of the puts back. */
  private order: string[] = [];
  /** False while rows are put back or copied in: those writes are the log's own, or make what it starts from. */
  private noting = true;

  constructor(private readonly connection: SqliteExecutor) {
    this.db = connection.db;
  }

  get installed(): boolean {
    return this.order.length > 0;
  }

  /** Creates the log tables and the triggers that fill them, empty; inside the caller's transaction. */
  install(tables: string[]): void {
    // Asked by every trigger: the puts back write only rows the log already holds, so each trigger's two statements
    // for each of them would note nothing.
    this.db.function(NOTING, { deterministic: false }, () => (this.noting ? 1 : 0));
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS temp.${TOUCHED} (name TEXT PRIMARY KEY, rewritten INTEGER NOT NULL) WITHOUT ROWID`,
    );
    const withoutRowid = new Set(
      (this.db.pragma("main.table_list") as { name: string; schema: string; wr: number }[])
        .filter((table) => table.schema === "main" && table.wr === 1)
        .map((table) => table.name),
    );
    // One exec of every table's statements: SQLite's work for each is the same, the calls into it far fewer.
    this.db.exec(tables.map((table) => this.installTable(this.shape(table, withoutRowid.has(table)))).join(";\n"));
    this.order = [...tables];
  }

  private shape(name: string, withoutRowid: boolean): TableShape {
    const info = this.db.pragma(`main.table_info(${literal(name)})`) as { name: string; type: string; pk: number }[];
    const columns = info.map((column) => column.name);
    const primary = info.filter((column) => column.pk > 0).sort((a, b) => a.pk - b.pk);
    if (withoutRowid) {
      const key = primary.map((column) => column.name);
      return { name, columns, key, tableKey: key, rowidAlias: null };
    }
    const only = primary.length === 1 ? primary[0] : undefined;
    const alias = only?.type.toUpperCase() === "INTEGER" ? only.name : null;
    return { name, columns, key: ["feedgate_rowid"], tableKey: ["rowid"], rowidAlias: alias };
  }

  /** The SQL that creates a table's log and triggers; its put-back statements noted. */
  private installTable(table: TableShape): string {
    const log = quoted(`feedgate_undo_${table.name}`);
    const target = `main.${quoted(table.name)}`;
    const columns = table.columns.map(quoted);
    const keyColumns = table.key.map(quoted);
    const rowKeyed = table.tableKey[0] === "rowid";
    const sql = [
      rowKeyed
        ? `CREATE TABLE temp.${log} (feedgate_rowid INTEGER PRIMARY KEY, feedgate_existed INTEGER NOT NULL,
        ${columns.join(", ")})`
        : `CREATE TABLE temp.${log} (feedgate_existed INTEGER NOT NULL, ${columns.join(", ")},
        PRIMARY KEY (${keyColumns.join(", ")})) WITHOUT ROWID`,
    ];
    const keyOf = (row: "OLD" | "NEW") => table.tableKey.map((name) => `${row}.${column(name)}`);
    const logged = (row: "OLD" | "NEW") =>
      `EXISTS (SELECT 1 FROM ${log} WHERE ${table.key.map((name, i) => `${quoted(name)} = ${keyOf(row)[i]}`).join(" AND ")})`;
    // The row as it was: the rowid (for a rowid table), then every column.
    const asItWas = rowKeyed ? ["feedgate_rowid", "feedgate_existed", ...columns] : ["feedgate_existed", ...columns];
    const oldValues = [...(rowKeyed ? ["OLD.rowid"] : []), "1", ...table.columns.map((name) => `OLD.${quoted(name)}`)];
    const noteOld = `INSERT INTO ${TOUCHED} SELECT ${literal(table.name)}, 1 WHERE NOT ${logged("OLD")}
        ON CONFLICT (name) DO UPDATE SET rewritten = 1;
      INSERT OR IGNORE INTO ${log} (${asItWas.join(", ")}) VALUES (${oldValues.join(", ")});`;
    const noteNew = `INSERT OR IGNORE INTO ${log} (${[...keyColumns, "feedgate_existed"].join(", ")})
        VALUES (${[...keyOf("NEW"), "0"].join(", ")});`;
    const bodies = {
      INSERT: `INSERT OR IGNORE INTO ${TOUCHED} VALUES (${literal(table.name)}, 0); ${noteNew}`,
      // The old key first: an update that keeps its key must note the row as it was, not that there was none.
      UPDATE: `${noteOld} ${noteNew}`,
      DELETE: noteOld,
    };
    // Unqualified inside: SQLite refuses a schema name in a trigger's statements; a TEMP trigger finds temp's tables.
    for (const [operation, body] of Object.entries(bodies)) {
      sql.push(
        `CREATE TEMP TRIGGER ${quoted(`feedgate_undo_${table.name}_${operation}`)} AFTER ${operation} ON ${target} ` +
          `WHEN ${NOTING}() BEGIN ${body} END`,
      );
    }
    const inLog = (where: string) =>
      `(${table.tableKey.map(column).join(", ")}) IN (SELECT ${keyColumns.join(", ")} FROM temp.${log} WHERE ${where})`;
    const sameKey = table.key.map(
      (name, i) => `${log}.${quoted(name)} = ${target}.${column(table.tableKey[i] ?? name)}`,
    );
    // A rowid table without a rowid column gets its rowid back named as such.
    const restored = rowKeyed && !table.rowidAlias ? ["rowid", ...columns] : columns;
    const restoredFrom = rowKeyed && !table.rowidAlias ? ["feedgate_rowid", ...columns] : columns;
    this.undo.set(table.name, {
      dropInserted: `DELETE FROM ${target} WHERE ${inLog("feedgate_existed = 0")}`,
      setBack: `UPDATE ${target} SET (${columns.join(", ")}) = (SELECT ${columns.join(", ")} FROM temp.${log}
          WHERE ${sameKey.join(" AND ")}) WHERE ${inLog("feedgate_existed = 1")}`,
      insertGone: `INSERT INTO ${target} (${restored.join(", ")}) SELECT ${restoredFrom.join(", ")} FROM temp.${log}
          WHERE feedgate_existed = 1 AND NOT EXISTS (SELECT 1 FROM ${target} WHERE ${sameKey.join(" AND ")})`,
      dropLogged: `DELETE FROM ${target} WHERE ${inLog("true")}`,
      insertLogged: `INSERT INTO ${target} (${restored.join(", ")}) SELECT ${restoredFrom.join(", ")} FROM temp.${log}
          WHERE feedgate_existed = 1`,
      empty: `DELETE FROM temp.${log}`,
    });
    return sql.join(";\n");
  }

  /** The tables written since the log was emptied, and whether a row of each was updated or deleted. */
  private touched(): Map<string, boolean> {
    const rows = this.connection.prepared(`SELECT name, rewritten FROM temp.${TOUCHED}`).raw().all() as [
      string,
      number,
    ][];
    return new Map(rows.map(([name, rewritten]) => [name, rewritten === 1]));
  }

  /**
   * Puts every logged row back and empties the log, inside the caller's transaction, foreign keys enforced: the rows
   * inserted since go first (a cascade they set off reaches only rows inserted since, or rows the log holds as they
   * were, which the second step puts back), then the rows that were there. Throws when a constraint stands in the
   * way midway (two rows that swapped a unique value); then putBackUnchecked() does it with foreign keys off.
   */
  putBack(): void {
    const touched = this.touched();
    this.unnoted(() => {
      for (const table of [...this.order].reverse()) if (touched.has(table)) this.run(table, "dropInserted");
      for (const table of this.order) {
        if (!touched.get(table)) continue;
        this.run(table, "setBack");
        this.run(table, "insertGone");
      }
    });
    this.emptyTables(touched);
  }

  /** putBack() in two plain steps, for a connection whose foreign keys are off: every logged key deleted, then put back. */
  putBackUnchecked(): void {
    const touched = this.touched();
    this.unnoted(() => {
      for (const table of this.order) if (touched.has(table)) this.run(table, "dropLogged");
      for (const table of this.order) if (touched.get(table)) this.run(table, "insertLogged");
    });
    this.emptyTables(touched);
  }

  /**
   * Runs `work` with the triggers noting nothing: for writes that put the database at what the log starts from (the
   * puts back, an image copied in whole). A cascade they set off reaches no row the log does not already hold as it
   * was: an untouched row points only at rows that were there, untouched too.
   */
  unnoted(work: () => void): void {
    this.noting = false;
    try {
      work();
    } finally {
      this.noting = true;
    }
  }

  /** Whether nothing was written since the log was last emptied (false when no log is kept). */
  holdsNothing(): boolean {
    return this.installed && this.connection.prepared(`SELECT 1 FROM temp.${TOUCHED} LIMIT 1`).get() === undefined;
  }

  /** Forgets what was logged: the database is now what later puts back return to. */
  empty(): void {
    if (this.installed) this.emptyTables(this.touched());
  }

  private emptyTables(touched: Map<string, boolean>): void {
    for (const table of touched.keys()) this.run(table, "empty");
    this.connection.prepared(`DELETE FROM temp.${TOUCHED}`).run();
  }

  private run(table: string, statement: keyof TableUndo): void {
    const undo = this.undo.get(table);
    if (!undo) throw new Error(`the undo log holds no table ${table}`);
    this.connection.prepared(undo[statement]).run();
  }
}
