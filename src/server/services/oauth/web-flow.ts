/**
 * The web application flow (docs: authorizing-oauth-apps): the authorize request checked, a consented request turned
 * into a code (10 minutes, once, bound to its redirect URI and PKCE challenge), and the code exchanged for a token.
 */
import { createHash } from "node:crypto";
import { normalize, isScopeName } from "../../../api/scopes.js";
import type { OAuthAppRow, Store } from "../../store/store.js";
import { hashesEqual, hashToken, randomHex } from "../credentials.js";
import { OAuthError, type OAuthErrorName } from "./oauth-error.js";
import type { OAuthAppService } from "./oauth-apps.js";
import { grantToken, requestedScopes, type GrantedToken } from "./oauth-tokens.js";
import { redirectAllowed, withQuery } from "./redirect-uri.js";

const CODE_LIFETIME_MS = 10 * 60 * 1000;
/** An S256 challenge: base64url of a SHA-256, 43 characters (RFC 7636 4.2). */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** The authorize request's query as the browser sends it. */
export interface AuthorizeQuery {
  client_id?: string;
  redirect_uri?: string;
  scope?: string;
  state?: string;
  login?: string;
  allow_signup?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

/** A request worth asking the user about: the app, where the answer goes, and what it asks for. */
export interface ConsentRequest {
  app: OAuthAppRow;
  /** Where the code (or the refusal) is sent: the redirect URI asked for, or the callback. */
  redirectTo: string;
  /** The redirect URI as asked for; null when none was (the exchange may then name none). */
  redirectUri: string | null;
  scopes: string[];
  state: string | undefined;
  codeChallenge: string | null;
  /** The login the app suggested (`login`), for the sign-in page. */
  login: string | undefined;
}

/** What an authorize request comes to: a page to show (consent), a redirect (GitHub's errors), or not found. */
export type AuthorizeOutcome = { consent: ConsentRequest } | { redirect: string } | { notFound: true };

export interface CodeExchange {
  client_id?: string;
  client_secret?: string;
  code?: string;
  redirect_uri?: string;
  code_verifier?: string;
}

const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

export class WebFlow {
  constructor(
    private readonly store: Store,
    private readonly apps: OAuthAppService,
    private readonly clock: () => Date,
  ) {}

  /** Checks an authorize request as GitHub does, in its order: the app, the redirect URI, suspension, PKCE. */
  async check(query: AuthorizeQuery): Promise<AuthorizeOutcome> {
    const app = query.client_id ? await this.apps.find(query.client_id) : null;
    // A GitHub App with no callback URL has no web flow: there is nowhere to send the user back to.
    if (!app || app.callbackUrl === "") return { notFound: true };
    const refuse = (error: OAuthErrorName, to = app.callbackUrl) => ({
      redirect: withQuery(to, { ...new OAuthError(error).fields(), state: query.state }),
    });
    const redirectUri = query.redirect_uri || null;
    if (redirectUri !== null && !redirectAllowed(redirectUri, app.callbackUrl)) return refuse("redirect_uri_mismatch");
    const redirectTo = redirectUri ?? app.callbackUrl;
    if (app.suspended) return refuse("application_suspended", redirectTo);
    const challenge = query.code_challenge || null;
    if (challenge !== null && ((query.code_challenge_method ?? "S256") !== "S256" || !S256_CHALLENGE.test(challenge)))
      return refuse("invalid_request", redirectTo);
    return {
      consent: {
        app,
        redirectTo,
        redirectUri,
        scopes: normalize(requestedScopes(query.scope).filter(isScopeName)),
        state: query.state,
        codeChallenge: challenge,
        login: query.login,
      },
    };
  }

  /** The user's answer: the redirect with a new code, or with `access_denied`. */
  async decide(request: ConsentRequest, userId: number, approved: boolean): Promise<string> {
    if (!approved)
      return withQuery(request.redirectTo, {
        error: "access_denied",
        error_description: "The user has denied your application access.",
        error_uri:
          "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-authorization-request-errors#access-denied",
        state: request.state,
      });
    const code = randomHex(10);
    await this.store.oauthApps.saveCode({
      codeHash: hashToken(code),
      appId: request.app.id,
      userId,
      redirectUri: request.redirectUri,
      scopes: request.scopes,
      codeChallenge: request.codeChallenge,
      expiresAt: new Date(this.clock().getTime() + CODE_LIFETIME_MS),
    });
    return withQuery(request.redirectTo, { code, state: request.state });
  }

  /**
   * `POST /login/oauth/access_token` with a code. The code is taken (deleted) before anything else is checked that the
   * caller could retry: a code that met a wrong verifier or redirect URI is spent, as a leaked code should be.
   */
  async exchange(input: CodeExchange): Promise<GrantedToken> {
    const app = await this.apps.withSecret(input.client_id ?? "", input.client_secret ?? "");
    if (!app) throw new OAuthError("incorrect_client_credentials");
    const code = input.code ? await this.store.oauthApps.takeCode(hashToken(input.code)) : null;
    const now = this.clock();
    if (!code || code.appId !== app.id || code.expiresAt <= now) throw new OAuthError("bad_verification_code");
    if (code.redirectUri !== null && input.redirect_uri !== undefined && input.redirect_uri !== code.redirectUri)
      throw new OAuthError("redirect_uri_mismatch");
    if (code.codeChallenge !== null) {
      const verifier = input.code_verifier ?? "";
      if (!hashesEqual(Buffer.from(s256(verifier)).toString("hex"), Buffer.from(code.codeChallenge).toString("hex")))
        throw new OAuthError("pkce_mismatch");
    }
    const grant = { userId: code.userId, scopes: code.scopes, fromDevice: false };
    return (await grantToken(this.store, app, grant, now)).answer;
  }
}
