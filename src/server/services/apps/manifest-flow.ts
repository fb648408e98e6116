/**
 * GitHub's manifest flow (docs: apps/sharing-github-apps/registering-a-github-app-from-a-manifest): an app's
 * developer sends a signed-in person's browser to `HOST/settings/apps/new` with a manifest (its name, homepage,
 * webhook, redirect and callback URLs, events and permissions); the person confirms it on the console; their browser
 * goes to the manifest's `redirect_url` with a `code` (an hour, once) and the `state` it came with; the app's server
 * converts the code (`POST /app-manifests/{code}/conversions`) into the registered app, with its secrets and private
 * key shown that once. feedgate keeps the public key only, the client secret as SHA-256 and the webhook secret sealed.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { isPermissionName, type GrantedPermissions } from "../../../api/permissions.js";
import { InvalidInputError } from "../../failures.js";
import { notFound, validationFailed } from "../../errors.js";
import { DuplicateError, type AppRow, type Store, type UserRow } from "../../store/store.js";
import { hashToken, randomHex } from "../credentials.js";
import { isObject } from "../input-checks.js";
import { withQuery } from "../oauth/redirect-uri.js";
import { AppRegistry, slugOf } from "./app-registry.js";

const CODE_LIFETIME_MS = 60 * 60 * 1000;
const DOCS = "https://docs.github.com/rest/apps/apps#create-a-github-app-from-a-manifest";

/** A manifest as checked: what the app is registered with. */
export interface AppManifest {
  name: string;
  url: string;
  description: string | null;
  hook: { url: string; active: boolean } | null;
  redirectUrl: string | null;
  callbackUrls: string[];
  events: string[];
  permissions: GrantedPermissions;
}

/** What the conversion gives back, once: the app and its credentials. */
export interface ConvertedApp {
  app: AppRow;
  owner: UserRow;
  clientSecret: string;
  webhookSecret: string | null;
  pem: string;
}

const absolute = (value: unknown, field: string): string => {
  if (typeof value !== "string" || !URL.canParse(value))
    throw new InvalidInputError(`${field} must be an absolute URL`);
  return value;
};

/** The manifest's JSON text, checked as GitHub's form checks it; an InvalidInputError says what is wrong. */
export function parseManifest(text: string): AppManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidInputError("The manifest is not valid JSON");
  }
  if (!isObject(value)) throw new InvalidInputError("The manifest must be a JSON object");
  const name = typeof value.name === "string" ? value.name.trim() : "";
  if (name === "" || name.length > 34 || slugOf(name) === "")
    throw new InvalidInputError("name must be 1 to 34 characters, with a letter or digit");
  const hook = value.hook_attributes;
  if (hook !== undefined && !isObject(hook)) throw new InvalidInputError("hook_attributes must be an object");
  const events = value.default_events ?? [];
  if (!Array.isArray(events) || events.some((e) => typeof e !== "string" || e === ""))
    throw new InvalidInputError("default_events must be an array of event names");
  const permissions = value.default_permissions ?? {};
  if (!isObject(permissions)) throw new InvalidInputError("default_permissions must be an object");
  for (const [permission, level] of Object.entries(permissions)) {
    if (!isPermissionName(permission)) throw new InvalidInputError(`default_permissions.${permission} is unknown`);
    if (level !== "read" && level !== "write")
      throw new InvalidInputError(`default_permissions.${permission} must be "read" or "write"`);
  }
  const callbacks = value.callback_urls ?? [];
  if (!Array.isArray(callbacks) || callbacks.length > 10)
    throw new InvalidInputError("callback_urls must be an array of at most 10 URLs");
  return {
    name,
    url: absolute(value.url, "url"),
    description: typeof value.description === "string" ? value.description : null,
    hook:
      hook?.url === undefined
        ? null
        : { url: absolute(hook.url, "hook_attributes.url"), active: hook.active !== false },
    redirectUrl: value.redirect_url === undefined ? null : absolute(value.redirect_url, "redirect_url"),
    callbackUrls: callbacks.map((url, i) => absolute(url, `callback_urls[${i}]`)),
    events: events as string[],
    permissions: permissions as GrantedPermissions,
  };
}

export class ManifestFlow {
  private readonly registry: AppRegistry;

  constructor(
    private readonly store: Store,
    private readonly clock: () => Date,
    private readonly sealSecret: (secret: string) => string,
  ) {
    this.registry = new AppRegistry(store, clock);
  }

  /** Whom the app may belong to: the person, or an organization they own (`/organizations/{org}/settings/apps/new`). */
  async owner(user: UserRow, org: string | undefined): Promise<UserRow> {
    if (org === undefined) return user;
    const account = await this.store.users.findByLogin(org);
    const owns = account?.type === "Organization" && (await this.store.directory.orgRole(account.id, user.id));
    if (!account || owns !== "admin") throw new InvalidInputError(`You do not own an organization named ${org}`);
    return account;
  }

  /**
   * The person's confirmation: a code for the manifest (as JSON text, checked) and where their browser goes with it;
   * a name whose slug an app has already is refused, as GitHub's form refuses it.
   */
  async confirm(owner: UserRow, text: string, state: string | undefined): Promise<string> {
    const manifest = parseManifest(text);
    if (await this.store.apps.bySlug(slugOf(manifest.name)))
      throw new InvalidInputError(`Name ${manifest.name} is already in use`);
    if (manifest.redirectUrl === null)
      throw new InvalidInputError("The manifest needs a redirect_url to send the code to");
    const code = randomHex(20);
    await this.store.apps.saveManifestCode({
      codeHash: hashToken(code),
      ownerId: owner.id,
      manifest: JSON.stringify(JSON.parse(text)),
      expiresAt: new Date(this.clock().getTime() + CODE_LIFETIME_MS),
    });
    return withQuery(manifest.redirectUrl, { code, state });
  }

  /** `POST /app-manifests/{code}/conversions`: the app, registered now; an unknown, used or expired code is 404. */
  async convert(code: string): Promise<ConvertedApp> {
    const taken = await this.store.apps.takeManifestCode(hashToken(code));
    if (!taken || taken.expiresAt <= this.clock()) throw notFound();
    const owner = await this.store.users.findById(taken.ownerId);
    if (!owner) throw notFound();
    return this.register(owner, parseManifest(taken.manifest));
  }

  /**
   * Registers the app a checked manifest describes, with a new RSA key, a client secret and (with a webhook) a webhook
   * secret, each shown this once: the conversion's, and the console's "New GitHub App" form's.
   */
  async register(owner: UserRow, manifest: AppManifest): Promise<ConvertedApp> {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const pem = privateKey.export({ type: "pkcs1", format: "pem" }).toString();
    const clientSecret = randomHex(20);
    const webhookSecret = manifest.hook ? randomBytes(20).toString("hex") : null;
    let app: AppRow;
    try {
      app = await this.registry.register({
        name: manifest.name,
        owner: owner.login,
        key: pem,
        clientSecret,
        webhookUrl: manifest.hook?.active ? manifest.hook.url : null,
        sealedWebhookSecret: webhookSecret === null ? null : this.sealSecret(webhookSecret),
        permissions: manifest.permissions,
        events: manifest.events,
        callbackUrls: manifest.callbackUrls,
      });
    } catch (error) {
      // Another app took the name between the confirmation and the conversion.
      if (error instanceof DuplicateError)
        throw validationFailed([{ resource: "Integration", code: "already_exists", field: "name" }], DOCS);
      throw error;
    }
    return { app, owner, clientSecret, webhookSecret, pem };
  }
}
