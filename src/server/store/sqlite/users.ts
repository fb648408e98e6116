/** Accounts (users and organizations) in SQLite (SQL in ../user-sql.ts). */
import type Database from "better-sqlite3";
import { DuplicateError } from "../duplicate-error.js";
import type { AccountDeletion, NewUser, UserRow, UserStore } from "../user-store.js";
import {
  DELETE_AUTHORIZATIONS,
  DELETE_RELATIONS,
  DELETE_ROW,
  NAMED_BY_HISTORY,
  STRIP_CREDENTIALS,
} from "../account-deletion.js";
// Feeds (received events, private visibility) depend on the relations a deletion removes.
import { RAISE_GENERATION } from "../feed-sql.js";
import { SQLITE_VALUES } from "../sql-values.js";
import { newUserParameters, toUser, userSql, type UserRecord } from "../user-sql.js";
import { isUniqueViolation } from "./errors.js";

const SQL = userSql("sqlite");
type NewUserParameters = ReturnType<typeof newUserParameters<number, string>>;

export class SqliteUsers implements UserStore {
  private readonly claim;
  private readonly insert;
  private readonly byLogin;
  private readonly byId;
  private readonly all;
  private readonly counter;
  private readonly password;
  private readonly otp;
  private readonly suspension;
  private readonly deleteAccount;

  constructor(db: Database.Database) {
    this.claim = db.prepare<NewUserParameters, UserRecord>(SQL.claim);
    this.insert = db.prepare<NewUserParameters, UserRecord>(SQL.insert);
    this.byLogin = db.prepare<{ login: string }, UserRecord>(SQL.byLogin);
    this.byId = db.prepare<{ id: number }, UserRecord>(SQL.byId);
    this.all = db.prepare<[], UserRecord>(SQL.list);
    this.counter = db.prepare<[], { n: number }>(SQL.count);
    this.password = db.prepare<{ id: number; passwordHash: string }>(SQL.setPassword);
    this.otp = db.prepare<{ id: number; otpSecret: string | null }>(SQL.setOtpSecret);
    this.suspension = db.prepare<{ id: number; at: string | null }>(SQL.setSuspended);
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
    const parameters = newUserParameters(user, new Date(), SQLITE_VALUES);
    const claimed = this.claim.get(parameters);
    if (claimed) return toUser(claimed);
    try {
      return toUser(this.insert.get(parameters)!);
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateError(`user ${user.login}`);
      throw error;
    }
  }

  async findByLogin(login: string) {
    const r = this.byLogin.get({ login });
    return r ? toUser(r) : null;
  }

  async findById(id: number) {
    const r = this.byId.get({ id });
    return r ? toUser(r) : null;
  }

  async list() {
    return this.all.all().map(toUser);
  }

  async count() {
    return this.counter.get()!.n;
  }

  async setPassword(id: number, passwordHash: string) {
    this.password.run({ id, passwordHash });
  }

  async setOtpSecret(id: number, otpSecret: string | null) {
    this.otp.run({ id, otpSecret });
  }

  async setSuspended(id: number, at: Date | null) {
    this.suspension.run({ id, at: at === null ? null : SQLITE_VALUES.time(at) });
  }

  async delete(id: number) {
    return this.deleteAccount(id);
  }
}
