/** Accounts (users and organizations) in PostgreSQL. */
import type pg from "pg";
import { DuplicateError } from "../duplicate-error.js";
import type { AccountDeletion, AccountType, NewUser, UserRow, UserStore } from "../user-store.js";
import {
  DELETE_AUTHORIZATIONS, DELETE_RELATIONS, DELETE_ROW, NAMED_BY_HISTORY, STRIP_CREDENTIALS,
} from "../account-deletion.js";
// Feeds (received events, private visibility) depend on the relations a deletion removes.
import { RAISE_GENERATION } from "../feed-sql.js";
import { holdsNul, isUniqueViolation, named, transaction } from "./pool.js";

interface UserRecord {
  id: number; login: string; password_hash: string | null; otp_secret: string | null; site_admin: boolean;
  created_at: Date; type: AccountType; external_id: number | null; suspended_at: Date | null;
}

const toUser = (r: UserRecord): UserRow => ({
  id: r.id, login: r.login, type: r.type, wireId: r.external_id ?? r.id, passwordHash: r.password_hash,
  otpSecret: r.otp_secret, siteAdmin: r.site_admin, suspendedAt: r.suspended_at, createdAt: r.created_at,
});

export class PostgresUsers implements UserStore {
  constructor(private readonly pool: pg.Pool) {}

  private async one(text: string, values: unknown[]): Promise<UserRow | null> {
    const { rows } = await this.pool.query<UserRecord>(text, values);
    return rows[0] ? toUser(rows[0]) : null;
  }

  async create(user: NewUser): Promise<UserRow> {
    // An account known only from imported events has no password yet: giving it one makes it a login user.
    const claimed = await this.one(
      `UPDATE users SET password_hash = $1, otp_secret = $2, site_admin = $3
       WHERE lower(login) = lower($4) AND password_hash IS NULL AND type = 'User' RETURNING *`,
      [user.passwordHash, user.otpSecret, user.siteAdmin, user.login]);
    if (claimed) return claimed;
    try {
      return (await this.one(
        `INSERT INTO users (login, password_hash, otp_secret, site_admin, created_at) VALUES ($1, $2, $3, $4, now())
         RETURNING *`, [user.login, user.passwordHash, user.otpSecret, user.siteAdmin]))!;
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateError(`user ${user.login}`);
      throw error;
    }
  }

  async findByLogin(login: string) {
    if (holdsNul(login)) return null;
    return this.one("SELECT * FROM users WHERE lower(login) = lower($1)", [login]);
  }

  findById(id: number) {
    return this.one("SELECT * FROM users WHERE id = $1", [id]);
  }

  async list() {
    const { rows } = await this.pool.query<UserRecord>("SELECT * FROM users WHERE password_hash IS NOT NULL ORDER BY id");
    return rows.map(toUser);
  }

  async count() {
    const { rows } = await this.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM users WHERE password_hash IS NOT NULL");
    return rows[0]!.n;
  }

  async setPassword(id: number, passwordHash: string) {
    await this.pool.query("UPDATE users SET password_hash = $1 WHERE id = $2", [passwordHash, id]);
  }

  async setOtpSecret(id: number, otpSecret: string | null) {
    await this.pool.query("UPDATE users SET otp_secret = $1 WHERE id = $2", [otpSecret, id]);
  }

  async setSuspended(id: number, at: Date | null) {
    await this.pool.query("UPDATE users SET suspended_at = $1 WHERE id = $2", [at, id]);
  }

  delete(id: number): Promise<AccountDeletion> {
    return transaction(this.pool, async (client) => {
      const run = (sql: string) => client.query<{ named: number }>(named(sql, { id }));
      const authorizationsDeleted = (await run(DELETE_AUTHORIZATIONS)).rowCount ?? 0;
      for (const sql of DELETE_RELATIONS) await run(sql);
      const rowKept = (await run(NAMED_BY_HISTORY)).rows[0]!.named === 1;
      await run(rowKept ? STRIP_CREDENTIALS : DELETE_ROW);
      await run(RAISE_GENERATION);
      return { authorizationsDeleted, rowKept };
    });
  }
}
