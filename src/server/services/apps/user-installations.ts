/**
 * What a GitHub App's user token (`ghu_`) reads of its app's installations (docs: rest/apps/installations, "List app
 * installations accessible to the user access token" and its repositories): those its user reaches, on their own
 * account, an organization they belong to, or through a repository they can read; and of each, the repositories they
 * can read. Any other credential is GitHub's 403.
 */
import { ApiError, notFound, requiresAuthentication } from "../../errors.js";
import type { InstallationRow, RepoRow, Store, UserRow } from "../../store/store.js";
import type { Principal } from "../authenticator.js";

const notUserToken = () =>
  new ApiError(
    403,
    "You must authenticate with an access token authorized to a GitHub App in order to list installations",
    {
      statusInBody: true,
    },
  );

export class UserInstallations {
  constructor(private readonly store: Store) {}

  /** The user token's app's installations its user reaches, in id order. */
  async list(principal: Principal | null): Promise<InstallationRow[]> {
    const appId = this.appOf(principal);
    const reached: InstallationRow[] = [];
    for (const installation of await this.store.apps.installations(appId))
      if (await this.reaches(principal!.user, installation)) reached.push(installation);
    return reached;
  }

  /** One of them and the repositories of it its user can read; 404 for one they do not reach. */
  async repositories(principal: Principal | null, installationId: string) {
    const appId = this.appOf(principal);
    const installation = Number.isSafeInteger(Number(installationId))
      ? await this.store.apps.installation(Number(installationId))
      : null;
    if (!installation || installation.appId !== appId) throw notFound();
    const readable = await this.readableRepos(principal!.user, installation);
    if (readable.length === 0 && !(await this.ownsOrBelongs(principal!.user, installation))) throw notFound();
    return { installation, repos: readable };
  }

  private appOf(principal: Principal | null): number {
    if (!principal) throw requiresAuthentication();
    const appId = principal.kind === "token" ? principal.authorization.fineGrained?.userOfApp?.appId : undefined;
    if (appId === undefined) throw notUserToken();
    return appId;
  }

  private async reaches(user: UserRow, installation: InstallationRow): Promise<boolean> {
    return (await this.ownsOrBelongs(user, installation)) || (await this.readableRepos(user, installation)).length > 0;
  }

  private async ownsOrBelongs(user: UserRow, installation: InstallationRow): Promise<boolean> {
    return installation.accountId === user.id || this.store.directory.isMember(installation.accountId, user.id);
  }

  /** The installation's repositories the user can read, in id order. */
  private async readableRepos(user: UserRow, installation: InstallationRow): Promise<RepoRow[]> {
    const ids =
      installation.repositorySelection === "all"
        ? await this.store.apps.repositoryIdsOf(installation.accountId)
        : installation.repositoryIds;
    const repos: RepoRow[] = [];
    for (const id of ids) {
      const repo = await this.store.directory.findRepoById(id);
      if (repo && (!repo.private || (await this.store.directory.canRead(user.id, repo.id)))) repos.push(repo);
    }
    return repos;
  }
}
