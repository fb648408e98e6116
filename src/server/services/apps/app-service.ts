/**
 * What a GitHub App does with its JWT (the app, its installations, minting tokens) and what an installation token
 * does as its installation (its repositories, revoking itself). No Fastify, no SQL.
 */
import type { AppFacts, InstallationFacts } from "../../convert/app.js";
import type { RepositoryFacts } from "../../convert/repository.js";
import { ApiError, notFound } from "../../errors.js";
import type { AppRow, InstallationRow, RepoRow, Store } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { MintedToken } from "../../convert/app.js";
import { PayloadBuilder } from "../../webhooks/payload.js";
import { InstallationRepositories } from "./installation-repositories.js";
import { UserInstallations } from "./user-installations.js";
import { AppInstaller } from "./app-installer.js";
import { InstallationTokens, type Narrowing } from "./installation-tokens.js";

/** GitHub's 403 for an installation route called with another kind of token. */
const notInstallationToken = () =>
  new ApiError(
    403,
    "You must authenticate with an installation access token in order to list repositories for an installation.",
    { statusInBody: true },
  );

const suspended = () => new ApiError(403, "This installation has been suspended", { statusInBody: true });

export class AppService {
  private readonly tokens: InstallationTokens;
  private readonly payloads: PayloadBuilder;

  constructor(
    private readonly store: Store,
    private readonly clock: () => Date,
  ) {
    this.tokens = new InstallationTokens(store, clock);
    this.payloads = new PayloadBuilder(store);
    this.repositoriesOf = new InstallationRepositories(store, clock);
    this.ofUser = new UserInstallations(store);
    this.installer = new AppInstaller(store, clock);
  }

  /** Installing an app from the console's install page. */
  readonly installer: AppInstaller;

  /** What a user token reads of its app's installations. */
  readonly ofUser: UserInstallations;

  /** A person's changes to which repositories an installation covers. */
  readonly repositoriesOf: InstallationRepositories;

  async app(app: AppRow): Promise<AppFacts> {
    const owner = (await this.store.users.findById(app.ownerId))!;
    return { app, owner, installationsCount: (await this.store.apps.installations(app.id)).length };
  }

  async installations(app: AppRow): Promise<InstallationFacts[]> {
    const facts: InstallationFacts[] = [];
    for (const installation of await this.store.apps.installations(app.id))
      facts.push(await this.facts(app, installation));
    return facts;
  }

  async installation(app: AppRow, id: string): Promise<InstallationFacts> {
    // Past a bigint names nothing (and PostgreSQL would refuse the parameter).
    const installation = Number.isSafeInteger(Number(id)) ? await this.store.apps.installation(Number(id)) : null;
    if (!installation || installation.appId !== app.id) throw notFound();
    return this.facts(app, installation);
  }

  /** `baseUrl` is the one of the `installation` `deleted` payload's URLs, made now: nothing is left to make it from later. */
  async uninstall(app: AppRow, id: string, baseUrl: string): Promise<void> {
    const { installation } = await this.installation(app, id);
    const deleted = await this.payloads.forInstallation(installation.id, "deleted", baseUrl);
    await this.store.apps.uninstall(installation.id, deleted!.body, this.clock());
  }

  async suspend(app: AppRow, id: string, suspend: boolean): Promise<void> {
    const { installation } = await this.installation(app, id);
    await this.store.apps.setSuspended(installation.id, suspend ? this.clock() : null, this.clock());
  }

  async mint(app: AppRow, id: string, narrowing: Narrowing, stateless = false): Promise<MintedToken> {
    const { installation } = await this.installation(app, id);
    if (installation.suspendedAt) throw suspended();
    return this.tokens.mint(app, installation, narrowing, stateless);
  }

  /** The app's installation on an account (`/orgs/{org}`, `/users/{u}`), or on a repository it covers. */
  async installationOn(app: AppRow, login: string, repoName?: string): Promise<InstallationFacts> {
    const account = await this.store.users.findByLogin(login);
    const installation = account && (await this.store.apps.installationOn(app.id, account.id));
    if (!account || !installation) throw notFound();
    if (repoName !== undefined) {
      const repo = await this.store.directory.findRepo(account.login, repoName);
      if (!repo || !(installation.repositorySelection === "all" || installation.repositoryIds.includes(repo.id)))
        throw notFound();
    }
    return { installation, app, account };
  }

  /** The repositories an installation token reaches: its installation's, as narrowed when it was minted. */
  async repositories(principal: Principal | null): Promise<{ selection: "all" | "selected"; repos: RepoRow[] }> {
    const grant = principal?.kind === "token" ? principal.authorization.fineGrained : null;
    if (!grant || grant.installationId === undefined) throw notInstallationToken();
    const subset = grant.repositorySelection === "subset";
    const ids = subset ? grant.repositoryIds : await this.store.apps.repositoryIdsOf(grant.ownerId);
    const repos: RepoRow[] = [];
    for (const id of ids) {
      const repo = await this.store.directory.findRepoById(id);
      if (repo) repos.push(repo);
    }
    return { selection: subset ? "selected" : "all", repos };
  }

  /** What a repository's wire object is made of, for each of the repositories. */
  async repositoryFacts(repos: RepoRow[]): Promise<RepositoryFacts[]> {
    const facts: RepositoryFacts[] = [];
    for (const repo of repos) {
      const owner = (await this.store.users.findById(repo.ownerId))!;
      facts.push({ repo, owner, stats: await this.store.directory.repoStats(repo.id) });
    }
    return facts;
  }

  /** Revokes the installation token the request came with. */
  async revoke(principal: Principal | null): Promise<void> {
    const grant = principal?.kind === "token" ? principal.authorization.fineGrained : null;
    if (principal?.kind !== "token" || grant?.installationId === undefined) throw notInstallationToken();
    await this.store.authorizations.delete(principal.user.id, principal.authorization.id);
  }

  /** What an installation's wire object is made of, whichever app's it is. */
  async installationFacts(installation: InstallationRow): Promise<InstallationFacts> {
    return this.facts((await this.store.apps.byId(installation.appId))!, installation);
  }

  private async facts(app: AppRow, installation: InstallationRow): Promise<InstallationFacts> {
    return { installation, app, account: (await this.store.users.findById(installation.accountId))! };
  }
}
