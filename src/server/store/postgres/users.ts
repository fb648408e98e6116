/** Accounts (users and organizations) in PostgreSQL (SQL in ../user-sql.ts). */
import type pg from "pg";
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
import { POSTGRES_VALUES } from "../sql-values.js";
import { newUserParameters, toUser, userSql, type UserRecord } from "../user-sql.js";
import { holdsNul, isUniqueViolation, named, transaction } from "./pool.js";

const SQL = userSql("postgres");

export class PostgresUsers implements UserStore {
  constructor(private readonly pool: pg.Pool) {}

  private async one(sql: string, parameters: Record<string, unknown>): Promise<UserRow | null> {
    const { rows } = await this.pool.query<UserRecord>(named(sql, parameters));
    return rows[0] ? toUser(rows[0]) : null;
  }

  async create(user: NewUser): Promise<UserRow> {
    const parameters = newUserParameters(user, new Date(), POSTGRES_VALUES);
    const claimed = await this.one(SQL.claim, parameters);
    if (claimed) return claimed;
    try {
      return (await this.one(SQL.insert, parameters))!;
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateError(`user ${user.login}`);
      throw error;
    }
  }

  async findByLogin(login: string) {
    if (holdsNul(login)) return null;
    return this.one(SQL.byLogin, { login });
  }

  findById(id: number) {
    return this.one(SQL.byId, { id });
  }

  async list() {
    const { rows } = await this.pool.query<UserRecord>(SQL.list);
    return rows.map(toUser);
  }

  async count() {
    const { rows } = await this.pool.query<{ n: number }>(SQL.count);
    return rows[0]!.n;
  }

  async setPassword(id: number, passwordHash: string) {
    await this.pool.query(named(SQL.setPassword, { id, passwordHash }));
  }

  async setOtpSecret(id: number, otpSecret: string | null) {
    await this.pool.query(named(SQL.setOtpSecret, { id, otpSecret }));
  }

  async setSuspended(id: number, at: Date | null) {
    await this.pool.query(named(SQL.setSuspended, { id, at }));
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
