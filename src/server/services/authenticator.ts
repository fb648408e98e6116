/**
 * Turns presented credentials into a principal, or throws GitHub's error for them.
 * Token forms: `Authorization: token X` / `Bearer X`, `?access_token=X`, and Basic with the token as the
 * password (the username is then ignored, as git credential helpers send `x-access-token`).
 */
import { setTimeout } from "node:timers/promises";
import type { Counter } from "prom-client";
import type { AuthorizationRow, Store, UserRow } from "../store/store.js";
import type { WindowCounters } from "../counters/counters.js";
import {
  accountSuspended,
  badCredentials,
  installationSuspended,
  loginAttemptsExceeded,
  otpRequired,
} from "../errors.js";
import {
  hashMatches,
  isTokenShaped,
  tokenDigest,
  USER_TOKEN_PREFIX,
  verifyOtp,
  verifyPassword,
} from "./credentials.js";
import { hasExpired } from "./token-expiry.js";

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

interface AttemptKeys {
  /** Confirmed failed logins in the window: the lockout. */
  failures: string;
  /** Failed logins plus checks in flight: at most `maxAttempts`, so no burst checks more guesses than the limit. */
  checks: string;
}

const attemptKeys = (login: string): AttemptKeys => ({
  failures: `login:${login.toLowerCase()}`,
  checks: `login-checks:${login.toLowerCase()}`,
});

/**
 * How long a login waits for a place among the account's checks in flight before it is refused as locked. Waiting
 * logins are queued at scrypt's pace (tens of milliseconds a check at the production cost), so dozens of clients
 * sending the right password at once need seconds, and a short wait would refuse some of them as locked (the
 * bench's POST /authorizations scenario measures it). Guessers gain nothing from the wait: the failures they cause
 * lock the account, and a waiting login sees that at its next try.
 */
const CHECK_WAIT_MS = 30_000;
const CHECK_RETRY_MS = 20;

/** What logins are checked against and counted in. */
export interface AuthenticatorParts {
  store: Store;
  /** The login-failure windows (shared with the rate limit's when several instances run). */
  counters: WindowCounters;
  lockout: LockoutPolicy;
  loginFailures?: Counter;
}

export class Authenticator {
  private readonly store: Store;
  private readonly counters: WindowCounters;
  private readonly lockout: LockoutPolicy;
  private readonly loginFailures: Counter | undefined;

  constructor(parts: AuthenticatorParts) {
    ({ store: this.store, counters: this.counters, lockout: this.lockout, loginFailures: this.loginFailures } = parts);
  }

  /** null for anonymous callers. */
  async authenticate(credentials: Credentials, now: Date): Promise<Principal | null> {
    switch (credentials.type) {
      case "none":
        return null;
      case "token": {
        const principal = await this.byToken(credentials.token, now);
        if (!principal) throw badCredentials();
        return principal;
      }
      case "basic":
        return (await this.byToken(credentials.password, now)) ?? this.byPassword(credentials, now);
    }
  }

  /**
   * The principal as the store has it now, for a request that outlives its authentication (a live stream): null once
   * its token is deleted, its account suspended or deleted, or its password changed; otherwise the principal with
   * what may have changed since (a token's scopes).
   */
  async recheck(principal: Principal): Promise<Principal | null> {
    const user = await this.store.users.findById(principal.user.id);
    if (!user || user.suspendedAt) return null;
    if (principal.kind === "password")
      return user.passwordHash === principal.user.passwordHash ? { kind: "password", user } : null;
    const authorization = await this.store.authorizations.find(user.id, principal.authorization.id);
    return authorization?.hashedToken === principal.authorization.hashedToken
      ? { kind: "token", user, authorization: await this.withAppGrant(authorization) }
      : null;
  }

  /**
   * The token's principal, or null when no token has that value. Expiry is checked here, on every request, against
   * the request's time: the row may be a remembered one (RememberingStore), which no write changes when the time
   * comes. An expired token is refused as a deleted one is, even as a Basic password, so it is not checked as the
   * account's password and counted toward its lockout.
   */
  private async byToken(token: string, now: Date): Promise<Principal | null> {
    if (!isTokenShaped(token)) return null;
    const digest = tokenDigest(token);
    const candidates = await this.store.authorizations.findByTokenLastEight(token.slice(-8));
    const found = candidates.find((c) => hashMatches(digest, c.hashedToken));
    if (!found) return null;
    if (hasExpired(found.expiresAt, now)) throw badCredentials();
    // Only a `ghu_` token can be an app's user token: other tokens of OAuth apps (`gho_`) skip the look-ups.
    const authorization = token.startsWith(USER_TOKEN_PREFIX) ? await this.withAppGrant(found) : found;
    const installationId = authorization.fineGrained?.installationId;
    if (installationId !== undefined) {
      // An installation token lives only as long as its installation, and rests while it is suspended.
      const installation = await this.store.apps.installation(installationId);
      if (!installation) throw badCredentials();
      if (installation.suspendedAt) throw installationSuspended();
    }
    const user = await this.store.users.findById(authorization.userId);
    if (user?.suspendedAt) throw accountSuspended();
    return user ? { kind: "token", user, authorization } : null;
  }

  /**
   * A GitHub App's user token (a token of the app's OAuth client) gets its grant here, from the app's installations
   * as they are now (FineGrainedGrant.userOfApp): an installation added, narrowed or suspended counts at once.
   */
  private async withAppGrant(authorization: AuthorizationRow): Promise<AuthorizationRow> {
    if (authorization.oauthAppId === null) return authorization;
    const client = await this.store.oauthApps.findById(authorization.oauthAppId);
    const app = client?.githubAppId == null ? null : await this.store.apps.byId(client.githubAppId);
    if (!app) return authorization;
    const installations = (await this.store.apps.installations(app.id)).filter((i) => i.suspendedAt === null);
    return {
      ...authorization,
      fineGrained: {
        ownerId: authorization.userId,
        repositorySelection: "subset",
        repositoryIds: [],
        permissions: app.permissions,
        description: null,
        userOfApp: {
          appId: app.id,
          installations: installations.map((i) => ({
            ownerId: i.accountId,
            repositorySelection: i.repositorySelection === "all" ? "all" : "subset",
            repositoryIds: i.repositoryIds,
            permissions: { ...i.permissions, metadata: "read" },
          })),
        },
      },
    };
  }

  private async byPassword(credentials: { login: string; password: string; otp: string | undefined }, now: Date) {
    return this.counted(credentials.login, now, async () => {
      const user = await this.store.users.findByLogin(credentials.login);
      // Unknown logins are checked against a decoy hash, so response time does not reveal which logins exist.
      if (!(await verifyPassword(credentials.password, user?.passwordHash ?? null)) || !user)
        return { failure: badCredentials() };
      if (user.otpSecret) {
        // Clients first call without a code and answer the 401 challenge: only a wrong code is a failed attempt.
        if (credentials.otp === undefined) throw otpRequired();
        if (!verifyOtp(user.otpSecret, credentials.otp.trim(), now)) return { failure: otpRequired() };
      }
      return { user };
    });
  }

  /**
   * The console's second step: the code of a two-factor account whose password was proven in an earlier request
   * (the console keeps that as a pending session). A wrong code counts toward the lockout as it does with Basic auth.
   */
  async secondFactor(userId: number, code: string, now: Date): Promise<Principal> {
    const user = await this.store.users.findById(userId);
    if (!user) throw badCredentials();
    return this.counted(user.login, now, async () =>
      user.otpSecret && verifyOtp(user.otpSecret, code.trim(), now) ? { user } : { failure: otpRequired() },
    );
  }

  /**
   * Runs one login check under the lockout: a failure the check reports keeps its place among the checks and is
   * recorded; anything else gives its place back. Checked last, so only whoever proves the password (and the code)
   * learns that the account is suspended.
   */
  private async counted(login: string, now: Date, check: () => Promise<{ user: UserRow } | { failure: Error }>) {
    const keys = attemptKeys(login);
    await this.reserveCheck(keys, now);
    let failed = false;
    try {
      const outcome = await check();
      if ("failure" in outcome) {
        failed = true;
        throw outcome.failure;
      }
      if (outcome.user.suspendedAt) throw accountSuspended();
      return { kind: "password", user: outcome.user } as const;
    } finally {
      if (failed) {
        this.loginFailures?.inc();
        await this.counters.hit(keys.failures, this.lockout.windowSeconds, now);
      } else {
        await this.counters.refund(keys.checks, now);
      }
    }
  }

  /**
   * Takes one of the account's `maxAttempts` places for a password check, atomically, before scrypt runs (~80 ms).
   * Reading the failure count first and adding to it after the check let fifty concurrent guesses all read "not
   * locked". A locked account (that many confirmed failures) is refused at once, the right password included, as
   * on GitHub (wire notes 1.4); while every place is held by checks still running, the request waits for one to end.
   */
  private async reserveCheck(keys: AttemptKeys, now: Date): Promise<void> {
    const { maxAttempts, windowSeconds } = this.lockout;
    for (let waited = 0; ; waited += CHECK_RETRY_MS) {
      if ((await this.counters.peek(keys.failures, windowSeconds, now)).count >= maxAttempts)
        throw loginAttemptsExceeded();
      if ((await this.counters.hit(keys.checks, windowSeconds, now)).count <= maxAttempts) return;
      await this.counters.refund(keys.checks, now);
      if (waited >= CHECK_WAIT_MS) throw loginAttemptsExceeded();
      await setTimeout(CHECK_RETRY_MS);
    }
  }
}
