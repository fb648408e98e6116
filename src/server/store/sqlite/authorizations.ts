/** Authorizations in SQLite. */
import type Database from "better-sqlite3";
import { DuplicateError } from "../duplicate-error.js";
import type { AuthorizationChanges, AuthorizationRow, AuthorizationStore, NewAuthorization, OwnedAuthorization } from "../authorization-store.js";
import type { Page, PageRequest } from "../page.js";
import { isUniqueViolation } from "./errors.js";

interface AuthorizationRecord {
  id: number; user_id: number; hashed_token: string; token_last_eight: string; scopes: string; note: string | null;
  note_url: string | null; fingerprint: string | null; created_at: string; updated_at: string;
}

const toAuthorization = (r: AuthorizationRecord): AuthorizationRow => ({
  id: r.id, userId: r.user_id, hashedToken: r.hashed_token, tokenLastEight: r.token_last_eight,
  scopes: JSON.parse(r.scopes) as string[], note: r.note, noteUrl: r.note_url, fingerprint: r.fingerprint,
  createdAt: new Date(r.created_at), updatedAt: new Date(r.updated_at),
});

export class SqliteAuthorizations implements AuthorizationStore {
  private readonly insert; private readonly byId; private readonly page; private readonly counter;
  private readonly remove; private readonly byLastEight; private readonly save; private readonly everyOwned;
  private readonly ownedBy; private readonly counts; private readonly removeAny;

  constructor(private readonly db: Database.Database) {
    this.insert = db.prepare<unknown[], AuthorizationRecord>(
      `INSERT INTO authorizations (user_id, hashed_token, token_last_eight, scopes, note, note_url, fingerprint,
         created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`);
    this.byId = db.prepare<[number, number], AuthorizationRecord>(
      "SELECT * FROM authorizations WHERE user_id = ? AND id = ?");
    this.page = db.prepare<[number, number, number], AuthorizationRecord>(
      "SELECT * FROM authorizations WHERE user_id = ? ORDER BY id LIMIT ? OFFSET ?");
    this.counter = db.prepare<[number], { n: number }>("SELECT count(*) AS n FROM authorizations WHERE user_id = ?");
    this.remove = db.prepare<[number, number]>("DELETE FROM authorizations WHERE user_id = ? AND id = ?");
    this.byLastEight = db.prepare<[string], AuthorizationRecord>(
      "SELECT * FROM authorizations WHERE token_last_eight = ?");
    this.save = db.prepare<unknown[], AuthorizationRecord>(
      `UPDATE authorizations SET scopes = ?, note = ?, note_url = ?, fingerprint = ?, updated_at = ?
       WHERE user_id = ? AND id = ? RETURNING *`);
    const owned = "SELECT a.*, u.login FROM authorizations a JOIN users u ON u.id = a.user_id";
    this.everyOwned = db.prepare<[], AuthorizationRecord & { login: string }>(`${owned} ORDER BY a.id`);
    this.ownedBy = db.prepare<[number], AuthorizationRecord & { login: string }>(`${owned} WHERE a.user_id = ? ORDER BY a.id`);
    this.counts = db.prepare<[], { user_id: number; n: number }>(
      "SELECT user_id, count(*) AS n FROM authorizations GROUP BY user_id");
    this.removeAny = db.prepare<[number], AuthorizationRecord>("DELETE FROM authorizations WHERE id = ? RETURNING *");
  }

  async create(a: NewAuthorization, now: Date): Promise<AuthorizationRow> {
    const at = now.toISOString();
    try {
      const record = this.insert.get(a.userId, a.hashedToken, a.tokenLastEight, JSON.stringify(a.scopes), a.note,
        a.noteUrl, a.fingerprint, at, at);
      return toAuthorization(record!);
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateError("token");
      throw error;
    }
  }

  async find(userId: number, id: number) {
    const r = this.byId.get(userId, id);
    return r ? toAuthorization(r) : null;
  }

  async list(userId: number, { limit, offset }: PageRequest): Promise<Page<AuthorizationRow>> {
    // One read transaction, so the rows and the total agree.
    return this.db.transaction(() => ({
      rows: this.page.all(userId, limit, offset).map(toAuthorization),
      total: this.counter.get(userId)!.n,
    }))();
  }

  async update(userId: number, id: number, changes: AuthorizationChanges, now: Date) {
    return this.db.transaction(() => {
      const current = this.byId.get(userId, id);
      if (!current) return null;
      const merged = toAuthorization(current);
      const record = this.save.get(
        JSON.stringify(changes.scopes ?? merged.scopes),
        changes.note !== undefined ? changes.note : merged.note,
        changes.noteUrl !== undefined ? changes.noteUrl : merged.noteUrl,
        changes.fingerprint !== undefined ? changes.fingerprint : merged.fingerprint,
        now.toISOString(), userId, id);
      return toAuthorization(record!);
    })();
  }

  async delete(userId: number, id: number) {
    return this.remove.run(userId, id).changes > 0;
  }

  async findByTokenLastEight(lastEight: string) {
    return this.byLastEight.all(lastEight).map(toAuthorization);
  }

  async listAll(userId?: number): Promise<OwnedAuthorization[]> {
    const records = userId === undefined ? this.everyOwned.all() : this.ownedBy.all(userId);
    return records.map((r) => ({ ...toAuthorization(r), login: r.login }));
  }

  async countByUser() {
    return new Map(this.counts.all().map((r) => [r.user_id, r.n]));
  }

  async revoke(id: number) {
    const r = this.removeAny.get(id);
    return r ? toAuthorization(r) : null;
  }
}
