/** Authorizations in PostgreSQL (SQL in ../authorization-sql.ts). */
import type pg from "pg";
import type {
  AuthorizationChanges,
  AuthorizationRow,
  AuthorizationStore,
  NewAuthorization,
  OwnedAuthorization,
  TokenKind,
} from "../authorization-store.js";
import {
  AUTHORIZATION_SQL as SQL,
  insertParameters,
  kindParameters,
  revokeByHashesSql,
  toAuthorization,
  updateParameters,
  type AuthorizationRecord,
  type OwnedRecord,
} from "../authorization-sql.js";
import { DuplicateError } from "../duplicate-error.js";
import type { Page, PageRequest } from "../page.js";
import { POSTGRES_VALUES } from "../sql-values.js";
import { isUniqueViolation, named, transaction, type Queryable } from "./pool.js";

async function query<R extends pg.QueryResultRow>(
  db: Queryable,
  sql: string,
  parameters: Record<string, unknown> = {},
) {
  return (await db.query<R>(named(sql, parameters))).rows;
}

export class PostgresAuthorizations implements AuthorizationStore {
  constructor(private readonly pool: pg.Pool) {}

  async create(a: NewAuthorization, now: Date): Promise<AuthorizationRow> {
    try {
      const [record] = await query<AuthorizationRecord>(
        this.pool,
        SQL.insert,
        insertParameters(a, now, POSTGRES_VALUES),
      );
      return toAuthorization(record!);
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateError("token");
      throw error;
    }
  }

  async find(userId: number, id: number) {
    const [record] = await query<AuthorizationRecord>(this.pool, SQL.find, { userId, id });
    return record ? toAuthorization(record) : null;
  }

  async list(
    userId: number,
    { limit, offset }: PageRequest,
    kind: TokenKind = "classic",
  ): Promise<Page<AuthorizationRow>> {
    const ofKind = kindParameters(userId, kind, POSTGRES_VALUES);
    // One snapshot, so the rows and the total agree.
    return transaction(
      this.pool,
      async (client) => {
        const rows = await query<AuthorizationRecord>(client, SQL.page, { ...ofKind, limit, offset });
        const [count] = await query<{ n: number }>(client, SQL.count, ofKind);
        return { rows: rows.map(toAuthorization), total: count!.n };
      },
      "REPEATABLE READ",
    );
  }

  async update(userId: number, id: number, changes: AuthorizationChanges, now: Date) {
    const [record] = await query<AuthorizationRecord>(
      this.pool,
      SQL.update,
      updateParameters(userId, id, changes, now, POSTGRES_VALUES),
    );
    return record ? toAuthorization(record) : null;
  }

  async delete(userId: number, id: number) {
    const { rowCount } = await this.pool.query(named(SQL.delete, { userId, id }));
    return (rowCount ?? 0) > 0;
  }

  async findByTokenLastEight(lastEight: string) {
    return (await query<AuthorizationRecord>(this.pool, SQL.byLastEight, { lastEight })).map(toAuthorization);
  }

  async listAll(userId?: number): Promise<OwnedAuthorization[]> {
    const records =
      userId === undefined
        ? await query<OwnedRecord>(this.pool, SQL.everyOwned)
        : await query<OwnedRecord>(this.pool, SQL.ownedBy, { userId });
    return records.map((r) => ({ ...toAuthorization(r), login: r.login }));
  }

  async countByUser() {
    const rows = await query<{ user_id: number; n: number }>(this.pool, SQL.countByUser);
    return new Map(rows.map((r) => [r.user_id, r.n]));
  }

  async revoke(id: number) {
    const [record] = await query<AuthorizationRecord>(this.pool, SQL.revoke, { id });
    return record ? toAuthorization(record) : null;
  }

  async revokeByHashes(hashedTokens: readonly string[]) {
    const records = await query<AuthorizationRecord>(this.pool, revokeByHashesSql("postgres"), {
      hashes: JSON.stringify(hashedTokens),
    });
    return records.map(toAuthorization);
  }
}
