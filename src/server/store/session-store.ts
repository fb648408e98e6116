/** Console sign-in sessions. */

/** A console sign-in session. The id itself is never stored: rows are found by its SHA-256. */
export interface SessionRow {
  idHash: string;
  userId: number;
  /** A digest of the password hash signed in with: a session outlives no password change. */
  credential: string;
  /** False between a two-factor account's password and its code: such a session grants nothing but the code step. */
  verified: boolean;
  createdAt: Date;
  lastSeenAt: Date;
}

export type NewSession = Omit<SessionRow, "createdAt" | "lastSeenAt">;

export interface SessionStore {
  create(session: NewSession, now: Date): Promise<SessionRow>;
  find(idHash: string): Promise<SessionRow | null>;
  /** Moves last_seen_at (the idle expiry's start). */
  touch(idHash: string, now: Date): Promise<void>;
  /** True when a row was deleted. */
  delete(idHash: string): Promise<boolean>;
  /** Deletes sessions idle since before `idleBefore` or created before `createdBefore`; how many. */
  deleteExpired(idleBefore: Date, createdBefore: Date): Promise<number>;
}
