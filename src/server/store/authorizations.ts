/**
 * Authorizations, classic and fine-grained, written once over the executor: their SQL, the mapping of their rows,
 * whose column types differ by driver (sql-values.ts: scopes are JSON text in SQLite, jsonb in PostgreSQL), and the
 * store.
 */
import type { GrantedPermissions, RepositorySelection } from "../../api/permissions.js";
import type {
  AuthorizationChanges,
  AuthorizationRow,
  AuthorizationStore,
  FineGrainedGrant,
  NewAuthorization,
  OwnedAuthorization,
  TokenKind,
} from "./authorization-store.js";
import { DuplicateError } from "./duplicate-error.js";
import { UniqueViolation, type Executor } from "./executor.js";
import type { Dialect } from "./feed-sql.js";
import type { Page, PageRequest } from "./page.js";
import { date, json, type Bool, type Json, type Time, type ValueWriter } from "./sql-values.js";

const OWNED = "SELECT a.*, u.login FROM authorizations a JOIN users u ON u.id = a.user_id";

const SQL = {
  insert: `INSERT INTO authorizations (user_id, hashed_token, token_last_eight, scopes, note, note_url, fingerprint,
      created_at, updated_at, expires_at, resource_owner_id, fine_grained, oauth_app_id)
    VALUES (@userId, @hashedToken, @tokenLastEight, @scopes, @note, @noteUrl, @fingerprint, @now, @now, @expiresAt,
      @resourceOwnerId, @fineGrained, @oauthAppId) RETURNING *`,
  find: "SELECT * FROM authorizations WHERE user_id = @userId AND id = @id",
  // `@fineGrained` says which kind: the two are listed apart, as GitHub's token pages list them.
  page: `SELECT * FROM authorizations WHERE user_id = @userId AND (resource_owner_id IS NOT NULL) = @fineGrained
    ORDER BY id LIMIT @limit OFFSET @offset`,
  count:
    "SELECT count(*) AS n FROM authorizations WHERE user_id = @userId AND (resource_owner_id IS NOT NULL) = @fineGrained",
  /**
   * Unmentioned fields keep their stored values: COALESCE cannot tell "null" from "absent", so flags say which to set.
   * One statement, so that a concurrent update cannot come between the read of a field and its write.
   */
  update: `UPDATE authorizations SET
      scopes = CASE WHEN @setScopes THEN @scopes ELSE scopes END,
      note = CASE WHEN @setNote THEN @note ELSE note END,
      note_url = CASE WHEN @setNoteUrl THEN @noteUrl ELSE note_url END,
      fingerprint = CASE WHEN @setFingerprint THEN @fingerprint ELSE fingerprint END,
      expires_at = CASE WHEN @setExpiresAt THEN @expiresAt ELSE expires_at END,
      updated_at = @now
    WHERE user_id = @userId AND id = @id RETURNING *`,
  delete: "DELETE FROM authorizations WHERE user_id = @userId AND id = @id",
  byLastEight: "SELECT * FROM authorizations WHERE token_last_eight = @lastEight",
  everyOwned: `${OWNED} ORDER BY a.id`,
  ownedBy: `${OWNED} WHERE a.user_id = @userId ORDER BY a.id`,
  countByUser: "SELECT user_id, count(*) AS n FROM authorizations GROUP BY user_id",
  revoke: "DELETE FROM authorizations WHERE id = @id RETURNING *",
};

/**
 * The hashes of a revocation travel as one JSON array parameter, each dialect reading it as a set of rows, so a
 * thousand tokens are one statement (and one transaction: all of them go, or none) through the unique index.
 */
const IN_HASHES: Record<Dialect, string> = {
  sqlite: "hashed_token IN (SELECT value FROM json_each(@hashes))",
  postgres: "hashed_token IN (SELECT jsonb_array_elements_text(CAST(@hashes AS jsonb)))",
};

const revokeByHashesSql = (dialect: Dialect) => `DELETE FROM authorizations WHERE ${IN_HASHES[dialect]} RETURNING *`;

interface AuthorizationRecord {
  id: number;
  user_id: number;
  hashed_token: string;
  token_last_eight: string;
  scopes: Json<string[]>;
  note: string | null;
  note_url: string | null;
  fingerprint: string | null;
  created_at: Time;
  updated_at: Time;
  expires_at: Time | null;
  resource_owner_id: number | null;
  fine_grained: Json<StoredGrant> | null;
  oauth_app_id: number | null;
}

/** A fine-grained token's grant as its JSON column keeps it (the owner has a column of its own, for its foreign key). */
interface StoredGrant {
  repository_selection: RepositorySelection;
  repository_ids: number[];
  permissions: GrantedPermissions;
  description: string | null;
  installation_id?: number;
  rate_scale?: number;
}

const toGrant = (ownerId: number, stored: StoredGrant): FineGrainedGrant => ({
  ownerId,
  repositorySelection: stored.repository_selection,
  repositoryIds: stored.repository_ids,
  permissions: stored.permissions,
  description: stored.description,
  ...(stored.installation_id === undefined ? {} : { installationId: stored.installation_id }),
  ...(stored.rate_scale === undefined ? {} : { rateScale: stored.rate_scale }),
});

const storedGrant = (grant: FineGrainedGrant): StoredGrant => ({
  repository_selection: grant.repositorySelection,
  repository_ids: grant.repositoryIds,
  permissions: grant.permissions,
  description: grant.description,
  ...(grant.installationId === undefined ? {} : { installation_id: grant.installationId }),
  ...(grant.rateScale === undefined ? {} : { rate_scale: grant.rateScale }),
});

type OwnedRecord = AuthorizationRecord & { login: string };

const toAuthorization = (r: AuthorizationRecord): AuthorizationRow => ({
  id: r.id,
  userId: r.user_id,
  hashedToken: r.hashed_token,
  tokenLastEight: r.token_last_eight,
  scopes: json(r.scopes),
  note: r.note,
  noteUrl: r.note_url,
  fingerprint: r.fingerprint,
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
  expiresAt: r.expires_at === null ? null : date(r.expires_at),
  fineGrained:
    r.resource_owner_id === null || r.fine_grained === null
      ? null
      : toGrant(Number(r.resource_owner_id), json(r.fine_grained)),
  oauthAppId: r.oauth_app_id === null ? null : Number(r.oauth_app_id),
});

const insertParameters = <B extends Bool, T extends Time>(
  a: NewAuthorization,
  now: Date,
  values: ValueWriter<B, T>,
) => ({
  userId: a.userId,
  hashedToken: a.hashedToken,
  tokenLastEight: a.tokenLastEight,
  scopes: JSON.stringify(a.scopes),
  note: a.note,
  noteUrl: a.noteUrl,
  fingerprint: a.fingerprint,
  now: values.time(now),
  expiresAt: nullableTime(a.expiresAt, values),
  resourceOwnerId: a.fineGrained?.ownerId ?? null,
  fineGrained: a.fineGrained ? JSON.stringify(storedGrant(a.fineGrained)) : null,
  oauthAppId: a.oauthAppId ?? null,
});

/** The parameters of `page` and `count`: the user and the kind of token listed. */
const kindParameters = <B extends Bool>(userId: number, kind: TokenKind, values: ValueWriter<B>) => ({
  userId,
  fineGrained: values.bool(kind === "fine-grained"),
});

/** The parameters of `update`: each field's flag says whether the changes mention it. */
const updateParameters = <B extends Bool, T extends Time>(
  userId: number,
  id: number,
  changes: AuthorizationChanges,
  now: Date,
  values: ValueWriter<B, T>,
) => ({
  userId,
  id,
  now: values.time(now),
  setScopes: values.bool(changes.scopes !== undefined),
  scopes: JSON.stringify(changes.scopes ?? []),
  setNote: values.bool(changes.note !== undefined),
  note: changes.note ?? null,
  setNoteUrl: values.bool(changes.noteUrl !== undefined),
  noteUrl: changes.noteUrl ?? null,
  setFingerprint: values.bool(changes.fingerprint !== undefined),
  fingerprint: changes.fingerprint ?? null,
  setExpiresAt: values.bool(changes.expiresAt !== undefined),
  expiresAt: nullableTime(changes.expiresAt ?? null, values),
});

const nullableTime = <T extends Time>(value: Date | null, values: ValueWriter<Bool, T>): T | null =>
  value === null ? null : values.time(value);

export class Authorizations implements AuthorizationStore {
  constructor(private readonly db: Executor) {}

  async create(a: NewAuthorization, now: Date): Promise<AuthorizationRow> {
    try {
      return toAuthorization(
        (await this.db.get<AuthorizationRecord>(SQL.insert, insertParameters(a, now, this.db.values)))!,
      );
    } catch (error) {
      if (error instanceof UniqueViolation) throw new DuplicateError("token");
      throw error;
    }
  }

  async find(userId: number, id: number) {
    const r = await this.db.get<AuthorizationRecord>(SQL.find, { userId, id });
    return r ? toAuthorization(r) : null;
  }

  list(userId: number, { limit, offset }: PageRequest, kind: TokenKind = "classic"): Promise<Page<AuthorizationRow>> {
    const ofKind = kindParameters(userId, kind, this.db.values);
    // One snapshot, so the rows and the total agree.
    return this.db.transaction(
      async (tx) => ({
        rows: (await tx.all<AuthorizationRecord>(SQL.page, { ...ofKind, limit, offset })).map(toAuthorization),
        total: Number((await tx.get<{ n: number }>(SQL.count, ofKind))!.n),
      }),
      { consistentReads: true },
    );
  }

  async update(userId: number, id: number, changes: AuthorizationChanges, now: Date) {
    const r = await this.db.get<AuthorizationRecord>(
      SQL.update,
      updateParameters(userId, id, changes, now, this.db.values),
    );
    return r ? toAuthorization(r) : null;
  }

  async delete(userId: number, id: number) {
    return (await this.db.run(SQL.delete, { userId, id })).changes > 0;
  }

  async findByTokenLastEight(lastEight: string) {
    return (await this.db.all<AuthorizationRecord>(SQL.byLastEight, { lastEight })).map(toAuthorization);
  }

  async listAll(userId?: number): Promise<OwnedAuthorization[]> {
    const records =
      userId === undefined
        ? await this.db.all<OwnedRecord>(SQL.everyOwned)
        : await this.db.all<OwnedRecord>(SQL.ownedBy, { userId });
    return records.map((r) => ({ ...toAuthorization(r), login: r.login }));
  }

  async countByUser() {
    const rows = await this.db.all<{ user_id: number; n: number }>(SQL.countByUser);
    return new Map(rows.map((r) => [r.user_id, Number(r.n)]));
  }

  async revoke(id: number) {
    const r = await this.db.get<AuthorizationRecord>(SQL.revoke, { id });
    return r ? toAuthorization(r) : null;
  }

  async revokeByHashes(hashedTokens: readonly string[]) {
    const records = await this.db.all<AuthorizationRecord>(revokeByHashesSql(this.db.dialect), {
      hashes: JSON.stringify(hashedTokens),
    });
    return records.map(toAuthorization);
  }
}
