/**
 * Console sign-in sessions. A session id is 32 random bytes, handed to the browser as a cookie and stored only as its
 * SHA-256, so a copy of the database signs nobody in. Everything else secret about a session is derived from its id
 * with HMAC and never stored: the CSRF token its forms carry, and the key that seals a new token for the one page that
 * shows it. Sessions end when idle too long, when too old, on sign-out, and when the account's password changes, it is
 * suspended, or it is deleted.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { SecretBox } from "../webhooks/secret-box.js";
import { hashToken } from "./credentials.js";
import type { SessionRow, Store, UserRow } from "../store/store.js";

export interface SessionPolicy {
  /** A session nobody used for this long is over. */
  idleSeconds: number;
  /** A session this old is over, however busy. */
  absoluteSeconds: number;
}

export const DEFAULT_SESSION_POLICY: SessionPolicy = { idleSeconds: 8 * 3600, absoluteSeconds: 7 * 24 * 3600 };

/** last_seen_at is written at most this often: a page's asset and stream requests need not each write a row. */
const TOUCH_EVERY_MS = 60_000;

export interface SignedIn {
  session: SessionRow;
  user: UserRow;
}

/** A session id is a bearer secret like a token: stored, and compared, as its SHA-256. */
const sha256 = hashToken;
const derive = (id: string, purpose: string) => createHmac("sha256", id).update(`feedgate console ${purpose}`).digest();
const boxOf = (id: string) => SecretBox.fromKey(derive(id, "seal").toString("hex"));
/** What the session remembers of the password: enough to notice a change, nothing to guess it from. */
const credentialOf = (user: UserRow) => sha256(`feedgate session ${user.passwordHash ?? ""}`);

export class SessionService {
  constructor(
    private readonly store: Store,
    private readonly clock: () => Date,
    private readonly policy: SessionPolicy = DEFAULT_SESSION_POLICY,
  ) {}

  /** A new session for the user; returns its id (the cookie's value), which is not kept anywhere here. */
  async start(user: UserRow, verified: boolean): Promise<string> {
    const now = this.clock();
    // Housekeeping as sessions begin: expired rows are refused anyway, this only keeps the table small.
    await this.store.sessions.deleteExpired(this.idleCutoff(now), this.ageCutoff(now));
    const id = randomBytes(32).toString("base64url");
    await this.store.sessions.create(
      { idHash: sha256(id), userId: user.id, credential: credentialOf(user), verified },
      now,
    );
    return id;
  }

  /** The live session with that id and its user, or null (unknown, expired, or its account changed). */
  async resolve(id: string): Promise<SignedIn | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
    const idHash = sha256(id);
    const session = await this.store.sessions.find(idHash);
    if (!session) return null;
    const now = this.clock();
    const user = await this.store.users.findById(session.userId);
    const expired = session.lastSeenAt < this.idleCutoff(now) || session.createdAt < this.ageCutoff(now);
    if (expired || !user || user.suspendedAt || !user.passwordHash || credentialOf(user) !== session.credential) {
      await this.store.sessions.delete(idHash);
      return null;
    }
    if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) await this.store.sessions.touch(idHash, now);
    return { session, user };
  }

  async end(id: string): Promise<void> {
    await this.store.sessions.delete(sha256(id));
  }

  /** The CSRF token of the session's forms. */
  csrfToken(id: string): string {
    return derive(id, "csrf").toString("base64url");
  }

  csrfMatches(id: string, presented: string): boolean {
    const expected = Buffer.from(this.csrfToken(id));
    const given = Buffer.from(presented);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** Seals text (a new token) so that only a request of this session can open it: a SecretBox under a derived key. */
  seal(id: string, text: string): string {
    return boxOf(id).seal(text);
  }

  /** The sealed text, or null when it was not sealed by this session (or was altered). */
  unseal(id: string, sealed: string): string | null {
    try {
      return boxOf(id).open(sealed);
    } catch {
      return null;
    }
  }

  private idleCutoff(now: Date) {
    return new Date(now.getTime() - this.policy.idleSeconds * 1000);
  }

  private ageCutoff(now: Date) {
    return new Date(now.getTime() - this.policy.absoluteSeconds * 1000);
  }
}
