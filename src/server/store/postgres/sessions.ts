/** Console sessions in PostgreSQL. */
import type pg from "pg";
import type { NewSession, SessionRow, SessionStore } from "../session-store.js";

interface SessionRecord {
  id_hash: string; user_id: number; credential: string; verified: boolean; created_at: Date; last_seen_at: Date;
}

const toSession = (r: SessionRecord): SessionRow => ({
  idHash: r.id_hash, userId: Number(r.user_id), credential: r.credential, verified: r.verified,
  createdAt: r.created_at, lastSeenAt: r.last_seen_at,
});

export class PostgresSessions implements SessionStore {
  constructor(private readonly pool: pg.Pool) {}

  async create(s: NewSession, now: Date): Promise<SessionRow> {
    const { rows } = await this.pool.query<SessionRecord>(
      `INSERT INTO sessions (id_hash, user_id, credential, verified, created_at, last_seen_at)
       VALUES ($1, $2, $3, $4, $5, $5) RETURNING *`, [s.idHash, s.userId, s.credential, s.verified, now]);
    return toSession(rows[0]!);
  }

  async find(idHash: string) {
    const { rows } = await this.pool.query<SessionRecord>("SELECT * FROM sessions WHERE id_hash = $1", [idHash]);
    return rows[0] ? toSession(rows[0]) : null;
  }

  async touch(idHash: string, now: Date) {
    await this.pool.query("UPDATE sessions SET last_seen_at = $2 WHERE id_hash = $1", [idHash, now]);
  }

  async delete(idHash: string) {
    const { rowCount } = await this.pool.query("DELETE FROM sessions WHERE id_hash = $1", [idHash]);
    return (rowCount ?? 0) > 0;
  }

  async deleteExpired(idleBefore: Date, createdBefore: Date) {
    const { rowCount } = await this.pool.query(
      "DELETE FROM sessions WHERE last_seen_at < $1 OR created_at < $2", [idleBefore, createdBefore]);
    return rowCount ?? 0;
  }
}
