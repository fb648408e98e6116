/**
 * Registering OAuth apps (world files, `feedgate oauth-app create`, the test double) and finding them by client id.
 * The client secret is shown once, to whoever registers the app, and kept as its SHA-256.
 */
import { DuplicateError, type OAuthAppRow, type Store, type UserRow } from "../../store/store.js";
import { InvalidInputError } from "../../failures.js";
import { hashesEqual, hashToken, randomHex } from "../credentials.js";
import { toWireSimpleUser } from "../../convert/user.js";

/**
 * GitHub CLI's OAuth app: its client id and secret are public, in gh's source (cli/cli internal/authflow/flow.go),
 * and every GitHub Enterprise Server has the app registered, so `gh auth login --hostname` works out of the box.
 */
export const GITHUB_CLI_APP = {
  clientId: "178c6fc778ccc68e1d6a",
  clientSecret: "34ddeff2b558a23d38fba8a6de74f086ede1cc0b",
  name: "GitHub CLI",
  url: "https://cli.github.com/",
  callbackUrl: "http://127.0.0.1/callback",
} as const;

export interface OAuthAppRegistration {
  name: string;
  /** The owner's login; none for an app of the installation itself (GitHub CLI's). */
  owner?: string;
  callbackUrl: string;
  url?: string;
  deviceFlow?: boolean;
  /** Kept as given (world files), else made here: `Ov23li` and 14 more, as GitHub's. */
  clientId?: string;
  clientSecret?: string;
}

const CLIENT_ID = /^[A-Za-z0-9._-]{1,64}$/;

const newClientId = () => `Ov23li${randomHex(7)}`;

export class OAuthAppService {
  constructor(
    private readonly store: Store,
    private readonly clock: () => Date,
  ) {}

  /** The app and its client secret, shown this once. */
  async register(registration: OAuthAppRegistration): Promise<{ app: OAuthAppRow; clientSecret: string }> {
    const clientId = registration.clientId ?? newClientId();
    if (!CLIENT_ID.test(clientId)) throw new InvalidInputError("client_id must be letters, digits, . _ or -");
    if (!URL.canParse(registration.callbackUrl))
      throw new InvalidInputError("callback_url must be an absolute URL", { field: "callback_url" });
    let ownerId: number | null = null;
    if (registration.owner !== undefined) {
      const owner = await this.store.users.findByLogin(registration.owner);
      if (!owner) throw new InvalidInputError(`no account ${registration.owner}`, { field: "owner" });
      ownerId = owner.id;
    }
    const clientSecret = registration.clientSecret ?? randomHex(20);
    const app = await this.store.oauthApps.create(
      {
        clientId,
        clientSecretHash: hashToken(clientSecret),
        name: registration.name,
        ownerId,
        url: registration.url ?? registration.callbackUrl,
        callbackUrl: registration.callbackUrl,
        deviceFlow: registration.deviceFlow ?? false,
        suspended: false,
      },
      this.clock(),
    );
    return { app, clientSecret };
  }

  /** Registers GitHub CLI's app unless it is there already (every start; a reset keeps it). */
  async ensureGitHubCli(): Promise<void> {
    if (await this.store.oauthApps.findByClientId(GITHUB_CLI_APP.clientId)) return;
    try {
      await this.register({ ...GITHUB_CLI_APP, deviceFlow: true });
    } catch (error) {
      if (!(error instanceof DuplicateError)) throw error; // another instance registered it first
    }
  }

  find(clientId: string): Promise<OAuthAppRow | null> {
    return this.store.oauthApps.findByClientId(clientId);
  }

  /** The app when the secret is its own; null otherwise (unknown app or wrong secret alike). */
  async withSecret(clientId: string, clientSecret: string): Promise<OAuthAppRow | null> {
    const app = await this.find(clientId);
    return app && hashesEqual(app.clientSecretHash, hashToken(clientSecret)) ? app : null;
  }

  /** The apps the user has tokens of (the console's "Authorized OAuth Apps"). */
  authorizedBy(user: UserRow): Promise<OAuthAppRow[]> {
    return this.store.oauthApps.authorizedBy(user.id);
  }

  /** Revokes every token of the app the user holds; nothing when the user holds none or there is no such app. */
  async revokeGrant(clientId: string, user: UserRow, baseUrl: string): Promise<number> {
    const app = await this.find(clientId);
    return app ? this.revokeGrantOf(app, user, baseUrl) : 0;
  }

  /**
   * The same for a known app; a GitHub App then hears of it (GitHub's `github_app_authorization` `revoked`, whose
   * payload is the user only).
   */
  async revokeGrantOf(app: OAuthAppRow, user: UserRow, baseUrl: string): Promise<number> {
    const revoked = JSON.stringify({ action: "revoked", sender: toWireSimpleUser(user, baseUrl) });
    return this.store.oauthApps.revokeGrant(app.id, user.id, revoked, this.clock());
  }
}
