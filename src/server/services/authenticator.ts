/**
 * Turns presented credentials into a principal, or throws GitHub's error for them.
 * Token forms: `Authorization: token X` / `Bearer X`, `?access_token=X`, and Basic with the token as the
 * password (the username is then ignored, as git credential helpers send `x-access-token`).
 */
import type { AuthorizationRow, Store, UserRow } from "../store/store.js";
import type { WindowCounters } from "../counters/counters.js";
import { badCredentials, loginAttemptsExceeded, otpRequired } from "../errors.js";
import { hashesEqual, hashToken, isTokenShaped, verifyOtp, verifyPassword } from "./credentials.js";

export type Credentials =
  | { type: "none" }
  | { type: "basic"; login: string; password: string; otp: string | undefined }
  | { type: "token"; token: string };

export type Principal =
  | { kind: "password"; user: UserRow }
  | { kind: "token"; user: UserRow; authorization: AuthorizationRow };

export interface LockoutPolicy {
  maxAttempts: number;
  windowSeconds: number;
}

export class Authenticator {
  constructor(
    private readonly store: Store,
    private readonly counters: WindowCounters,
    private readonly lockout: LockoutPolicy,
  ) {}

  /** null for anonymous callers. */
  async authenticate(credentials: Credentials, now: Date): Promise<Principal | null> {
    switch (credentials.type) {
      case "none":
        return null;
      case "token": {
        const principal = await this.byToken(credentials.token);
        if (!principal) throw badCredentials();
        return principal;
      }
      case "basic":
        return (await this.byToken(credentials.password)) ?? this.byPassword(credentials, now);
    }
  }

  private async byToken(token: string): Promise<Principal | null> {
    if (!isTokenShaped(token)) return null;
    const hashed = hashToken(token);
    const candidates = await this.store.authorizations.findByTokenLastEight(token.slice(-8));
    const authorization = candidates.find((c) => hashesEqual(c.hashedToken, hashed));
    if (!authorization) return null;
    const user = await this.store.users.findById(authorization.userId);
    return user ? { kind: "token", user, authorization } : null;
  }

  private async byPassword(credentials: { login: string; password: string; otp: string | undefined }, now: Date) {
    const attemptsKey = `login:${credentials.login.toLowerCase()}`;
    const attempts = await this.counters.peek(attemptsKey, this.lockout.windowSeconds, now);
    // GitHub refuses every login of a locked account, the right password included (wire notes 1.4).
    if (attempts.count >= this.lockout.maxAttempts) throw loginAttemptsExceeded();

    const user = await this.store.users.findByLogin(credentials.login);
    // Unknown logins are checked against a decoy hash, so response time does not reveal which logins exist.
    if (!(await verifyPassword(credentials.password, user?.passwordHash ?? null)) || !user) {
      await this.counters.hit(attemptsKey, this.lockout.windowSeconds, now);
      throw badCredentials();
    }
    if (user.otpSecret) {
      // Clients first call without a code and answer the 401 challenge: only a wrong code is a failed attempt.
      if (credentials.otp === undefined) throw otpRequired();
      if (!verifyOtp(user.otpSecret, credentials.otp.trim(), now)) {
        await this.counters.hit(attemptsKey, this.lockout.windowSeconds, now);
        throw otpRequired();
      }
    }
    return { kind: "password", user } as const;
  }
}
