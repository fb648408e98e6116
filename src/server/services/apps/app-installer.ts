/**
 * Installing a GitHub App from the console (`/console/apps/{slug}/installations/new`, GitHub's install page): on the
 * signed-in person's own account or an organization they own, on all of its repositories or those chosen. The
 * installation is made as every other is (app-registry.ts), with its `installation` `created` webhook. No Fastify.
 */
import { InvalidInputError } from "../../failures.js";
import type { AppRow, InstallationRow, RepoRow, Store, UserRow } from "../../store/store.js";
import { AppRegistry } from "./app-registry.js";

/** An account the person may install the app on, its repositories, and whether the app is there already. */
export interface InstallTarget {
  account: UserRow;
  repos: RepoRow[];
  installed: boolean;
}

export class AppInstaller {
  private readonly registry: AppRegistry;

  constructor(
    private readonly store: Store,
    clock: () => Date,
  ) {
    this.registry = new AppRegistry(store, clock);
  }

  /** The app and where the person may install it; null when there is no app of that slug. */
  async targets(slug: string, user: UserRow): Promise<{ app: AppRow; targets: InstallTarget[] } | null> {
    const app = await this.store.apps.bySlug(slug);
    if (!app) return null;
    const accounts = [user, ...(await this.store.directory.ownedOrganizations(user.id))];
    const targets: InstallTarget[] = [];
    for (const account of accounts) {
      const repos: RepoRow[] = [];
      for (const id of await this.store.apps.repositoryIdsOf(account.id)) {
        const repo = await this.store.directory.findRepoById(id);
        if (repo) repos.push(repo);
      }
      targets.push({ account, repos, installed: (await this.store.apps.installationOn(app.id, account.id)) !== null });
    }
    return { app, targets };
  }

  /**
   * Installs it on `login` (one of the targets, not installed yet): every repository, or the chosen ones (full
   * names, each the account's). A refusal is an InvalidInputError saying what to change.
   */
  async install(
    app: AppRow,
    user: UserRow,
    choice: { login: string; selection: string; repositories: string[] },
  ): Promise<InstallationRow> {
    const found = await this.targets(app.slug, user);
    const target = found?.targets.find((t) => t.account.login.toLowerCase() === choice.login.toLowerCase());
    if (!target) throw new InvalidInputError("Choose your account or an organization you own.");
    if (target.installed) throw new InvalidInputError(`${app.name} is installed on ${target.account.login} already.`);
    if (choice.selection === "all") return this.registry.install(app, target.account.login, "all");
    const names = new Set(target.repos.map((repo) => repo.fullName.toLowerCase()));
    const chosen = choice.repositories.filter((name) => names.has(name.toLowerCase()));
    if (chosen.length === 0 || chosen.length !== choice.repositories.length)
      throw new InvalidInputError(`Choose at least one repository of ${target.account.login}.`);
    return this.registry.install(app, target.account.login, chosen);
  }
}
