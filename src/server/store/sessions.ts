/**
 * Console sessions, written once over the executor: their SQL, the mapping of their rows, whose column types differ
 * by driver (sql-values.ts), and the store.
 */
import type { Executor } from "./executor.js";
import type { NewSession, SessionRow, SessionStore } from "./session-store.js";
import { date, type Bool, type Time, type ValueWriter } from "./sql-values.js";

const SESSION_SQL = {
  insert: `INSERT INTO sessions (id_hash, user_id, credential, verified, created_at, last_seen_at)
    VALUES (@idHash, @userId, @credential, @verified, @now, @now) RETURNING *`,
  find: "SELECT * FROM sessions WHERE id_hash = @idHash",
  touch: "UPDATE sessions SET last_seen_at = @now WHERE id_hash = @idHash",
  delete: "DELETE FROM sessions WHERE id_hash = @idHash",
  deleteExpired: "DELETE FROM sessions WHERE last_seen_at < @idleBefore OR created_at < @createdBefore",
};

interface SessionRecord {
  id_hash: string;
  user_id: number;
  credential: string;
  verified: Bool;
  created_at: Time;
  last_seen_at: Time;
}

const toSession = (r: SessionRecord): SessionRow => ({
  idHash: r.id_hash,
  userId: Number(r.user_id),
  credential: r.credential,
  verified: Boolean(r.verified),
  createdAt: date(r.created_at),
  lastSeenAt: date(r.last_seen_at),
});

const newSessionParameters = <B extends Bool, T extends Time>(s: NewSession, now: Date, values: ValueWriter<B, T>) => ({
  idHash: s.idHash,
  userId: s.userId,
  credential: s.credential,
  verified: values.bool(s.verified),
  now: values.time(now),
});

export class Sessions implements SessionStore {
  constructor(private readonly db: Executor) {}

  async create(s: NewSession, now: Date): Promise<SessionRow> {
    return toSession(
      (await this.db.get<SessionRecord>(SESSION_SQL.insert, newSessionParameters(s, now, this.db.values)))!,
    );
  }

  async find(idHash: string) {
    const r = await this.db.get<SessionRecord>(SESSION_SQL.find, { idHash });
    return r ? toSession(r) : null;
  }

  async touch(idHash: string, now: Date) {
    await this.db.run(SESSION_SQL.touch, { idHash, now: this.db.values.time(now) });
  }

  async delete(idHash: string) {
    return (await this.db.run(SESSION_SQL.delete, { idHash })).changes > 0;
  }

  async deleteExpired(idleBefore: Date, createdBefore: Date) {
    const { time } = this.db.values;
    return (
      await this.db.run(SESSION_SQL.deleteExpired, { idleBefore: time(idleBefore), createdBefore: time(createdBefore) })
    ).changes;
  }
}
