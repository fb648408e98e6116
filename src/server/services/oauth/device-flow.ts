/**
 * The device flow (docs: authorizing-oauth-apps#device-flow): a device code (900 s) whose user code a person enters
 * at `/login/device`, and the polling that turns it into a token once they authorize it. Time is the injected clock's.
 */
import { randomInt } from "node:crypto";
import { isScopeName, normalize } from "../../../api/scopes.js";
import type { DeviceCodeRow, OAuthAppRow, Store } from "../../store/store.js";
import { hashToken, randomHex } from "../credentials.js";
import { OAuthError } from "./oauth-error.js";
import type { OAuthAppService } from "./oauth-apps.js";
import { grantToken, requestedScopes, type GrantedToken } from "./oauth-tokens.js";

const EXPIRES_IN_SECONDS = 900;
const INTERVAL_SECONDS = 5;
/** What `slow_down` adds to the interval, which the answer carries (docs: "the new interval"). */
const SLOW_DOWN_SECONDS = 5;
export const DEVICE_GRANT_TYPE = "urn:ietf:params:oauth:grant-type:device_code";
/** Letters a person reads without mistaking one for another, and no vowel, so no word is spelled (GitHub's look). */
const USER_CODE_LETTERS = "BCDFGHJKLMNPQRSTVWXZ";

const newUserCode = () => {
  const letters = Array.from({ length: 8 }, () => USER_CODE_LETTERS[randomInt(USER_CODE_LETTERS.length)]).join("");
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
};

/** A user code as typed: any case, with or without its dash. */
export const normalUserCode = (typed: string) => {
  const letters = typed.toUpperCase().replace(/[^A-Z0-9]/g, "");
  return letters.length === 8 ? `${letters.slice(0, 4)}-${letters.slice(4)}` : letters;
};

export interface DeviceCodeAnswer {
  device_code: string;
  user_code: string;
  verification_uri: string;
  expires_in: number;
  interval: number;
}

export interface DevicePoll {
  client_id?: string;
  device_code?: string;
}

export class DeviceFlow {
  constructor(
    private readonly store: Store,
    private readonly apps: OAuthAppService,
    private readonly clock: () => Date,
  ) {}

  /** `POST /login/device/code`. */
  async start(clientId: string | undefined, scope: string | undefined, verificationUri: string) {
    const app = await this.enabledApp(clientId);
    const deviceCode = randomHex(20);
    const userCode = newUserCode();
    await this.store.oauthApps.saveDeviceCode({
      deviceCodeHash: hashToken(deviceCode),
      userCode,
      appId: app.id,
      scopes: normalize(requestedScopes(scope).filter(isScopeName)),
      intervalSeconds: INTERVAL_SECONDS,
      expiresAt: new Date(this.clock().getTime() + EXPIRES_IN_SECONDS * 1000),
    });
    return {
      device_code: deviceCode,
      user_code: userCode,
      verification_uri: verificationUri,
      expires_in: EXPIRES_IN_SECONDS,
      interval: INTERVAL_SECONDS,
    } satisfies DeviceCodeAnswer;
  }

  /** The pending code a person typed, with its app, for the authorize page; null when none is pending. */
  async pending(typed: string): Promise<{ code: DeviceCodeRow; app: OAuthAppRow } | null> {
    const code = await this.store.oauthApps.findUserCode(normalUserCode(typed));
    if (code?.state !== "pending" || code.expiresAt <= this.clock()) return null;
    const app = await this.store.oauthApps.findById(code.appId);
    return app ? { code, app } : null;
  }

  /** The person's answer; false when the code is no longer pending (expired, or answered already). */
  async decide(typed: string, userId: number, approved: boolean): Promise<boolean> {
    if (!(await this.pending(typed))) return false;
    return this.store.oauthApps.decide(normalUserCode(typed), approved ? "approved" : "denied", userId);
  }

  /** A poll of `POST /login/oauth/access_token` with the device grant. */
  async poll(input: DevicePoll): Promise<GrantedToken> {
    const app = await this.enabledApp(input.client_id);
    const hash = hashToken(input.device_code ?? "");
    const code = await this.store.oauthApps.findDeviceCode(hash);
    if (!code || code.appId !== app.id) throw new OAuthError("incorrect_device_code");
    const now = this.clock();
    if (code.expiresAt <= now) throw new OAuthError("expired_token");
    if (code.state === "denied") {
      await this.store.oauthApps.deleteDeviceCode(hash);
      throw new OAuthError("access_denied");
    }
    if (code.state === "approved" && code.userId !== null) {
      await this.store.oauthApps.deleteDeviceCode(hash);
      const grant = { userId: code.userId, scopes: code.scopes, fromDevice: true };
      return (await grantToken(this.store, app, grant, now)).answer;
    }
    const tooSoon =
      code.lastPolledAt !== null && now.getTime() - code.lastPolledAt.getTime() < code.intervalSeconds * 1000;
    const interval = code.intervalSeconds + (tooSoon ? SLOW_DOWN_SECONDS : 0);
    await this.store.oauthApps.polled(hash, now, interval);
    if (tooSoon) throw new OAuthError("slow_down", { interval });
    throw new OAuthError("authorization_pending");
  }

  private async enabledApp(clientId: string | undefined): Promise<OAuthAppRow> {
    const app = clientId ? await this.apps.find(clientId) : null;
    if (!app) throw new OAuthError("incorrect_client_credentials");
    if (!app.deviceFlow) throw new OAuthError("device_flow_disabled");
    return app;
  }
}
