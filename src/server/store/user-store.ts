/** Accounts: users (who may log in when they have a password) and organizations. */

/** `Bot`: a GitHub App's account (`SLUG[bot]`), whose writes are the app's. */
export type AccountType = "User" | "Organization" | "Bot";

/** An account: a user (who may log in when it has a password) or an organization. */
export interface UserRow {
  id: number;
  login: string;
  type: AccountType;
  /** The id on the wire: GitHub's id when the account came from imported data, else the row id. */
  wireId: number;
  /** scrypt hash (see services/credentials.ts); null for accounts that cannot log in with a password. */
  passwordHash: string | null;
  /** Base32 TOTP secret; null when two-factor authentication is off. */
  otpSecret: string | null;
  siteAdmin: boolean;
  /** When an administrator suspended the account (`feedgate user disable`); null while it may authenticate. */
  suspendedAt: Date | null;
  createdAt: Date;
  /** The public e-mail and blog GitHub's profile shows, and an organization's billing e-mail; null when not given. */
  email: string | null;
  blog: string | null;
  billingEmail: string | null;
  /** When the account's profile last changed (GitHub's updated_at); its creation until then. */
  updatedAt: Date;
}

export interface NewUser {
  login: string;
  passwordHash: string | null;
  otpSecret: string | null;
  siteAdmin: boolean;
}

/** What deleting an account did. */
export interface AccountDeletion {
  authorizationsDeleted: number;
  /**
   * True when stored history (events, issue events, repositories) names the account: its row then stays, as an
   * account that cannot log in, so that history keeps its actor; otherwise the row is gone too.
   */
  rowKept: boolean;
}

export interface UserStore {
  /**
   * Creates a login user, or gives a password to an account known only from imported data. Throws
   * DuplicateError when the login is taken (logins compare case-insensitively, as on GitHub).
   */
  create(user: NewUser): Promise<UserRow>;
  /** Any account: login user, imported actor, or organization. */
  findByLogin(login: string): Promise<UserRow | null>;
  findById(id: number): Promise<UserRow | null>;
  /** Accounts that can log in (they have a password). */
  list(): Promise<UserRow[]>;
  count(): Promise<number>;
  setPassword(id: number, passwordHash: string): Promise<void>;
  /** null turns two-factor authentication off. */
  setOtpSecret(id: number, otpSecret: string | null): Promise<void>;
  /** A time suspends the account, null lifts the suspension. */
  setSuspended(id: number, at: Date | null): Promise<void>;
  /**
   * Deletes a login user in one transaction: its authorizations, follows (both ways), watches, memberships and
   * collaborations, then its row, or only its credentials when history names it (see AccountDeletion). Raises the
   * ingest generation, as feeds depend on those relations.
   */
  delete(id: number): Promise<AccountDeletion>;
}
