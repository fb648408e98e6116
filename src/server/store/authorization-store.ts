/** OAuth authorizations (personal access tokens) as GitHub's authorizations API keeps them. */
import type { Page, PageRequest } from "./page.js";

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
  /** When the token stops being accepted; null: never. */
  expiresAt: Date | null;
}

export type NewAuthorization = Omit<AuthorizationRow, "id" | "createdAt" | "updatedAt">;

/** An authorization with its owner's login, for administrators' listings. */
export interface OwnedAuthorization extends AuthorizationRow {
  login: string;
}

export interface AuthorizationChanges {
  scopes?: string[];
  note?: string | null;
  noteUrl?: string | null;
  fingerprint?: string | null;
  expiresAt?: Date | null;
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
  /** Every authorization, or one user's, with the owner's login, oldest first: for administrators. */
  listAll(userId?: number): Promise<OwnedAuthorization[]>;
  /** How many authorizations each user holds; users without any are absent. */
  countByUser(): Promise<Map<number, number>>;
  /** Deletes the authorization with that id whoever owns it; the deleted row, or null when there was none. */
  revoke(id: number): Promise<AuthorizationRow | null>;
  /**
   * Deletes, in one statement, every authorization whose token hashes to one of `hashedTokens`, whoever owns it
   * (credential revocation); the deleted rows. Hashes that match nothing are passed over.
   */
  revokeByHashes(hashedTokens: readonly string[]): Promise<AuthorizationRow[]>;
}
