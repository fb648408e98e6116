/** Console sessions in SQLite. */
import type Database from "better-sqlite3";
import type { NewSession, SessionRow, SessionStore } from "../session-store.js";

interface SessionRecord {
  id_hash: string; user_id: number; credential: string; verified: number; created_at: string; last_seen_at: string;
}

const toSession = (r: SessionRecord): SessionRow => ({
  idHash: r.id_hash, userId: r.user_id, credential: r.credential, verified: r.verified === 1,
  createdAt: new Date(r.created_at), lastSeenAt: new Date(r.last_seen_at),
});

export class SqliteSessions implements SessionStore {
  private readonly insert; private readonly byHash; private readonly seen; private readonly remove; private readonly expired;

  constructor(db: Database.Database) {
    this.insert = db.prepare<unknown[], SessionRecord>(
      `INSERT INTO sessions (id_hash, user_id, credential, verified, created_at, last_seen_at)
       VALUES (?, ?, ?, ?, ?, ?) RETURNING *`);
    this.byHash = db.prepare<[string], SessionRecord>("SELECT * FROM sessions WHERE id_hash = ?");
    this.seen = db.prepare<[string, string]>("UPDATE sessions SET last_seen_at = ? WHERE id_hash = ?");
    this.remove = db.prepare<[string]>("DELETE FROM sessions WHERE id_hash = ?");
    this.expired = db.prepare<[string, string]>("DELETE FROM sessions WHERE last_seen_at < ? OR created_at < ?");
  }

  async create(s: NewSession, now: Date): Promise<SessionRow> {
    const at = now.toISOString();
    return toSession(this.insert.get(s.idHash, s.userId, s.credential, s.verified ? 1 : 0, at, at)!);
  }

  async find(idHash: string) {
    const r = this.byHash.get(idHash);
    return r ? toSession(r) : null;
  }

  async touch(idHash: string, now: Date) {
    this.seen.run(now.toISOString(), idHash);
  }

  async delete(idHash: string) {
    return this.remove.run(idHash).changes > 0;
  }

  async deleteExpired(idleBefore: Date, createdBefore: Date) {
    return this.expired.run(idleBefore.toISOString(), createdBefore.toISOString()).changes;
  }
}
