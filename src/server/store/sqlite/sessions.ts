/** Console sessions in SQLite (SQL in ../session-sql.ts). */
import type Database from "better-sqlite3";
import type { NewSession, SessionRow, SessionStore } from "../session-store.js";
import { newSessionParameters, SESSION_SQL, toSession, type SessionRecord } from "../session-sql.js";
import { SQLITE_VALUES } from "../sql-values.js";

export class SqliteSessions implements SessionStore {
  private readonly insert;
  private readonly byHash;
  private readonly seen;
  private readonly remove;
  private readonly expired;

  constructor(db: Database.Database) {
    this.insert = db.prepare<ReturnType<typeof newSessionParameters<number, string>>, SessionRecord>(
      SESSION_SQL.insert,
    );
    this.byHash = db.prepare<{ idHash: string }, SessionRecord>(SESSION_SQL.find);
    this.seen = db.prepare<{ idHash: string; now: string }>(SESSION_SQL.touch);
    this.remove = db.prepare<{ idHash: string }>(SESSION_SQL.delete);
    this.expired = db.prepare<{ idleBefore: string; createdBefore: string }>(SESSION_SQL.deleteExpired);
  }

  async create(s: NewSession, now: Date): Promise<SessionRow> {
    return toSession(this.insert.get(newSessionParameters(s, now, SQLITE_VALUES))!);
  }

  async find(idHash: string) {
    const r = this.byHash.get({ idHash });
    return r ? toSession(r) : null;
  }

  async touch(idHash: string, now: Date) {
    this.seen.run({ idHash, now: SQLITE_VALUES.time(now) });
  }

  async delete(idHash: string) {
    return this.remove.run({ idHash }).changes > 0;
  }

  async deleteExpired(idleBefore: Date, createdBefore: Date) {
    return this.expired.run({
      idleBefore: SQLITE_VALUES.time(idleBefore),
      createdBefore: SQLITE_VALUES.time(createdBefore),
    }).changes;
  }
}
