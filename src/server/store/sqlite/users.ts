/** Accounts (users and organizations) in SQLite. */
import type Database from "better-sqlite3";
import { DuplicateError } from "../duplicate-error.js";
import type { AccountDeletion, AccountType, NewUser, UserRow, UserStore } from "../user-store.js";
import {
  DELETE_AUTHORIZATIONS, DELETE_RELATIONS, DELETE_ROW, NAMED_BY_HISTORY, STRIP_CREDENTIALS,
} from "../account-deletion.js";
// Feeds (received events, private visibility) depend on the relations a deletion removes.
import { RAISE_GENERATION } from "../feed-sql.js";
import { isUniqueViolation } from "./errors.js";

export interface UserRecord {
  id: number; login: string; password_hash: string | null; otp_secret: string | null; site_admin: number;
  created_at: string; type: string; external_id: number | null; suspended_at: string | null;
}

export const toUser = (r: UserRecord): UserRow => ({
  id: r.id, login: r.login, type: r.type as AccountType, wireId: r.external_id ?? r.id, passwordHash: r.password_hash, otpSecret: r.otp_secret, siteAdmin: r.site_admin === 1,
  suspendedAt: r.suspended_at === null ? null : new Date(r.suspended_at), createdAt: new Date(r.created_at),
});

export class SqliteUsers implements UserStore {
  private readonly insert; private readonly byLogin; private readonly byId; private readonly all;
  private readonly counter; private readonly password; private readonly claimAccount; private readonly otp;
  private readonly suspension; private readonly deleteAccount;

  constructor(db: Database.Database) {
    this.insert = db.prepare<[string, string | null, string | null, number, string], UserRecord>(
      `INSERT INTO users (login, password_hash, otp_secret, site_admin, created_at) VALUES (?, ?, ?, ?, ?) RETURNING *`);
    this.byLogin = db.prepare<[string], UserRecord>("SELECT * FROM users WHERE login = ?");
    this.byId = db.prepare<[number], UserRecord>("SELECT * FROM users WHERE id = ?");
    this.all = db.prepare<[], UserRecord>("SELECT * FROM users WHERE password_hash IS NOT NULL ORDER BY id");
    this.counter = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM users WHERE password_hash IS NOT NULL");
    this.password = db.prepare<[string, number]>("UPDATE users SET password_hash = ? WHERE id = ?");
    this.claimAccount = db.prepare<[string | null, string | null, number, number], UserRecord>(
      `UPDATE users SET password_hash = ?, otp_secret = ?, site_admin = ?
       WHERE id = ? AND password_hash IS NULL AND type = 'User' RETURNING *`);
    this.otp = db.prepare<[string | null, number]>("UPDATE users SET otp_secret = ? WHERE id = ?");
    this.suspension = db.prepare<[string | null, number]>("UPDATE users SET suspended_at = ? WHERE id = ?");
    const authorizations = db.prepare<[{ id: number }]>(DELETE_AUTHORIZATIONS);
    const relations = DELETE_RELATIONS.map((sql) => db.prepare<[{ id: number }]>(sql));
    const named = db.prepare<[{ id: number }], { named: number }>(NAMED_BY_HISTORY);
    const strip = db.prepare<[{ id: number }]>(STRIP_CREDENTIALS);
    const removeRow = db.prepare<[{ id: number }]>(DELETE_ROW);
    const raise = db.prepare(RAISE_GENERATION);
    this.deleteAccount = db.transaction((id: number): AccountDeletion => {
      const authorizationsDeleted = authorizations.run({ id }).changes;
      for (const statement of relations) statement.run({ id });
      const rowKept = named.get({ id })!.named === 1;
      (rowKept ? strip : removeRow).run({ id });
      raise.run();
      return { authorizationsDeleted, rowKept };
    });
  }

  async create(user: NewUser): Promise<UserRow> {
    // An account known only from imported events has no password yet: giving it one makes it a login user.
    const existing = this.byLogin.get(user.login);
    if (existing && existing.password_hash === null && existing.type === "User") {
      return toUser(this.claimAccount.get(user.passwordHash, user.otpSecret, user.siteAdmin ? 1 : 0, existing.id)!);
    }
    try {
      const record = this.insert.get(user.login, user.passwordHash, user.otpSecret, user.siteAdmin ? 1 : 0,
        new Date().toISOString());
      return toUser(record!);
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateError(`user ${user.login}`);
      throw error;
    }
  }

  async findByLogin(login: string) {
    const r = this.byLogin.get(login);
    return r ? toUser(r) : null;
  }

  async findById(id: number) {
    const r = this.byId.get(id);
    return r ? toUser(r) : null;
  }

  async list() {
    return this.all.all().map(toUser);
  }

  async count() {
    return this.counter.get()!.n;
  }

  async setPassword(id: number, passwordHash: string) {
    this.password.run(passwordHash, id);
  }

  async setOtpSecret(id: number, otpSecret: string | null) {
    this.otp.run(otpSecret, id);
  }

  async setSuspended(id: number, at: Date | null) {
    this.suspension.run(at?.toISOString() ?? null, id);
  }

  async delete(id: number) {
    return this.deleteAccount(id);
  }
}

