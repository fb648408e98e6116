/**
 * OAuth apps (GitHub's "OAuth Apps": a client id and secret, a callback URL, the device flow on or off), the
 * authorization codes of their web flow and the device codes of their device flow. Secrets and codes are kept as
 * SHA-256 only; the caller hashes what it is given and compares hashes.
 */

export interface OAuthAppRow {
  id: number;
  clientId: string;
  /** Lowercase hex SHA-256 of the client secret. */
  clientSecretHash: string;
  name: string;
  ownerId: number | null;
  /** The app's homepage, shown as `app.url` on its authorizations. */
  url: string;
  callbackUrl: string;
  deviceFlow: boolean;
  suspended: boolean;
  createdAt: Date;
  /**
   * Set when this is a GitHub App's client (migration 30): the app signs users in by it, and the tokens it grants
   * are the app's user tokens (`ghu_`, with refresh tokens); null for an OAuth app.
   */
  githubAppId: number | null;
}

export type NewOAuthApp = Omit<OAuthAppRow, "id" | "createdAt" | "githubAppId">;

/** A GitHub App user token's refresh token, kept as its SHA-256 beside the token (authorization) it renews. */
export interface RefreshTokenRow {
  refreshTokenHash: string;
  authorizationId: number;
  /** Granted by the device flow, whose refresh GitHub takes without the client secret. */
  fromDevice: boolean;
  expiresAt: Date;
}

/** A refresh token with what its token is: whose, and of which client. */
export interface HeldRefreshToken extends RefreshTokenRow {
  userId: number;
  oauthAppId: number;
}

/** A web-flow code: once, until `expiresAt`, for the redirect URI and the PKCE challenge it was issued with. */
export interface OAuthCodeRow {
  codeHash: string;
  appId: number;
  userId: number;
  /** The `redirect_uri` the authorize request named; null when it named none (the exchange may then name none). */
  redirectUri: string | null;
  scopes: string[];
  /** The S256 `code_challenge`, when the authorize request sent one. */
  codeChallenge: string | null;
  expiresAt: Date;
}

export type DeviceCodeState = "pending" | "approved" | "denied";

export interface DeviceCodeRow {
  deviceCodeHash: string;
  userCode: string;
  appId: number;
  scopes: string[];
  intervalSeconds: number;
  expiresAt: Date;
  lastPolledAt: Date | null;
  state: DeviceCodeState;
  /** Who approved or denied it; null while pending. */
  userId: number | null;
}

export type NewDeviceCode = Omit<DeviceCodeRow, "lastPolledAt" | "state" | "userId">;

export interface OAuthAppStore {
  /** Throws DuplicateError("client_id") when the client id is taken. */
  create(app: NewOAuthApp, now: Date): Promise<OAuthAppRow>;
  findByClientId(clientId: string): Promise<OAuthAppRow | null>;
  findById(id: number): Promise<OAuthAppRow | null>;
  list(): Promise<OAuthAppRow[]>;
  /** The apps a user has tokens of (the console's "Authorized OAuth Apps"), by name. */
  authorizedBy(userId: number): Promise<OAuthAppRow[]>;
  /**
   * Deletes every token of the app the user holds (GitHub's grant revocation); how many went. For a GitHub App's
   * client, `revokedBody` (its `github_app_authorization` `revoked` payload) is queued to the app's hook in the same
   * transaction, when any token went.
   */
  revokeGrant(appId: number, userId: number, revokedBody: string, now: Date): Promise<number>;
  /** The user's tokens of the app, oldest first, with their scopes (GitHub keeps ten per scope set). */
  tokensOf(appId: number, userId: number): Promise<{ id: number; scopes: string[] }[]>;
  saveCode(code: OAuthCodeRow): Promise<void>;
  /** Deletes the code and returns it, so that it is exchanged at most once; null when there is none. */
  takeCode(codeHash: string): Promise<OAuthCodeRow | null>;
  saveDeviceCode(code: NewDeviceCode): Promise<void>;
  findDeviceCode(deviceCodeHash: string): Promise<DeviceCodeRow | null>;
  findUserCode(userCode: string): Promise<DeviceCodeRow | null>;
  /** Records a poll and, for `slow_down`, the longer interval. */
  polled(deviceCodeHash: string, now: Date, intervalSeconds: number): Promise<void>;
  /** Approves or denies a pending code; false when it was no longer pending. */
  decide(userCode: string, state: "approved" | "denied", userId: number): Promise<boolean>;
  /** Deletes the device code once its token is issued or refused for good. */
  deleteDeviceCode(deviceCodeHash: string): Promise<void>;
  saveRefreshToken(token: RefreshTokenRow): Promise<void>;
  /** The refresh token with its token's user and client; null when there is none (or its token was revoked). */
  findRefreshToken(refreshTokenHash: string): Promise<HeldRefreshToken | null>;
  /** Deletes the refresh token, so that it renews at most once; false when another request took it first. */
  takeRefreshToken(refreshTokenHash: string): Promise<boolean>;
}
