/**
 * The Store interface: everything the services need from persistence, and nothing about SQL.
 * Asynchronous even though SQLite is synchronous, so that the PostgreSQL driver fits the same interface.
 */

export interface UserRow {
  id: number;
  login: string;
  /** scrypt hash (see services/credentials.ts); null for accounts that cannot log in with a password. */
  passwordHash: string | null;
  /** Base32 TOTP secret; null when two-factor authentication is off. */
  otpSecret: string | null;
  siteAdmin: boolean;
  createdAt: Date;
}

export interface NewUser {
  login: string;
  passwordHash: string | null;
  otpSecret: string | null;
  siteAdmin: boolean;
}

export interface AuthorizationRow {
  id: number;
  userId: number;
  /** Lowercase hex SHA-256 of the token; the token itself is never stored. */
  hashedToken: string;
  tokenLastEight: string;
  scopes: string[];
  note: string | null;
  noteUrl: string | null;
  fingerprint: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewAuthorization = Omit<AuthorizationRow, "id" | "createdAt" | "updatedAt">;

export interface AuthorizationChanges {
  scopes?: string[];
  note?: string | null;
  noteUrl?: string | null;
  fingerprint?: string | null;
}

export interface Page<T> {
  rows: T[];
  total: number;
}

export interface PageRequest {
  limit: number;
  offset: number;
}

export interface UserStore {
  /** Throws DuplicateError when the login is taken (logins compare case-insensitively, as on GitHub). */
  create(user: NewUser): Promise<UserRow>;
  findByLogin(login: string): Promise<UserRow | null>;
  findById(id: number): Promise<UserRow | null>;
  list(): Promise<UserRow[]>;
  count(): Promise<number>;
  setPassword(id: number, passwordHash: string): Promise<void>;
}

export interface AuthorizationStore {
  create(authorization: NewAuthorization, now: Date): Promise<AuthorizationRow>;
  /** The user's authorization with that id, or null (another user's id is null too). */
  find(userId: number, id: number): Promise<AuthorizationRow | null>;
  /** The user's authorizations, oldest first. */
  list(userId: number, page: PageRequest): Promise<Page<AuthorizationRow>>;
  /** Applies the changes and moves updated_at; null when the user has no such authorization. */
  update(userId: number, id: number, changes: AuthorizationChanges, now: Date): Promise<AuthorizationRow | null>;
  /** True when a row was deleted. */
  delete(userId: number, id: number): Promise<boolean>;
  /** Candidates for a presented token; the caller compares hashes in constant time. */
  findByTokenLastEight(lastEight: string): Promise<AuthorizationRow[]>;
}

export interface Store {
  readonly users: UserStore;
  readonly authorizations: AuthorizationStore;
  /** Applies pending migrations; safe to call on every start. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export class DuplicateError extends Error {
  constructor(what: string) {
    super(`${what} already exists`);
    this.name = "DuplicateError";
  }
}
