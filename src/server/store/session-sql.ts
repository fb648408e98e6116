/**
 * The console sessions' SQL, shared by both drivers (`@name` parameters; PostgreSQL's driver numbers them), and the
 * mapping of their rows, whose column types differ by driver (sql-values.ts).
 */
import type { NewSession, SessionRow } from "./session-store.js";
import { date, type Bool, type Time, type ValueWriter } from "./sql-values.js";

export const SESSION_SQL = {
  insert: `INSERT INTO sessions (id_hash, user_id, credential, verified, created_at, last_seen_at)
    VALUES (@idHash, @userId, @credential, @verified, @now, @now) RETURNING *`,
  find: "SELECT * FROM sessions WHERE id_hash = @idHash",
  touch: "UPDATE sessions SET last_seen_at = @now WHERE id_hash = @idHash",
  delete: "DELETE FROM sessions WHERE id_hash = @idHash",
  deleteExpired: "DELETE FROM sessions WHERE last_seen_at < @idleBefore OR created_at < @createdBefore",
};

export interface SessionRecord {
  id_hash: string;
  user_id: number;
  credential: string;
  verified: Bool;
  created_at: Time;
  last_seen_at: Time;
}

export const toSession = (r: SessionRecord): SessionRow => ({
  idHash: r.id_hash,
  userId: Number(r.user_id),
  credential: r.credential,
  verified: Boolean(r.verified),
  createdAt: date(r.created_at),
  lastSeenAt: date(r.last_seen_at),
});

export const newSessionParameters = <B extends Bool, T extends Time>(
  s: NewSession,
  now: Date,
  values: ValueWriter<B, T>,
) => ({
  idHash: s.idHash,
  userId: s.userId,
  credential: s.credential,
  verified: values.bool(s.verified),
  now: values.time(now),
});
