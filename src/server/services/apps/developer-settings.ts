/**
 * The console's Developer settings: the OAuth apps and GitHub Apps a person owns, and registering new ones from a
 * browser, by the same rules as the CLI, world files and the manifest flow (an OAuth app by oauth-apps.ts, a GitHub
 * App by the manifest a form makes: manifest-flow.ts). No Fastify.
 */
import type { GrantedPermissions } from "../../../api/permissions.js";
import { InvalidInputError } from "../../failures.js";
import type { AppRow, OAuthAppRow, Store, UserRow } from "../../store/store.js";
import type { OAuthAppService } from "../oauth/oauth-apps.js";
import { parseManifest, type ConvertedApp, type ManifestFlow } from "./manifest-flow.js";
import { slugOf } from "./app-registry.js";

export interface NewOAuthAppForm {
  name: string;
  url: string;
  callbackUrl: string;
  deviceFlow: boolean;
}

export interface NewGitHubAppForm {
  name: string;
  url: string;
  callbackUrl: string;
  webhookUrl: string;
  permissions: GrantedPermissions;
  events: string[];
}

export class DeveloperSettings {
  constructor(
    private readonly store: Store,
    private readonly oauthApps: OAuthAppService,
    private readonly manifests: ManifestFlow,
  ) {}

  /** The person's OAuth apps (not GitHub Apps' clients) and GitHub Apps. */
  async owned(user: UserRow): Promise<{ oauthApps: OAuthAppRow[]; apps: AppRow[] }> {
    const oauthApps = (await this.store.oauthApps.list()).filter((app) => app.ownerId === user.id);
    return { oauthApps, apps: await this.store.apps.ownedBy(user.id) };
  }

  /** A new OAuth app of the person's, and its client secret, shown once. */
  async newOAuthApp(user: UserRow, form: NewOAuthAppForm): Promise<{ app: OAuthAppRow; clientSecret: string }> {
    if (form.name.trim() === "") throw new InvalidInputError("Application name can't be blank");
    if (!URL.canParse(form.url)) throw new InvalidInputError("Homepage URL must be an absolute URL");
    return this.oauthApps.register({
      name: form.name.trim(),
      owner: user.login,
      url: form.url,
      callbackUrl: form.callbackUrl,
      deviceFlow: form.deviceFlow,
    });
  }

  /** A new GitHub App of the person's, with its secrets and private key, shown once. */
  async newGitHubApp(user: UserRow, form: NewGitHubAppForm): Promise<ConvertedApp> {
    const manifest = parseManifest(
      JSON.stringify({
        name: form.name,
        url: form.url,
        ...(form.callbackUrl ? { callback_urls: [form.callbackUrl] } : {}),
        ...(form.webhookUrl ? { hook_attributes: { url: form.webhookUrl } } : {}),
        default_permissions: form.permissions,
        default_events: form.events,
      }),
    );
    if (await this.store.apps.bySlug(slugOf(manifest.name)))
      throw new InvalidInputError(`Name ${manifest.name} is already in use`);
    return this.manifests.register(user, manifest);
  }
}
