/** `fg.app()`: a GitHub App registered on the double, with the private key the test signs its JWTs with. */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { GrantedPermissions } from "../api/permissions.js";
import { AppRegistry } from "../server/services/apps/app-registry.js";
import type { TestControls } from "../server/services/test-controls.js";
import type { Store } from "../server/store/store.js";

export interface AppOptions {
  name?: string;
  /** The owning account; by default the first account of the world, made `app-owner` when there is none. */
  owner?: string;
  permissions: GrantedPermissions;
  events: string[];
  webhookUrl?: string;
  /** Where the web flow sends users back when they sign in to the app (its user tokens); none: no web flow. */
  callbackUrl?: string;
  /** Whether users may sign in to the app by the device flow. */
  deviceFlow?: boolean;
}

export interface TestApp {
  id: number;
  slug: string;
  clientId: string;
  clientSecret: string;
  /** PKCS#8 PEM: what `new App({ appId, privateKey })` and Probot take. */
  privateKey: string;
  webhookSecret: string;
  /** Installs the app on the account (every repository, or the named ones); resolves to the installation's id. */
  install(account: string, repositories?: string[]): Promise<{ id: number }>;
}

let made = 0;

export async function registerTestApp(store: Store, controls: TestControls, options: AppOptions): Promise<TestApp> {
  const registry = new AppRegistry(store, controls.clock.now);
  const webhookSecret = randomBytes(20).toString("hex");
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const clientSecret = randomBytes(20).toString("hex");
  const owner = options.owner ?? (await ownerLogin(store));
  const app = await registry.register({
    name: options.name ?? `Test App ${++made}`,
    owner,
    key: pem,
    clientSecret,
    webhookUrl: options.webhookUrl ?? null,
    sealedWebhookSecret: controls.sealSecret(webhookSecret),
    permissions: options.permissions,
    events: options.events,
    callbackUrls: options.callbackUrl === undefined ? [] : [options.callbackUrl],
    deviceFlow: options.deviceFlow,
  });
  return {
    id: app.id,
    slug: app.slug,
    clientId: app.clientId,
    clientSecret,
    privateKey: pem,
    webhookSecret,
    install: async (account, repositories) => ({ id: (await registry.install(app, account, repositories)).id }),
  };
}

async function ownerLogin(store: Store): Promise<string> {
  const first = await store.users.findById(1);
  if (first) return first.login;
  await store.users.create({ login: "app-owner", passwordHash: null, otpSecret: null, siteAdmin: false });
  return "app-owner";
}
