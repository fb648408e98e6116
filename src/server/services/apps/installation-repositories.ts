/**
 * A person changing which repositories an installation covers (docs: rest/apps/installations, "Add a repository to an
 * app installation" and "Remove ..."): the installation's account is theirs, or an organization they own; the
 * repository is that account's; the installation covers selected repositories. Each change queues GitHub's
 * `installation_repositories` (`added` or `removed`) to the app's webhook in the same transaction. GitHub takes these
 * from a person's password or classic token only: any token with a grant (fine-grained, an app's) is refused.
 */
import { toWireInstallation } from "../../convert/app.js";
import { toWireSimpleUser } from "../../convert/user.js";
import { ApiError, notFound, requiresAuthentication } from "../../errors.js";
import type { InstallationRow, RepoRow, Store, UserRow } from "../../store/store.js";
import { installationRepository } from "../../webhooks/payload.js";
import type { Principal } from "../authenticator.js";
import { grantOf, notAccessibleByToken } from "../fine-grained-access.js";

/** Tries of a change that met another one made meanwhile (the store changes only from what was read). */
const TRIES = 5;

const unprocessable = (message: string) => new ApiError(422, message, { statusInBody: true });

export class InstallationRepositories {
  constructor(
    private readonly store: Store,
    private readonly clock: () => Date,
  ) {}

  /** Adds the repository (by its wire id); nothing changes, and nothing is sent, when it is covered already. */
  add(principal: Principal | null, installationId: string, repositoryId: string, baseUrl: string): Promise<void> {
    return this.change(principal, installationId, repositoryId, baseUrl, "added");
  }

  /** Removes it; 422 for an installation on all repositories, or for the last one it has. */
  remove(principal: Principal | null, installationId: string, repositoryId: string, baseUrl: string): Promise<void> {
    return this.change(principal, installationId, repositoryId, baseUrl, "removed");
  }

  private async change(
    principal: Principal | null,
    installationId: string,
    repositoryId: string,
    baseUrl: string,
    action: "added" | "removed",
  ): Promise<void> {
    if (!principal) throw requiresAuthentication();
    const grant = grantOf(principal);
    if (grant) throw notAccessibleByToken(grant);
    for (let tried = 0; tried < TRIES; tried++) {
      const { installation, account, repo } = await this.target(principal.user, installationId, repositoryId);
      const from = installation.repositoryIds;
      const covered = from.includes(repo.id);
      if (action === "added") {
        if (installation.repositorySelection === "all" || covered) return;
      } else {
        if (installation.repositorySelection === "all")
          throw unprocessable("The installation is on all repositories of its account: no repository can be removed");
        if (!covered) return;
        if (from.length === 1) throw unprocessable("The installation's last repository cannot be removed");
      }
      const to = action === "added" ? [...from, repo.id] : from.filter((id) => id !== repo.id);
      const body = await this.payload(
        { ...installation, repositoryIds: to },
        account,
        repo,
        principal.user,
        action,
        baseUrl,
      );
      const now = this.clock();
      if (await this.store.apps.setRepositories(installation.id, from, to, { action, body }, now)) return;
    }
    throw new ApiError(409, "The installation's repositories changed while this request changed them; try again", {
      statusInBody: true,
    });
  }

  /** The installation (on the caller's account or an organization they own) and the repository of its account. */
  private async target(user: UserRow, installationId: string, repositoryId: string) {
    const installation = Number.isSafeInteger(Number(installationId))
      ? await this.store.apps.installation(Number(installationId))
      : null;
    const account = installation && (await this.store.users.findById(installation.accountId));
    if (!installation || !account) throw notFound();
    const own =
      account.id === user.id ||
      (account.type === "Organization" && (await this.store.directory.orgRole(account.id, user.id)) === "admin");
    if (!own) throw notFound();
    const name = Number.isSafeInteger(Number(repositoryId))
      ? await this.store.directory.repoNameByWireId(Number(repositoryId))
      : null;
    const repo = name && (await this.store.directory.findRepo(account.login, name.slice(name.indexOf("/") + 1)));
    if (!repo || repo.ownerId !== account.id) throw notFound();
    return { installation, account, repo };
  }

  private async payload(
    installation: InstallationRow,
    account: UserRow,
    repo: RepoRow,
    sender: UserRow,
    action: "added" | "removed",
    baseUrl: string,
  ): Promise<string> {
    const app = (await this.store.apps.byId(installation.appId))!;
    return JSON.stringify({
      action,
      installation: toWireInstallation({ installation, app, account }, baseUrl),
      repository_selection: installation.repositorySelection,
      repositories_added: action === "added" ? [installationRepository(repo)] : [],
      repositories_removed: action === "removed" ? [installationRepository(repo)] : [],
      requester: null,
      sender: toWireSimpleUser(sender, baseUrl),
    });
  }
}
