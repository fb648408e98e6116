/** OAuth apps, their codes and device codes, written once over the executor (oauth-app-store.ts is the contract). */
import { randomUUID } from "node:crypto";
import { DuplicateError } from "./duplicate-error.js";
import { UniqueViolation, type Executor } from "./executor.js";
import type {
  DeviceCodeRow,
  HeldRefreshToken,
  NewDeviceCode,
  NewOAuthApp,
  OAuthAppRow,
  OAuthAppStore,
  OAuthCodeRow,
  RefreshTokenRow,
} from "./oauth-app-store.js";
import { date, json, type Bool, type Json, type Time } from "./sql-values.js";

const SQL = {
  insert: `INSERT INTO oauth_apps (client_id, client_secret_hash, name, owner_id, url, callback_url, device_flow,
      suspended, created_at)
    VALUES (@clientId, @clientSecretHash, @name, @ownerId, @url, @callbackUrl, @deviceFlow, @suspended, @now)
    RETURNING *`,
  byClientId: "SELECT * FROM oauth_apps WHERE client_id = @clientId",
  byId: "SELECT * FROM oauth_apps WHERE id = @id",
  // GitHub Apps' clients are their apps': listed, managed and deleted with them.
  list: "SELECT * FROM oauth_apps WHERE github_app_id IS NULL ORDER BY id",
  authorizedBy: `SELECT * FROM oauth_apps WHERE id IN
      (SELECT oauth_app_id FROM authorizations WHERE user_id = @userId AND oauth_app_id IS NOT NULL)
    ORDER BY name, id`,
  revokeGrant: "DELETE FROM authorizations WHERE oauth_app_id = @appId AND user_id = @userId",
  // To the hook of the GitHub App whose client this is; an OAuth app has no hook, and nothing is queued.
  queueRevoked: `INSERT INTO hook_queue (hook_id, guid, event, action, event_id, body, redelivery, next_attempt_at,
      created_at, installation_id)
    SELECT h.id, @guid, 'github_app_authorization', 'revoked', NULL, @body, @redelivery, @due, @now, NULL
    FROM oauth_apps c JOIN hooks h ON h.app_id = c.github_app_id WHERE c.id = @appId AND h.active = @active`,
  tokensOf: "SELECT id, scopes FROM authorizations WHERE oauth_app_id = @appId AND user_id = @userId ORDER BY id",
  saveCode: `INSERT INTO oauth_codes (code_hash, app_id, user_id, redirect_uri, scopes, code_challenge, expires_at)
    VALUES (@codeHash, @appId, @userId, @redirectUri, @scopes, @codeChallenge, @expiresAt)`,
  takeCode: "DELETE FROM oauth_codes WHERE code_hash = @codeHash RETURNING *",
  saveDeviceCode: `INSERT INTO oauth_device_codes (device_code_hash, user_code, app_id, scopes, interval_seconds,
      expires_at, state)
    VALUES (@deviceCodeHash, @userCode, @appId, @scopes, @intervalSeconds, @expiresAt, 'pending')`,
  deviceCode: "SELECT * FROM oauth_device_codes WHERE device_code_hash = @deviceCodeHash",
  userCode: "SELECT * FROM oauth_device_codes WHERE user_code = @userCode",
  polled: `UPDATE oauth_device_codes SET last_polled_at = @now, interval_seconds = @intervalSeconds
    WHERE device_code_hash = @deviceCodeHash`,
  decide: `UPDATE oauth_device_codes SET state = @state, user_id = @userId
    WHERE user_code = @userCode AND state = 'pending'`,
  deleteDeviceCode: "DELETE FROM oauth_device_codes WHERE device_code_hash = @deviceCodeHash",
  saveRefreshToken: `INSERT INTO app_refresh_tokens (refresh_token_hash, authorization_id, from_device, expires_at)
    VALUES (@refreshTokenHash, @authorizationId, @fromDevice, @expiresAt)`,
  findRefreshToken: `SELECT r.*, a.user_id, a.oauth_app_id FROM app_refresh_tokens r
    JOIN authorizations a ON a.id = r.authorization_id WHERE r.refresh_token_hash = @refreshTokenHash`,
  takeRefreshToken: "DELETE FROM app_refresh_tokens WHERE refresh_token_hash = @refreshTokenHash",
};

interface AppRecord {
  id: number;
  client_id: string;
  client_secret_hash: string;
  name: string;
  owner_id: number | null;
  url: string;
  callback_url: string;
  device_flow: Bool;
  suspended: Bool;
  created_at: Time;
  github_app_id: number | string | null;
}

interface RefreshTokenRecord {
  refresh_token_hash: string;
  authorization_id: number | string;
  from_device: Bool;
  expires_at: Time;
  user_id: number | string;
  oauth_app_id: number | string;
}

interface CodeRecord {
  code_hash: string;
  app_id: number;
  user_id: number;
  redirect_uri: string | null;
  scopes: Json<string[]>;
  code_challenge: string | null;
  expires_at: Time;
}

interface DeviceCodeRecord {
  device_code_hash: string;
  user_code: string;
  app_id: number;
  scopes: Json<string[]>;
  interval_seconds: number;
  expires_at: Time;
  last_polled_at: Time | null;
  state: DeviceCodeRow["state"];
  user_id: number | null;
}

const toApp = (r: AppRecord): OAuthAppRow => ({
  id: Number(r.id),
  clientId: r.client_id,
  clientSecretHash: r.client_secret_hash,
  name: r.name,
  ownerId: r.owner_id === null ? null : Number(r.owner_id),
  url: r.url,
  callbackUrl: r.callback_url,
  deviceFlow: Boolean(r.device_flow),
  suspended: Boolean(r.suspended),
  createdAt: date(r.created_at),
  githubAppId: r.github_app_id === null ? null : Number(r.github_app_id),
});

const toCode = (r: CodeRecord): OAuthCodeRow => ({
  codeHash: r.code_hash,
  appId: Number(r.app_id),
  userId: Number(r.user_id),
  redirectUri: r.redirect_uri,
  scopes: json(r.scopes),
  codeChallenge: r.code_challenge,
  expiresAt: date(r.expires_at),
});

const toDeviceCode = (r: DeviceCodeRecord): DeviceCodeRow => ({
  deviceCodeHash: r.device_code_hash,
  userCode: r.user_code,
  appId: Number(r.app_id),
  scopes: json(r.scopes),
  intervalSeconds: Number(r.interval_seconds),
  expiresAt: date(r.expires_at),
  lastPolledAt: r.last_polled_at === null ? null : date(r.last_polled_at),
  state: r.state,
  userId: r.user_id === null ? null : Number(r.user_id),
});

export class OAuthApps implements OAuthAppStore {
  constructor(private readonly db: Executor) {}

  async create(app: NewOAuthApp, now: Date): Promise<OAuthAppRow> {
    const { bool, time } = this.db.values;
    try {
      const r = await this.db.get<AppRecord>(SQL.insert, {
        ...app,
        deviceFlow: bool(app.deviceFlow),
        suspended: bool(app.suspended),
        now: time(now),
      });
      return toApp(r!);
    } catch (error) {
      if (error instanceof UniqueViolation) throw new DuplicateError("client_id");
      throw error;
    }
  }

  async findByClientId(clientId: string) {
    const r = await this.db.get<AppRecord>(SQL.byClientId, { clientId });
    return r ? toApp(r) : null;
  }

  async findById(id: number) {
    const r = await this.db.get<AppRecord>(SQL.byId, { id });
    return r ? toApp(r) : null;
  }

  async list() {
    return (await this.db.all<AppRecord>(SQL.list)).map(toApp);
  }

  async authorizedBy(userId: number) {
    return (await this.db.all<AppRecord>(SQL.authorizedBy, { userId })).map(toApp);
  }

  async revokeGrant(appId: number, userId: number, revokedBody: string, now: Date) {
    return this.db.transaction(async (tx) => {
      const { changes } = await tx.run(SQL.revokeGrant, { appId, userId });
      if (changes > 0)
        await tx.run(SQL.queueRevoked, {
          appId,
          guid: randomUUID(),
          body: revokedBody,
          redelivery: tx.values.bool(false),
          due: now.getTime(),
          now: tx.values.time(now),
          active: tx.values.bool(true),
        });
      return changes;
    });
  }

  async tokensOf(appId: number, userId: number) {
    const rows = await this.db.all<{ id: number; scopes: Json<string[]> }>(SQL.tokensOf, { appId, userId });
    return rows.map((r) => ({ id: Number(r.id), scopes: json(r.scopes) }));
  }

  async saveCode(code: OAuthCodeRow) {
    await this.db.run(SQL.saveCode, {
      ...code,
      scopes: JSON.stringify(code.scopes),
      expiresAt: this.db.values.time(code.expiresAt),
    });
  }

  async takeCode(codeHash: string) {
    const r = await this.db.get<CodeRecord>(SQL.takeCode, { codeHash });
    return r ? toCode(r) : null;
  }

  async saveDeviceCode(code: NewDeviceCode) {
    await this.db.run(SQL.saveDeviceCode, {
      ...code,
      scopes: JSON.stringify(code.scopes),
      expiresAt: this.db.values.time(code.expiresAt),
    });
  }

  async findDeviceCode(deviceCodeHash: string) {
    const r = await this.db.get<DeviceCodeRecord>(SQL.deviceCode, { deviceCodeHash });
    return r ? toDeviceCode(r) : null;
  }

  async findUserCode(userCode: string) {
    const r = await this.db.get<DeviceCodeRecord>(SQL.userCode, { userCode });
    return r ? toDeviceCode(r) : null;
  }

  async polled(deviceCodeHash: string, now: Date, intervalSeconds: number) {
    await this.db.run(SQL.polled, { deviceCodeHash, now: this.db.values.time(now), intervalSeconds });
  }

  async decide(userCode: string, state: "approved" | "denied", userId: number) {
    return (await this.db.run(SQL.decide, { userCode, state, userId })).changes > 0;
  }

  async deleteDeviceCode(deviceCodeHash: string) {
    await this.db.run(SQL.deleteDeviceCode, { deviceCodeHash });
  }

  async saveRefreshToken(token: RefreshTokenRow) {
    const { bool, time } = this.db.values;
    await this.db.run(SQL.saveRefreshToken, {
      ...token,
      fromDevice: bool(token.fromDevice),
      expiresAt: time(token.expiresAt),
    });
  }

  async findRefreshToken(refreshTokenHash: string): Promise<HeldRefreshToken | null> {
    const r = await this.db.get<RefreshTokenRecord>(SQL.findRefreshToken, { refreshTokenHash });
    return r
      ? {
          refreshTokenHash: r.refresh_token_hash,
          authorizationId: Number(r.authorization_id),
          fromDevice: Boolean(r.from_device),
          expiresAt: date(r.expires_at),
          userId: Number(r.user_id),
          oauthAppId: Number(r.oauth_app_id),
        }
      : null;
  }

  async takeRefreshToken(refreshTokenHash: string) {
    return (await this.db.run(SQL.takeRefreshToken, { refreshTokenHash })).changes > 0;
  }
}
