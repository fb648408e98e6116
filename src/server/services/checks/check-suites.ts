/**
 * GitHub's check suites (https://docs.github.com/rest/checks/suites): an app's suite of a head SHA, made with its
 * first run (services/checks/check-runs.ts), its status and conclusion those of its runs. A rerequest queues it
 * again and asks its app alone (`check_suite.rerequested`), in one action of the log.
 */
import { toWebhookSuite } from "../../convert/check.js";
import { notFound } from "../../errors.js";
import type { CheckSuiteRow, PageRequest, RepoRow } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import { notAccessibleByIntegration } from "../fine-grained-access.js";
import type { ActionAccess } from "../actions/repository-access.js";
import { CheckFacts, suiteFacts } from "./check-facts.js";
import { idOf, READ_CHECKS, type CheckWrites, type SuitePath } from "./check-runs.js";
import type { RefPath } from "./commit-reports.js";

export class CheckSuiteService {
  constructor(private readonly writes: CheckWrites) {}

  /** What answers show beside the rows, read afresh for each request (an app's name may change between them). */
  private facts(): CheckFacts {
    return new CheckFacts(this.writes.parts.store);
  }

  async get(path: SuitePath, principal: Principal | null) {
    const repo = await this.writes.reports.readable(path, principal, READ_CHECKS);
    return this.facts().suite(repo, ...(await this.withCommit(repo, await this.suiteOf(repo, path))));
  }

  /** A commit's suites, oldest first; with `app_id`, only that app's. */
  async forRef(path: RefPath, query: { app_id?: string }, principal: Principal | null, window: PageRequest) {
    const repo = await this.writes.reports.readable(path, principal, READ_CHECKS);
    const { sha, fields } = await this.writes.reports.commitOf(repo, path.ref);
    const appId = query.app_id === undefined ? undefined : Number(query.app_id);
    const page = await this.writes.parts.store.checks.suitesOf(repo.id, sha, appId, window);
    const facts = this.facts();
    const rows = [];
    for (const suite of page.rows) rows.push(await facts.suite(repo, suite, fields));
    return { rows, total: page.total };
  }

  async rerequest(path: SuitePath, access: ActionAccess) {
    const { repo, scene, app, appFacts, repository } = await this.writes.app(path, access);
    const [suite, headCommit] = await this.withCommit(repo, await this.suiteOf(repo, path));
    if (suite.appId !== app.id) throw notAccessibleByIntegration();
    await this.writes.acting.perform(scene, async (making) => {
      const queued = await making.tx.checks.setSuiteState(suite.id, "queued", null, scene.at);
      const facts = suiteFacts(queued, {
        app: appFacts,
        repository,
        headCommit,
        latestRunsCount: (await making.tx.checks.latestRuns(suite.id)).length,
      });
      making.webhook("check_suite", "rerequested", { check_suite: toWebhookSuite(facts, scene.baseUrl, true) }, app.id);
    });
  }

  private async suiteOf(repo: RepoRow, path: SuitePath): Promise<CheckSuiteRow> {
    const id = idOf(path.check_suite_id);
    const suite = id === null ? null : await this.writes.parts.store.checks.suite(repo.id, id);
    if (!suite) throw notFound();
    return suite;
  }

  private async withCommit(repo: RepoRow, suite: CheckSuiteRow) {
    return [suite, (await this.writes.reports.namedCommit(repo, suite.headSha)).fields] as const;
  }
}
