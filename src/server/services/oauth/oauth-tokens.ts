/**
 * The tokens OAuth clients are granted. An OAuth app's: `gho_` authorizations of the app with the scopes the user
 * granted; GitHub keeps at most ten per user, app and scope set, revoking the oldest past that (docs:
 * reusables/apps/oauth-token-limit). A GitHub App's client: the app's user tokens (spec section 8), `ghu_` for eight
 * hours with no scopes (the app's permissions limit them instead), each with a `ghr_` refresh token.
 */
import { normalize } from "../../../api/scopes.js";
import type { AuthorizationRow, OAuthAppRow, Store } from "../../store/store.js";
import { hashToken, mintOAuthToken, mintRefreshToken, mintUserToken } from "../credentials.js";

const TOKENS_PER_SCOPE_SET = 10;
const USER_TOKEN_SECONDS = 8 * 60 * 60;
const REFRESH_TOKEN_SECONDS = 15_811_200;

/** The answer of the code exchange, the device flow's last poll and a refresh. */
export interface GrantedToken {
  access_token: string;
  /** A GitHub App's user token's lifetime and refresh token (spec section 8); an OAuth app's tokens have none. */
  expires_in?: number;
  refresh_token?: string;
  refresh_token_expires_in?: number;
  token_type: "bearer";
  scope: string;
}

export interface Grant {
  userId: number;
  scopes: readonly string[];
  /** By the device flow: a GitHub App's refresh then needs no client secret. */
  fromDevice: boolean;
}

const sameScopes = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().every((scope, i) => scope === [...b].sort()[i]);

export async function grantToken(
  store: Store,
  app: OAuthAppRow,
  grant: Grant,
  now: Date,
): Promise<{ row: AuthorizationRow; answer: GrantedToken }> {
  const ofGitHubApp = app.githubAppId !== null;
  const token = ofGitHubApp ? mintUserToken() : mintOAuthToken();
  const granted = ofGitHubApp ? [] : normalize(grant.scopes);
  const row = await store.authorizations.create(
    {
      userId: grant.userId,
      hashedToken: hashToken(token),
      tokenLastEight: token.slice(-8),
      scopes: granted,
      note: null,
      noteUrl: null,
      fingerprint: null,
      expiresAt: ofGitHubApp ? new Date(now.getTime() + USER_TOKEN_SECONDS * 1000) : null,
      oauthAppId: app.id,
    },
    now,
  );
  const alike = (await store.oauthApps.tokensOf(app.id, grant.userId)).filter((t) => sameScopes(t.scopes, granted));
  for (const oldest of alike.slice(0, Math.max(0, alike.length - TOKENS_PER_SCOPE_SET)))
    await store.authorizations.revoke(oldest.id);
  const answer: GrantedToken = { access_token: token, token_type: "bearer", scope: granted.join(",") };
  if (!ofGitHubApp) return { row, answer };
  const refreshToken = mintRefreshToken();
  await store.oauthApps.saveRefreshToken({
    refreshTokenHash: hashToken(refreshToken),
    authorizationId: row.id,
    fromDevice: grant.fromDevice,
    expiresAt: new Date(now.getTime() + REFRESH_TOKEN_SECONDS * 1000),
  });
  return {
    row,
    answer: {
      access_token: token,
      expires_in: USER_TOKEN_SECONDS,
      refresh_token: refreshToken,
      refresh_token_expires_in: REFRESH_TOKEN_SECONDS,
      token_type: "bearer",
      scope: "",
    },
  };
}

/** The scopes an authorize or device-code request names, comma or space separated; unknown names are dropped. */
export function requestedScopes(scope: string | undefined): string[] {
  return (scope ?? "").split(/[\s,]+/).filter((name) => name !== "");
}
