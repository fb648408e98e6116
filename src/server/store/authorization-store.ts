/**
 * Personal access tokens: the classic ones as GitHub's authorizations API keeps them, and the fine-grained ones, which
 * are the same rows limited by a grant.
 */
import type { GrantedPermissions, RepositorySelection } from "../../api/permissions.js";
import type { Page, PageRequest } from "./page.js";

/** What limits a fine-grained token: one resource owner, the repositories it may reach there, and its permissions. */
export interface FineGrainedGrant {
  /** The user or organization whose resources the token reaches. */
  ownerId: number;
  repositorySelection: RepositorySelection;
  /** The selected repositories when the selection is `subset`; empty otherwise. */
  repositoryIds: number[];
  /** Every permission held, `metadata: "read"` included. */
  permissions: GrantedPermissions;
  description: string | null;
  /** Set for an installation token (a GitHub App's): the installation it acts for; GitHub words its 403 apart. */
  installationId?: number;
  /**
   * An installation token's rate-limit scale when it was minted: its installation's repositories over 20, and an
   * organization's members over 20, each of which raises the installation's hourly limit (counters/rate-limit-rule.ts).
   */
  rateScale?: number;
  /**
   * Set for a GitHub App's user token, and never stored: it reaches what the app's installations reach (read when the
   * token is presented, so an installation added or suspended counts at once), each account's repositories with that
   * installation's permissions; the grant's own fields are the app's account-level permissions.
   */
  userOfApp?: { appId: number; installations: GrantReach[] };
}

/** What a grant reaches on one account. */
export type GrantReach = Pick<FineGrainedGrant, "ownerId" | "repositorySelection" | "repositoryIds" | "permissions">;

/** The two kinds of personal access token, which GitHub lists and manages apart. */
export type TokenKind = "classic" | "fine-grained";

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
  /** A fine-grained token's limits; null for a classic token, which its scopes limit instead. */
  fineGrained: FineGrainedGrant | null;
  /** The OAuth app whose token this is (a `gho_` token); null for a personal token. */
  oauthAppId: number | null;
}

export type NewAuthorization = Omit<
  AuthorizationRow,
  "id" | "createdAt" | "updatedAt" | "fineGrained" | "oauthAppId"
> & {
  fineGrained?: FineGrainedGrant | null;
  oauthAppId?: number | null;
};

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
  /** The user's authorization with that id, of either kind, or null (another user's id is null too). */
  find(userId: number, id: number): Promise<AuthorizationRow | null>;
  /** The user's tokens of one kind, oldest first. */
  list(userId: number, page: PageRequest, kind?: TokenKind): Promise<Page<AuthorizationRow>>;
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
