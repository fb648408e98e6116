/** GitHub Apps, their installations and the installation tokens they mint (services/apps/*.ts keep the rules). */
import type { GrantedPermissions } from "../../api/permissions.js";

export interface AppRow {
  id: number;
  slug: string;
  name: string;
  ownerId: number;
  /** The app's account, `SLUG[bot]` of type Bot: the author of what its installation tokens write. */
  botId: number;
  clientId: string;
  /** SHA-256 of the client secret; null when none was made. */
  clientSecretHash: string | null;
  /** SPKI PEM: the private key is the app's alone. */
  publicKey: string;
  permissions: GrantedPermissions;
  events: string[];
  createdAt: Date;
  updatedAt: Date;
}

/**
 * An app to register; `webhook`, when it has one, becomes its hook (owner kind `app`: hook-store.ts), delivered to
 * as repository hooks are, with the secret sealed as theirs are (webhooks/secret-box.ts).
 */
export type NewApp = Omit<AppRow, "createdAt" | "updatedAt" | "botId"> & {
  botLogin: string;
  webhook: { url: string; sealedSecret: string | null } | null;
  /**
   * How users sign in to the app (its OAuth client, `oauth_apps.github_app_id`): the callback URL of the web flow
   * (none: the web flow refuses) and whether the device flow is on.
   */
  signIn: { callbackUrl: string | null; deviceFlow: boolean };
};

/** A confirmed manifest waiting for its conversion: whose the app will be, and the manifest as JSON text. */
export interface ManifestCodeRow {
  codeHash: string;
  ownerId: number;
  manifest: string;
  expiresAt: Date;
}

export interface InstallationRow {
  id: number;
  appId: number;
  accountId: number;
  repositorySelection: "all" | "selected";
  /** The selected repositories; empty when the selection is `all`. */
  repositoryIds: number[];
  permissions: GrantedPermissions;
  events: string[];
  suspendedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewInstallation = Omit<InstallationRow, "createdAt" | "updatedAt" | "suspendedAt">;

export interface AppStore {
  /** Registers the app and makes its bot account; a taken id, slug or client id is a DuplicateError. */
  insert(app: NewApp, now: Date): Promise<AppRow>;
  byId(id: number): Promise<AppRow | null>;
  byClientId(clientId: string): Promise<AppRow | null>;
  /** The apps an account owns, by name. */
  ownedBy(ownerId: number): Promise<AppRow[]>;
  /** By slug, in any case (GitHub's slugs are lowercase; the unique index ignores case). */
  bySlug(slug: string): Promise<AppRow | null>;
  /** The highest app id, so that new ones follow those a world gave. */
  lastId(): Promise<number>;
  /**
   * Installs the app, and queues GitHub's `installation` `created` webhook to the app's hook (when it has an active
   * one) in the same transaction; its body is made at the first attempt (webhooks/payload.ts forInstallation).
   */
  install(installation: NewInstallation, now: Date): Promise<InstallationRow>;
  installation(id: number): Promise<InstallationRow | null>;
  /** The app's installation on the account, if any. */
  installationOn(appId: number, accountId: number): Promise<InstallationRow | null>;
  installations(appId: number): Promise<InstallationRow[]>;
  lastInstallationId(): Promise<number>;
  /** Suspends (or unsuspends) it and queues `installation` `suspend` (`unsuspend`) to the app's hook, at once. */
  setSuspended(id: number, suspendedAt: Date | null, now: Date): Promise<InstallationRow | null>;
  /**
   * Sets the repositories a selected installation covers, `from` those the caller read to `to`, and queues
   * `installation_repositories` (`changed`: its action and payload, made by the caller) to the app's hook, at once;
   * null when there is no such installation or its repositories are no longer `from`.
   */
  setRepositories(
    id: number,
    from: number[],
    to: number[],
    changed: { action: string; body: string },
    now: Date,
  ): Promise<InstallationRow | null>;
  /**
   * Removes the installation, revokes every token minted for it and queues `installation` `deleted` to the app's hook, at once: `deletedBody` is that
   * payload, made before (the installation it describes is gone when it is delivered).
   */
  uninstall(id: number, deletedBody: string, now: Date): Promise<void>;
  /** The ids of the account's repositories, in id order: what an installation on all of them covers. */
  repositoryIdsOf(accountId: number): Promise<number[]>;
  /** A manifest code (the manifest flow), kept as its SHA-256 until converted or expired. */
  saveManifestCode(code: ManifestCodeRow): Promise<void>;
  /** Deletes the code and returns it, so that it converts at most once; null when there is none. */
  takeManifestCode(codeHash: string): Promise<ManifestCodeRow | null>;
  /** Records that the authorization is a token of the installation. */
  linkToken(authorizationId: number, installationId: number): Promise<void>;
}
