/**
 * Registering GitHub Apps and installing them (the test double, and later the world file and the CLI, call this):
 * only the public key is kept (a private key given stands for its public part), the client secret as SHA-256; ids
 * are kept as given, or follow the highest so far.
 */
import { createPublicKey, randomBytes } from "node:crypto";
import type { GrantedPermissions } from "../../../api/permissions.js";
import type { AppRow, InstallationRow, Store } from "../../store/store.js";
import { hashToken } from "../credentials.js";

export interface AppRegistration {
  id?: number;
  slug?: string;
  name: string;
  owner: string;
  /** A PEM, public or private: only the public part is kept. */
  key: string;
  clientId?: string;
  clientSecret?: string;
  webhookUrl?: string | null;
  /** Sealed already, as hooks' secrets are stored. */
  sealedWebhookSecret?: string | null;
  permissions: GrantedPermissions;
  events: string[];
  /** Where the web flow may send users back: the first is the app's callback URL (none: no web flow). */
  callbackUrls?: string[];
  /** Whether users may sign in to the app by the device flow. */
  deviceFlow?: boolean;
}

export const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");

/** GitHub's app client ids: `Iv23li` and 14 more characters. */
const newClientId = () => `Iv23li${randomBytes(7).toString("hex")}`;

export class AppRegistry {
  constructor(
    private readonly store: Store,
    private readonly clock: () => Date,
  ) {}

  async register(registration: AppRegistration): Promise<AppRow> {
    const owner = await this.store.users.findByLogin(registration.owner);
    if (!owner) throw new RangeError(`app owner "${registration.owner}" is not an account`);
    const slug = registration.slug ?? slugOf(registration.name);
    return this.store.apps.insert(
      {
        id: registration.id ?? (await this.store.apps.lastId()) + 1,
        slug,
        name: registration.name,
        ownerId: owner.id,
        botLogin: `${slug}[bot]`,
        clientId: registration.clientId ?? newClientId(),
        clientSecretHash: registration.clientSecret === undefined ? null : hashToken(registration.clientSecret),
        publicKey: createPublicKey(registration.key).export({ type: "spki", format: "pem" }).toString(),
        webhook: registration.webhookUrl
          ? { url: registration.webhookUrl, sealedSecret: registration.sealedWebhookSecret ?? null }
          : null,
        permissions: { ...registration.permissions, metadata: "read" },
        events: registration.events,
        signIn: { callbackUrl: registration.callbackUrls?.[0] ?? null, deviceFlow: registration.deviceFlow ?? false },
      },
      this.clock(),
    );
  }

  /** Installs the app on the account: every repository, or the named ones (`owner/name` or `name`). */
  async install(app: AppRow, account: string, repositories: "all" | string[] = "all", id?: number) {
    const owner = await this.store.users.findByLogin(account);
    if (!owner) throw new RangeError(`installation account "${account}" is not an account`);
    const repositoryIds: number[] = [];
    if (repositories !== "all") {
      for (const name of repositories) {
        const repo = await this.store.directory.findRepo(owner.login, name.split("/").pop()!);
        if (!repo) throw new RangeError(`installation repository "${name}" is not a repository of ${owner.login}`);
        repositoryIds.push(repo.id);
      }
    }
    const installation: InstallationRow = await this.store.apps.install(
      {
        id: id ?? (await this.store.apps.lastInstallationId()) + 1,
        appId: app.id,
        accountId: owner.id,
        repositorySelection: repositories === "all" ? "all" : "selected",
        repositoryIds,
        permissions: app.permissions,
        events: app.events,
      },
      this.clock(),
    );
    return installation;
  }
}
