/** Authorizations in PostgreSQL. */
import type pg from "pg";
import { DuplicateError } from "../duplicate-error.js";
import type { AuthorizationChanges, AuthorizationRow, AuthorizationStore, NewAuthorization, OwnedAuthorization } from "../authorization-store.js";
import type { Page, PageRequest } from "../page.js";
import { isUniqueViolation, transaction } from "./pool.js";

interface AuthorizationRecord {
  id: number; user_id: number; hashed_token: string; token_last_eight: string; scopes: string[]; note: string | null;
  note_url: string | null; fingerprint: string | null; created_at: Date; updated_at: Date;
}

const toAuthorization = (r: AuthorizationRecord): AuthorizationRow => ({
  id: r.id, userId: r.user_id, hashedToken: r.hashed_token, tokenLastEight: r.token_last_eight, scopes: r.scopes,
  note: r.note, noteUrl: r.note_url, fingerprint: r.fingerprint, createdAt: r.created_at, updatedAt: r.updated_at,
});

export class PostgresAuthorizations implements AuthorizationStore {
  constructor(private readonly pool: pg.Pool) {}

  async create(a: NewAuthorization, now: Date): Promise<AuthorizationRow> {
    try {
      const { rows } = await this.pool.query<AuthorizationRecord>(
        `INSERT INTO authorizations (user_id, hashed_token, token_last_eight, scopes, note, note_url, fingerprint,
           created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING *`,
        [a.userId, a.hashedToken, a.tokenLastEight, JSON.stringify(a.scopes), a.note, a.noteUrl, a.fingerprint, now]);
      return toAuthorization(rows[0]!);
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateError("token");
      throw error;
    }
  }

  async find(userId: number, id: number) {
    const { rows } = await this.pool.query<AuthorizationRecord>(
      "SELECT * FROM authorizations WHERE user_id = $1 AND id = $2", [userId, id]);
    return rows[0] ? toAuthorization(rows[0]) : null;
  }

  async list(userId: number, { limit, offset }: PageRequest): Promise<Page<AuthorizationRow>> {
    // One snapshot, so the rows and the total agree.
    return transaction(this.pool, async (client) => {
      const { rows } = await client.query<AuthorizationRecord>(
        "SELECT * FROM authorizations WHERE user_id = $1 ORDER BY id LIMIT $2 OFFSET $3", [userId, limit, offset]);
      const count = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM authorizations WHERE user_id = $1", [userId]);
      return { rows: rows.map(toAuthorization), total: count.rows[0]!.n };
    }, "REPEATABLE READ");
  }

  async update(userId: number, id: number, changes: AuthorizationChanges, now: Date) {
    // Unmentioned fields keep their stored values: COALESCE cannot tell "null" from "absent", so flags say which to set.
    const { rows } = await this.pool.query<AuthorizationRecord>(
      `UPDATE authorizations SET
         scopes = CASE WHEN $3 THEN $4::jsonb ELSE scopes END,
         note = CASE WHEN $5 THEN $6 ELSE note END,
         note_url = CASE WHEN $7 THEN $8 ELSE note_url END,
         fingerprint = CASE WHEN $9 THEN $10 ELSE fingerprint END,
         updated_at = $11
       WHERE user_id = $1 AND id = $2 RETURNING *`,
      [userId, id, changes.scopes !== undefined, JSON.stringify(changes.scopes ?? []), changes.note !== undefined,
        changes.note ?? null, changes.noteUrl !== undefined, changes.noteUrl ?? null, changes.fingerprint !== undefined,
        changes.fingerprint ?? null, now]);
    return rows[0] ? toAuthorization(rows[0]) : null;
  }

  async delete(userId: number, id: number) {
    const { rowCount } = await this.pool.query("DELETE FROM authorizations WHERE user_id = $1 AND id = $2", [userId, id]);
    return (rowCount ?? 0) > 0;
  }

  async findByTokenLastEight(lastEight: string) {
    const { rows } = await this.pool.query<AuthorizationRecord>(
      "SELECT * FROM authorizations WHERE token_last_eight = $1", [lastEight]);
    return rows.map(toAuthorization);
  }

  async listAll(userId?: number): Promise<OwnedAuthorization[]> {
    const { rows } = await this.pool.query<AuthorizationRecord & { login: string }>(
      `SELECT a.*, u.login FROM authorizations a JOIN users u ON u.id = a.user_id
       WHERE $1::bigint IS NULL OR a.user_id = $1 ORDER BY a.id`, [userId ?? null]);
    return rows.map((r) => ({ ...toAuthorization(r), login: r.login }));
  }

  async countByUser() {
    const { rows } = await this.pool.query<{ user_id: number; n: number }>(
      "SELECT user_id, count(*)::int AS n FROM authorizations GROUP BY user_id");
    return new Map(rows.map((r) => [r.user_id, r.n]));
  }

  async revoke(id: number) {
    const { rows } = await this.pool.query<AuthorizationRecord>("DELETE FROM authorizations WHERE id = $1 RETURNING *", [id]);
    return rows[0] ? toAuthorization(rows[0]) : null;
  }
}
