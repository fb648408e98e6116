/**
 * The tokens OAuth apps are granted: `gho_` authorizations of the app with the scopes the user granted. GitHub keeps
 * at most ten per user, app and scope set, revoking the oldest past that (docs: reusables/apps/oauth-token-limit).
 */
import { normalize } from "../../../api/scopes.js";
import type { AuthorizationRow, OAuthAppRow, Store } from "../../store/store.js";
import { hashToken, mintOAuthToken } from "../credentials.js";

const TOKENS_PER_SCOPE_SET = 10;

const sameScopes = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().every((scope, i) => scope === [...b].sort()[i]);

export async function grantToken(
  store: Store,
  app: OAuthAppRow,
  userId: number,
  scopes: readonly string[],
  now: Date,
): Promise<{ row: AuthorizationRow; token: string }> {
  const token = mintOAuthToken();
  const granted = normalize(scopes);
  const row = await store.authorizations.create(
    {
      userId,
      hashedToken: hashToken(token),
      tokenLastEight: token.slice(-8),
      scopes: granted,
      note: null,
      noteUrl: null,
      fingerprint: null,
      expiresAt: null,
      oauthAppId: app.id,
    },
    now,
  );
  const alike = (await store.oauthApps.tokensOf(app.id, userId)).filter((t) => sameScopes(t.scopes, granted));
  for (const oldest of alike.slice(0, Math.max(0, alike.length - TOKENS_PER_SCOPE_SET)))
    await store.authorizations.revoke(oldest.id);
  return { row, token };
}

/** The scopes an authorize or device-code request names, comma or space separated; unknown names are dropped. */
export function requestedScopes(scope: string | undefined): string[] {
  return (scope ?? "").split(/[\s,]+/).filter((name) => name !== "");
}
