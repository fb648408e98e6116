/**
 * What a check's answer and webhooks show beside its row, read from the store: the app it belongs to (with its
 * owner), and a suite's repository, head commit and latest runs' count.
 */
import type { CheckAppFacts, SuiteFacts } from "../../convert/check.js";
import type { CommitFields } from "../../git/objects.js";
import type { RepositoryFacts } from "../../convert/repository.js";
import type { CheckSuiteRow, RepoRow, Store } from "../../store/store.js";

export class CheckFacts {
  private readonly apps = new Map<number, Promise<CheckAppFacts>>();

  constructor(private readonly store: Store) {}

  /** The app and its owner, read once for this request's answers. */
  app(appId: number): Promise<CheckAppFacts> {
    let facts = this.apps.get(appId);
    if (!facts) {
      facts = (async () => {
        const app = (await this.store.apps.byId(appId))!;
        return { app, owner: (await this.store.users.findById(app.ownerId))! };
      })();
      this.apps.set(appId, facts);
    }
    return facts;
  }

  /** The app of each suite, by the suite's id. */
  async appsOfSuites(repoId: number, suiteIds: Iterable<number>): Promise<Map<number, CheckAppFacts>> {
    const found = new Map<number, CheckAppFacts>();
    for (const id of new Set(suiteIds)) {
      const suite = await this.store.checks.suite(repoId, id);
      if (suite) found.set(id, await this.app(suite.appId));
    }
    return found;
  }

  /** The repository as a suite shows it. */
  async repository(repo: RepoRow): Promise<RepositoryFacts> {
    const owner = await this.store.users.findById(repo.ownerId);
    return { repo, owner: owner!, stats: await this.store.directory.repoStats(repo.id) };
  }

  /** A suite's facts, its runs counted in `checks` (an action's transaction, or the store itself). */
  async suite(repo: RepoRow, suite: CheckSuiteRow, headCommit: CommitFields): Promise<SuiteFacts> {
    return suiteFacts(suite, {
      app: await this.app(suite.appId),
      repository: await this.repository(repo),
      headCommit,
      latestRunsCount: (await this.store.checks.latestRuns(suite.id)).length,
    });
  }
}

/** A suite's facts from what was read of it. */
export const suiteFacts = (suite: CheckSuiteRow, read: Omit<SuiteFacts, "suite">): SuiteFacts => ({ suite, ...read });
