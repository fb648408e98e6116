/** Authorizations in SQLite (SQL in ../authorization-sql.ts). */
import type Database from "better-sqlite3";
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
import { SQLITE_VALUES } from "../sql-values.js";
import { isUniqueViolation } from "./errors.js";

type Ids = { userId: number; id: number };
type OfKind = ReturnType<typeof kindParameters<number>>;

export class SqliteAuthorizations implements AuthorizationStore {
  private readonly insert;
  private readonly byId;
  private readonly page;
  private readonly counter;
  private readonly remove;
  private readonly byLastEight;
  private readonly save;
  private readonly everyOwned;
  private readonly ownedBy;
  private readonly counts;
  private readonly removeAny;
  private readonly removeByHashes;

  constructor(private readonly db: Database.Database) {
    this.insert = db.prepare<ReturnType<typeof insertParameters<number, string>>, AuthorizationRecord>(SQL.insert);
    this.byId = db.prepare<Ids, AuthorizationRecord>(SQL.find);
    this.page = db.prepare<OfKind & PageRequest, AuthorizationRecord>(SQL.page);
    this.counter = db.prepare<OfKind, { n: number }>(SQL.count);
    this.remove = db.prepare<Ids>(SQL.delete);
    this.byLastEight = db.prepare<{ lastEight: string }, AuthorizationRecord>(SQL.byLastEight);
    this.save = db.prepare<ReturnType<typeof updateParameters<number, string>>, AuthorizationRecord>(SQL.update);
    this.everyOwned = db.prepare<[], OwnedRecord>(SQL.everyOwned);
    this.ownedBy = db.prepare<{ userId: number }, OwnedRecord>(SQL.ownedBy);
    this.counts = db.prepare<[], { user_id: number; n: number }>(SQL.countByUser);
    this.removeAny = db.prepare<{ id: number }, AuthorizationRecord>(SQL.revoke);
    this.removeByHashes = db.prepare<{ hashes: string }, AuthorizationRecord>(revokeByHashesSql("sqlite"));
  }

  async create(a: NewAuthorization, now: Date): Promise<AuthorizationRow> {
    try {
      return toAuthorization(this.insert.get(insertParameters(a, now, SQLITE_VALUES))!);
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateError("token");
      throw error;
    }
  }

  async find(userId: number, id: number) {
    const r = this.byId.get({ userId, id });
    return r ? toAuthorization(r) : null;
  }

  async list(
    userId: number,
    { limit, offset }: PageRequest,
    kind: TokenKind = "classic",
  ): Promise<Page<AuthorizationRow>> {
    const ofKind = kindParameters(userId, kind, SQLITE_VALUES);
    // One read transaction, so the rows and the total agree.
    return this.db.transaction(() => ({
      rows: this.page.all({ ...ofKind, limit, offset }).map(toAuthorization),
      total: this.counter.get(ofKind)!.n,
    }))();
  }

  async update(userId: number, id: number, changes: AuthorizationChanges, now: Date) {
    const r = this.save.get(updateParameters(userId, id, changes, now, SQLITE_VALUES));
    return r ? toAuthorization(r) : null;
  }

  async delete(userId: number, id: number) {
    return this.remove.run({ userId, id }).changes > 0;
  }

  async findByTokenLastEight(lastEight: string) {
    return this.byLastEight.all({ lastEight }).map(toAuthorization);
  }

  async listAll(userId?: number): Promise<OwnedAuthorization[]> {
    const records = userId === undefined ? this.everyOwned.all() : this.ownedBy.all({ userId });
    return records.map((r) => ({ ...toAuthorization(r), login: r.login }));
  }

  async countByUser() {
    return new Map(this.counts.all().map((r) => [r.user_id, r.n]));
  }

  async revoke(id: number) {
    const r = this.removeAny.get({ id });
    return r ? toAuthorization(r) : null;
  }

  async revokeByHashes(hashedTokens: readonly string[]) {
    return this.removeByHashes.all({ hashes: JSON.stringify(hashedTokens) }).map(toAuthorization);
  }
}
