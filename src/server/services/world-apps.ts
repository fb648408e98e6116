/**
 * The world file's `apps` (issue 44): GitHub Apps with their installations, checked entry by entry as the rest of
 * the world is, and registered after the world's accounts and repositories exist. Ids are kept as given; an app whose
 * id is registered already is left as it is, so seeding stays idempotent.
 */
import { createPublicKey } from "node:crypto";
import { isPermissionName, type GrantedPermissions } from "../../api/permissions.js";
import type { Store } from "../store/store.js";
import { AppRegistry, type AppRegistration } from "./apps/app-registry.js";
import { fail, isObject } from "./input-checks.js";

const APP_KEYS = [
  "id",
  "slug",
  "name",
  "owner",
  "client_id",
  "client_secret",
  "public_key",
  "private_key",
  "webhook_url",
  "webhook_secret",
  "permissions",
  "events",
  "callback_urls",
  "device_flow",
  "installations",
];
const INSTALLATION_KEYS = ["id", "account", "repositories"];

export interface WorldApp {
  /** The registration, its webhook secret as written (sealed as it is stored). */
  registration: AppRegistration & { webhookSecret?: string };
  installations: { id?: number; account: string; repositories: "all" | string[] }[];
}

const text = (value: unknown, where: string): string | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") fail(where, "must be a non-empty string");
  return value;
};

const id = (value: unknown, where: string): number | undefined => {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || (value as number) <= 0) fail(where, "must be a positive integer");
  return value as number;
};

function keys(value: unknown, where: string, allowed: string[]): Record<string, unknown> {
  if (!isObject(value)) fail(where, "must be an object");
  const unknown = Object.keys(value).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) fail(where, `unknown key ${unknown.map((k) => `"${k}"`).join(", ")}`);
  return value;
}

function permissions(value: unknown, where: string): GrantedPermissions {
  if (value === undefined) return {};
  if (!isObject(value)) fail(where, 'must be an object such as {"issues": "write"}');
  for (const [name, level] of Object.entries(value)) {
    if (!isPermissionName(name)) fail(`${where}.${name}`, "is not a permission feedgate knows");
    if (level !== "read" && level !== "write") fail(`${where}.${name}`, 'must be "read" or "write"');
  }
  return value as GrantedPermissions;
}

function names(value: unknown, where: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string" || v === ""))
    fail(where, "must be an array of strings");
  return value as string[];
}

function urls(value: unknown, where: string): string[] {
  const list = names(value, where);
  for (const [i, url] of list.entries()) if (!URL.canParse(url)) fail(`${where}[${i}]`, "must be an absolute URL");
  return list;
}

function flag(value: unknown, where: string): boolean {
  if (value !== undefined && typeof value !== "boolean") fail(where, "must be true or false");
  return value === true;
}

/** The `apps` list, checked; nothing is stored. */
export function worldApps(list: unknown[]): WorldApp[] {
  return list.map((value, i) => {
    const where = `apps[${i}]`;
    const a = keys(value, where, APP_KEYS);
    const key = text(a.public_key, `${where}.public_key`) ?? text(a.private_key, `${where}.private_key`);
    if (key === undefined) fail(where, "needs a public_key (or a private_key, of which only the public part is kept)");
    try {
      createPublicKey(key);
    } catch {
      fail(`${where}.${a.public_key === undefined ? "private_key" : "public_key"}`, "must be an RSA key in PEM");
    }
    if (a.installations !== undefined && !Array.isArray(a.installations))
      fail(`${where}.installations`, "must be an array");
    const installations = (a.installations === undefined ? [] : (a.installations as unknown[])).map((entry, j) => {
      const at = `${where}.installations[${j}]`;
      const n = keys(entry, at, INSTALLATION_KEYS);
      const repositories: "all" | string[] =
        n.repositories === undefined || n.repositories === "all" ? "all" : names(n.repositories, `${at}.repositories`);
      return {
        id: id(n.id, `${at}.id`),
        account: text(n.account, `${at}.account`) ?? fail(`${at}.account`, "is required"),
        repositories,
      };
    });
    const name = text(a.name, `${where}.name`) ?? text(a.slug, `${where}.slug`) ?? fail(`${where}.name`, "is required");
    return {
      registration: {
        id: id(a.id, `${where}.id`),
        slug: text(a.slug, `${where}.slug`),
        name,
        owner: text(a.owner, `${where}.owner`) ?? fail(`${where}.owner`, "is required"),
        key,
        clientId: text(a.client_id, `${where}.client_id`),
        clientSecret: text(a.client_secret, `${where}.client_secret`),
        webhookUrl: text(a.webhook_url, `${where}.webhook_url`) ?? null,
        webhookSecret: text(a.webhook_secret, `${where}.webhook_secret`),
        permissions: permissions(a.permissions, `${where}.permissions`),
        events: names(a.events, `${where}.events`),
        callbackUrls: urls(a.callback_urls, `${where}.callback_urls`),
        deviceFlow: flag(a.device_flow, `${where}.device_flow`),
      },
      installations,
    };
  });
}

/** Refuses a world whose apps name a webhook secret where none can be sealed: a hook that signs nothing is worse. */
export function checkSealable(apps: WorldApp[], sealSecret: ((secret: string) => string) | undefined): void {
  const secretAt = apps.findIndex((app) => app.registration.webhookSecret !== undefined);
  if (secretAt >= 0 && !sealSecret)
    fail(`apps[${secretAt}].webhook_secret`, "cannot be sealed here: seed it with `feedgate seed` or the server");
}

/** Registers the world's apps and installs them, skipping apps registered before (by id); secrets sealed by `sealSecret`. */
export async function storeWorldApps(
  store: Store,
  apps: WorldApp[],
  clock: () => Date,
  sealSecret: ((secret: string) => string) | undefined,
): Promise<void> {
  checkSealable(apps, sealSecret);
  const registry = new AppRegistry(store, clock);
  for (const { registration, installations } of apps) {
    if (registration.id !== undefined && (await store.apps.byId(registration.id))) continue;
    const { webhookSecret, ...rest } = registration;
    const sealed = webhookSecret === undefined ? null : sealSecret!(webhookSecret);
    const app = await registry.register({ ...rest, sealedWebhookSecret: sealed });
    for (const installation of installations)
      await registry.install(app, installation.account, installation.repositories, installation.id);
  }
}
