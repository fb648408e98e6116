/**
 * Accounts (users and organizations), written once over the executor: their SQL, the mapping of their rows, whose
 * column types differ by driver (sql-values.ts), and the store. The one difference of dialect is how a login is
 * matched; which rows an account's deletion removes is account-deletion.ts's.
 */
import {
  DELETE_AUTHORIZATIONS,
  DELETE_RELATIONS,
  DELETE_ROW,
  NAMED_BY_HISTORY,
  STRIP_CREDENTIALS,
} from "./account-deletion.js";
import { DuplicateError } from "./duplicate-error.js";
import { UniqueViolation, type Executor } from "./executor.js";
// Feeds (received events, private visibility) depend on the relations a deletion removes.
import { RAISE_GENERATION, type Dialect } from "./feed-sql.js";
import { holdsNul } from "./nul.js";
import { date, type Bool, type Time, type ValueWriter } from "./sql-values.js";
import type { AccountDeletion, AccountType, NewUser, UserRow, UserStore } from "./user-store.js";

/**
 * Logins compare case-insensitively, as on GitHub, each dialect through its unique index (migration 1): SQLite's
 * column is COLLATE NOCASE, so `=` ignores case; PostgreSQL's index is on lower(login), so both sides are lowered.
 */
const LOGIN_IS: Record<Dialect, string> = { sqlite: "login = @login", postgres: "lower(login) = lower(@login)" };

function userSql(dialect: Dialect) {
  const loginIs = LOGIN_IS[dialect];
  return {
    /** An account known only from imported events has no password yet: giving it one makes it a login user. */
    claim: `UPDATE users SET password_hash = @passwordHash, otp_secret = @otpSecret, site_admin = @siteAdmin
      WHERE ${loginIs} AND password_hash IS NULL AND type = 'User' RETURNING *`,
    insert: `INSERT INTO users (login, password_hash, otp_secret, site_admin, created_at)
      VALUES (@login, @passwordHash, @otpSecret, @siteAdmin, @now) RETURNING *`,
    byLogin: `SELECT * FROM users WHERE ${loginIs}`,
    byId: "SELECT * FROM users WHERE id = @id",
    /** Accounts that can log in. */
    list: "SELECT * FROM users WHERE password_hash IS NOT NULL ORDER BY id",
    count: "SELECT count(*) AS n FROM users WHERE password_hash IS NOT NULL",
    setPassword: "UPDATE users SET password_hash = @passwordHash WHERE id = @id",
    setOtpSecret: "UPDATE users SET otp_secret = @otpSecret WHERE id = @id",
    setSuspended: "UPDATE users SET suspended_at = @at WHERE id = @id",
  };
}

interface UserRecord {
  id: number;
  login: string;
  password_hash: string | null;
  otp_secret: string | null;
  site_admin: Bool;
  created_at: Time;
  type: AccountType;
  external_id: number | null;
  suspended_at: Time | null;
  email: string | null;
  blog: string | null;
  billing_email: string | null;
  updated_at: Time | null;
}

export const toUser = (r: UserRecord): UserRow => ({
  id: r.id,
  login: r.login,
  type: r.type,
  wireId: r.external_id ?? r.id,
  passwordHash: r.password_hash,
  otpSecret: r.otp_secret,
  siteAdmin: Boolean(r.site_admin),
  suspendedAt: r.suspended_at === null ? null : date(r.suspended_at),
  createdAt: date(r.created_at),
  email: r.email,
  blog: r.blog,
  billingEmail: r.billing_email,
  updatedAt: date(r.updated_at ?? r.created_at),
});

/**
 * A world's profile of an account (ingest's `setProfile`): the fields given (null leaves one as it is), and the time
 * of the change as its updated_at only when one of them changes, so that seeding the same world again changes
 * nothing, its Last-Modified included.
 */
export const SET_PROFILE = `UPDATE users SET email = coalesce(@email, email), blog = coalesce(@blog, blog),
    billing_email = coalesce(@billingEmail, billing_email), updated_at = @now
  WHERE id = @id AND (coalesce(@email, email) IS DISTINCT FROM email OR coalesce(@blog, blog) IS DISTINCT FROM blog
    OR coalesce(@billingEmail, billing_email) IS DISTINCT FROM billing_email)`;

/** The parameters of `claim` and `insert`. */
const newUserParameters = <B extends Bool, T extends Time>(user: NewUser, now: Date, values: ValueWriter<B, T>) => ({
  login: user.login,
  passwordHash: user.passwordHash,
  otpSecret: user.otpSecret,
  siteAdmin: values.bool(user.siteAdmin),
  now: values.time(now),
});

export class Users implements UserStore {
  private readonly sql;

  constructor(private readonly db: Executor) {
    this.sql = userSql(db.dialect);
  }

  private async one(sql: string, parameters: Record<string, unknown>): Promise<UserRow | null> {
    const r = await this.db.get<UserRecord>(sql, parameters);
    return r ? toUser(r) : null;
  }

  async create(user: NewUser): Promise<UserRow> {
    const parameters = newUserParameters(user, new Date(), this.db.values);
    const claimed = await this.one(this.sql.claim, parameters);
    if (claimed) return claimed;
    try {
      return (await this.one(this.sql.insert, parameters))!;
    } catch (error) {
      if (error instanceof UniqueViolation) throw new DuplicateError(`user ${user.login}`);
      throw error;
    }
  }

  async findByLogin(login: string) {
    return this.db.dialect === "postgres" && holdsNul(login) ? null : this.one(this.sql.byLogin, { login });
  }

  findById(id: number) {
    return this.one(this.sql.byId, { id });
  }

  async list() {
    return (await this.db.all<UserRecord>(this.sql.list)).map(toUser);
  }

  async count() {
    return Number((await this.db.get<{ n: number }>(this.sql.count))!.n);
  }

  async setPassword(id: number, passwordHash: string) {
    await this.db.run(this.sql.setPassword, { id, passwordHash });
  }

  async setOtpSecret(id: number, otpSecret: string | null) {
    await this.db.run(this.sql.setOtpSecret, { id, otpSecret });
  }

  async setSuspended(id: number, at: Date | null) {
    await this.db.run(this.sql.setSuspended, { id, at: at === null ? null : this.db.values.time(at) });
  }

  delete(id: number): Promise<AccountDeletion> {
    return this.db.transaction(async (tx) => {
      const authorizationsDeleted = (await tx.run(DELETE_AUTHORIZATIONS, { id })).changes;
      for (const sql of DELETE_RELATIONS) await tx.run(sql, { id });
      const rowKept = Number((await tx.get<{ named: number }>(NAMED_BY_HISTORY, { id }))!.named) === 1;
      await tx.run(rowKept ? STRIP_CREDENTIALS : DELETE_ROW, { id });
      await tx.run(RAISE_GENERATION);
      return { authorizationsDeleted, rowKept };
    });
  }
}
