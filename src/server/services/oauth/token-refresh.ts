/**
 * `grant_type=refresh_token` (docs: refreshing-user-access-tokens): a GitHub App's refresh token, presented with its
 * client id and secret (no secret for a token of the device flow), renews its user token: a new `ghu_` and `ghr_`,
 * and the old pair stops working at once. A refresh token renews once; one unknown, expired, revoked with its token,
 * or of another app is `bad_refresh_token`.
 */
import type { Store } from "../../store/store.js";
import { hashesEqual, hashToken } from "../credentials.js";
import { OAuthError } from "./oauth-error.js";
import type { OAuthAppService } from "./oauth-apps.js";
import { grantToken, type GrantedToken } from "./oauth-tokens.js";

export interface RefreshRequest {
  client_id?: string;
  client_secret?: string;
  refresh_token?: string;
}

export class TokenRefresh {
  constructor(
    private readonly store: Store,
    private readonly apps: OAuthAppService,
    private readonly clock: () => Date,
  ) {}

  async refresh(input: RefreshRequest): Promise<GrantedToken> {
    const app = input.client_id ? await this.apps.find(input.client_id) : null;
    if (!app) throw new OAuthError("incorrect_client_credentials");
    const secretGiven = input.client_secret !== undefined && input.client_secret !== "";
    if (secretGiven && !hashesEqual(app.clientSecretHash, hashToken(input.client_secret!)))
      throw new OAuthError("incorrect_client_credentials");
    const hash = hashToken(input.refresh_token ?? "");
    const held = await this.store.oauthApps.findRefreshToken(hash);
    const now = this.clock();
    if (!held || held.oauthAppId !== app.id || held.expiresAt <= now) throw new OAuthError("bad_refresh_token");
    if (!secretGiven && !held.fromDevice) throw new OAuthError("incorrect_client_credentials");
    if (!(await this.store.oauthApps.takeRefreshToken(hash))) throw new OAuthError("bad_refresh_token");
    await this.store.authorizations.revoke(held.authorizationId);
    const grant = { userId: held.userId, scopes: [], fromDevice: held.fromDevice };
    return (await grantToken(this.store, app, grant, now)).answer;
  }
}
