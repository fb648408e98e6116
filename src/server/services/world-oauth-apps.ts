/**
 * A world file's `oauth_apps`: OAuth apps as an installation has them registered, each with its client id and secret
 * kept as given (so the code under test can be configured with them), checked with the rest of the document and
 * registered after its batch (their owners are the batch's accounts). An app whose client id is registered already is
 * left as it is, so seeding the same world again changes nothing.
 */
import type { Store } from "../store/store.js";
import { fail, isObject } from "./input-checks.js";
import { OAuthAppService, type OAuthAppRegistration } from "./oauth/oauth-apps.js";

const KEYS = ["client_id", "client_secret", "name", "owner", "url", "callback_url", "device_flow"];

const text = (value: unknown, where: string, optional: boolean): string | undefined => {
  if (value === undefined && optional) return undefined;
  if (typeof value !== "string" || value === "") fail(where, "must be a non-empty string");
  return value;
};

const httpUrl = (value: unknown, where: string, optional: boolean): string | undefined => {
  const url = text(value, where, optional);
  if (url !== undefined && !(/^https?:\/\//.test(url) && URL.canParse(url)))
    fail(where, "must be an http or https URL");
  return url;
};

/** Checks the entries: each one's registration. */
export function worldOAuthApps(entries: unknown[]): OAuthAppRegistration[] {
  return entries.map((value, i) => {
    const where = `oauth_apps[${i}]`;
    if (!isObject(value)) fail(where, "must be an object");
    const unknown = Object.keys(value).filter((k) => !KEYS.includes(k));
    if (unknown.length > 0) fail(where, `unknown key ${unknown.map((k) => `"${k}"`).join(", ")}`);
    const clientId = text(value.client_id, `${where}.client_id`, true);
    if (clientId !== undefined && !/^[A-Za-z0-9._-]{1,64}$/.test(clientId))
      fail(`${where}.client_id`, "must be letters, digits, . _ or -");
    if (value.device_flow !== undefined && typeof value.device_flow !== "boolean")
      fail(`${where}.device_flow`, "must be true or false");
    return {
      clientId,
      clientSecret: text(value.client_secret, `${where}.client_secret`, true),
      name: text(value.name, `${where}.name`, true) ?? clientId ?? `OAuth app ${i + 1}`,
      owner: text(value.owner, `${where}.owner`, true),
      url: httpUrl(value.url, `${where}.url`, true),
      callbackUrl: httpUrl(value.callback_url, `${where}.callback_url`, false)!,
      deviceFlow: value.device_flow as boolean | undefined,
    };
  });
}

/** Registers the apps not registered yet. */
export async function registerWorldOAuthApps(store: Store, apps: readonly OAuthAppRegistration[], now: () => Date) {
  const service = new OAuthAppService(store, now);
  for (const app of apps) {
    if (app.clientId !== undefined && (await service.find(app.clientId))) continue;
    await service.register(app);
  }
}
