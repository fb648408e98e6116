/**
 * A GitHub App's JWT (spec/github-auth-flows.md section 6): RS256, `iss` the app's id or client id, `iat` and `exp`
 * checked as GitHub checks them, by the injected clock, with a minute of skew either way and `exp` at most ten minutes
 * ahead. GitHub's 401 messages are exact: Octokit recognises the clock ones and retries after correcting its clock
 * from the `Date` header. The RS256 check costs about a tenth of a millisecond; a verified token is remembered until
 * its `exp`, so a client reusing its JWT for ten minutes pays it once.
 */
import type { JWTPayload } from "jose";
import { entryBoundedCache } from "../../bounded-cache.js";
import { ApiError } from "../../errors.js";
import type { AppRow, AppStore } from "../../store/app-store.js";

const DOCS = "https://docs.github.com/rest";
const SKEW_SECONDS = 60;
const LONGEST_SECONDS = 600;

const refused = (message: string) =>
  new ApiError(401, message, { code: "FEEDGATE_BAD_APP_JWT", documentationUrl: DOCS, statusInBody: true });

/** GitHub's 401 for a credential that is not the JWT a route needs. */
export const refusedJwt = (why: keyof typeof MESSAGES) => refused(MESSAGES[why]);

export const MESSAGES = {
  undecodable: "A JSON web token could not be decoded",
  iat: "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued",
  expired:
    "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires",
  tooLong: "'Expiration time' claim ('exp') is too far in the future",
  unknownApp: "Integration not found",
} as const;

/** Three base64url parts, the first a JSON header: what is tried as a JWT rather than as a token. */
export const isJwtShaped = (value: string): boolean => /^eyJ[\w-]*\.[\w-]+\.[\w-]+$/.test(value);

export class AppJwtVerifier {
  /** Verified tokens, until their `exp` (seconds). */
  private readonly verified = entryBoundedCache<string, { appId: number; exp: number }>(10_000);

  constructor(private readonly apps: AppStore) {}

  /** The app the JWT proves, or GitHub's 401 for it. */
  async verify(token: string, now: Date): Promise<AppRow> {
    const seconds = Math.floor(now.getTime() / 1000);
    const remembered = this.verified.get(token);
    if (remembered && remembered.exp + SKEW_SECONDS > seconds) {
      const app = await this.apps.byId(remembered.appId);
      if (app) return app;
    }
    // jose is loaded by the first app JWT, not at the start: most servers and test doubles never see one.
    const jose = await import("jose");
    const claims = decoded(jose, token);
    checkTimes(claims, seconds);
    const app = await this.issuer(claims.iss);
    try {
      await jose.compactVerify(token, await jose.importSPKI(app.publicKey, "RS256"), { algorithms: ["RS256"] });
    } catch {
      throw refused(MESSAGES.undecodable);
    }
    this.verified.set(token, { appId: app.id, exp: claims.exp as number });
    return app;
  }

  private async issuer(iss: unknown): Promise<AppRow> {
    const given = typeof iss === "number" ? String(iss) : iss;
    if (typeof given !== "string" || given === "") throw refused(MESSAGES.undecodable);
    const app = /^\d+$/.test(given) ? await this.apps.byId(Number(given)) : await this.apps.byClientId(given);
    if (!app) throw refused(MESSAGES.unknownApp);
    return app;
  }
}

function decoded(jose: typeof import("jose"), token: string): JWTPayload {
  try {
    if (jose.decodeProtectedHeader(token).alg !== "RS256") throw new Error("not RS256");
    return jose.decodeJwt(token);
  } catch {
    throw refused(MESSAGES.undecodable);
  }
}

function checkTimes(claims: JWTPayload, now: number): void {
  const { iat, exp } = claims;
  if (typeof iat !== "number" || !Number.isInteger(iat) || iat > now + SKEW_SECONDS) throw refused(MESSAGES.iat);
  if (typeof exp !== "number" || exp + SKEW_SECONDS <= now) throw refused(MESSAGES.expired);
  if (exp > now + LONGEST_SECONDS + SKEW_SECONDS) throw refused(MESSAGES.tooLong);
}
