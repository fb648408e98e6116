/**
 * An OAuth app managing the tokens it was granted (docs: rest/apps/oauth-applications), authenticated by its client
 * id and secret: check one, reset one (a new token for the same grant), delete one, or delete the user's whole grant.
 * A token of another app, or none, is 404, as is a wrong secret: nothing tells a caller what exists.
 */
import { notFound, requiresAuthentication } from "../../errors.js";
import type { AuthorizationRow, OAuthAppRow, Store } from "../../store/store.js";
import type { Credentials } from "../authenticator.js";
import { hashesEqual, hashToken } from "../credentials.js";
import type { OAuthAppService } from "./oauth-apps.js";
import { grantToken } from "./oauth-tokens.js";

export class AppTokenService {
  constructor(
    private readonly store: Store,
    private readonly apps: OAuthAppService,
    private readonly clock: () => Date,
  ) {}

  /** The app whose client id is the path's and whose secret the Basic credentials carry. */
  async app(clientId: string, credentials: Credentials): Promise<OAuthAppRow> {
    if (credentials.type === "none") throw requiresAuthentication();
    // A token is not an app's credentials: answered as a wrong secret is.
    if (credentials.type !== "basic") throw notFound();
    const app =
      credentials.login === clientId ? await this.apps.withSecret(credentials.login, credentials.password) : null;
    if (!app) throw notFound();
    return app;
  }

  /** The app's token with that value, or 404. */
  async check(app: OAuthAppRow, token: string): Promise<AuthorizationRow> {
    const hashed = hashToken(token);
    const candidates = await this.store.authorizations.findByTokenLastEight(token.slice(-8));
    const row = candidates.find((c) => c.oauthAppId === app.id && hashesEqual(c.hashedToken, hashed));
    if (!row) throw notFound();
    return row;
  }

  /** A new token for the same user and scopes; the old one stops working. */
  async reset(app: OAuthAppRow, token: string): Promise<{ row: AuthorizationRow; token: string }> {
    const old = await this.check(app, token);
    const { row, answer } = await grantToken(
      this.store,
      app,
      { userId: old.userId, scopes: old.scopes, fromDevice: false },
      this.clock(),
    );
    await this.store.authorizations.revoke(old.id);
    return { row, token: answer.access_token };
  }

  async delete(app: OAuthAppRow, token: string): Promise<void> {
    const row = await this.check(app, token);
    await this.store.authorizations.revoke(row.id);
  }

  /** Every token of the app the token's user holds: the app is no longer authorized by them. */
  async deleteGrant(app: OAuthAppRow, token: string, baseUrl: string): Promise<void> {
    const row = await this.check(app, token);
    const user = await this.store.users.findById(row.userId);
    if (user) await this.apps.revokeGrantOf(app, user, baseUrl);
  }
}
