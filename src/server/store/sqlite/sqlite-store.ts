/**
 * The embedded default store: one SQLite file through better-sqlite3, WAL mode, prepared statements.
 * better-sqlite3 is synchronous; the methods are async only to share the Store interface with PostgreSQL.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { migrations } from "../migrations/index.js";
import {
  DuplicateError,
  type AuthorizationChanges, type AuthorizationRow, type AuthorizationStore, type NewAuthorization, type NewUser,
  type Page, type PageRequest, type Store, type UserRow, type UserStore,
} from "../store.js";

interface UserRecord {
  id: number; login: string; password_hash: string | null; otp_secret: string | null; site_admin: number;
  created_at: string;
}

interface AuthorizationRecord {
  id: number; user_id: number; hashed_token: string; token_last_eight: string; scopes: string; note: string | null;
  note_url: string | null; fingerprint: string | null; created_at: string; updated_at: string;
}

const toUser = (r: UserRecord): UserRow => ({
  id: r.id, login: r.login, passwordHash: r.password_hash, otpSecret: r.otp_secret, siteAdmin: r.site_admin === 1,
  createdAt: new Date(r.created_at),
});

const toAuthorization = (r: AuthorizationRecord): AuthorizationRow => ({
  id: r.id, userId: r.user_id, hashedToken: r.hashed_token, tokenLastEight: r.token_last_eight,
  scopes: JSON.parse(r.scopes) as string[], note: r.note, noteUrl: r.note_url, fingerprint: r.fingerprint,
  createdAt: new Date(r.created_at), updatedAt: new Date(r.updated_at),
});

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Database.SqliteError && error.code.startsWith("SQLITE_CONSTRAINT_UNIQUE");
}

class SqliteUsers implements UserStore {
  private readonly insert; private readonly byLogin; private readonly byId; private readonly all;
  private readonly counter; private readonly password;

  constructor(db: Database.Database) {
    this.insert = db.prepare<[string, string | null, string | null, number, string], UserRecord>(
      `INSERT INTO users (login, password_hash, otp_secret, site_admin, created_at) VALUES (?, ?, ?, ?, ?) RETURNING *`);
    this.byLogin = db.prepare<[string], UserRecord>("SELECT * FROM users WHERE login = ?");
    this.byId = db.prepare<[number], UserRecord>("SELECT * FROM users WHERE id = ?");
    this.all = db.prepare<[], UserRecord>("SELECT * FROM users ORDER BY id");
    this.counter = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM users");
    this.password = db.prepare<[string, number]>("UPDATE users SET password_hash = ? WHERE id = ?");
  }

  async create(user: NewUser): Promise<UserRow> {
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
}

class SqliteAuthorizations implements AuthorizationStore {
  private readonly insert; private readonly byId; private readonly page; private readonly counter;
  private readonly remove; private readonly byLastEight; private readonly save;

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
}

/** Applies pending migrations; BEGIN IMMEDIATE takes the write lock first, so two processes cannot race. */
function migrateDatabase(db: Database.Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const isApplied = db.prepare<[number]>("SELECT 1 FROM schema_migrations WHERE id = ?");
  const record = db.prepare("INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)");
  for (const migration of migrations) {
    db.transaction(() => {
      if (isApplied.get(migration.id)) return;
      db.exec(migration.sqlite);
      record.run(migration.id, migration.name, new Date().toISOString());
    }).immediate();
  }
}

export class SqliteStore implements Store {
  readonly users: UserStore;
  readonly authorizations: AuthorizationStore;

  private constructor(private readonly db: Database.Database) {
    this.users = new SqliteUsers(db);
    this.authorizations = new SqliteAuthorizations(db);
  }

  /** Opens (creating when needed) the database file and applies pending migrations. */
  static async open(path: string): Promise<SqliteStore> {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    const db = new Database(path);
    db.pragma("journal_mode = WAL");
    db.pragma("foreign_keys = ON");
    // Several processes (the CLI next to a running server) may share the file: wait rather than fail.
    db.pragma("busy_timeout = 5000");
    migrateDatabase(db); // before the constructor prepares statements against the tables
    return new SqliteStore(db);
  }

  async migrate(): Promise<void> {
    migrateDatabase(this.db);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
