/** Console sessions in PostgreSQL (SQL in ../session-sql.ts). */
import type pg from "pg";
import type { NewSession, SessionRow, SessionStore } from "../session-store.js";
import { newSessionParameters, SESSION_SQL, toSession, type SessionRecord } from "../session-sql.js";
import { POSTGRES_VALUES } from "../sql-values.js";
import { named } from "./pool.js";

export class PostgresSessions implements SessionStore {
  constructor(private readonly pool: pg.Pool) {}

  async create(s: NewSession, now: Date): Promise<SessionRow> {
    const { rows } = await this.pool.query<SessionRecord>(
      named(SESSION_SQL.insert, newSessionParameters(s, now, POSTGRES_VALUES)),
    );
    return toSession(rows[0]!);
  }

  async find(idHash: string) {
    const { rows } = await this.pool.query<SessionRecord>(named(SESSION_SQL.find, { idHash }));
    return rows[0] ? toSession(rows[0]) : null;
  }

  async touch(idHash: string, now: Date) {
    await this.pool.query(named(SESSION_SQL.touch, { idHash, now }));
  }

  async delete(idHash: string) {
    const { rowCount } = await this.pool.query(named(SESSION_SQL.delete, { idHash }));
    return (rowCount ?? 0) > 0;
  }

  async deleteExpired(idleBefore: Date, createdBefore: Date) {
    const { rowCount } = await this.pool.query(named(SESSION_SQL.deleteExpired, { idleBefore, createdBefore }));
    return rowCount ?? 0;
  }
}
