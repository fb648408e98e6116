/**
 * GitHub's check suites (https://docs.github.com/rest/checks/suites): an app's suite of a head SHA, made with its
 * first run (services/checks/check-runs.ts), by a push (./suites-on-push.ts) or by the app itself (`POST
 * .../check-suites`), its status and conclusion those of its runs. A rerequest queues it again and asks its app alone
 * (`check_suite.rerequested`), in one action of the log. A repository's administrators choose which apps a push makes
 * suites for (`PATCH .../check-suites/preferences`).
 */
import { toWebhookSuite } from "../../convert/check.js";
import { notFound } from "../../errors.js";
import type { CheckSuitePreference, CheckSuiteRow, PageRequest, RepoRow } from "../../store/store.js";
import type { FeedParams } from "../feeds.js";
import { mustHaveAdminRights, writableRepository } from "../actions/repository-access.js";
import { grantOf } from "../fine-grained-access.js";
import { validationFailed } from "../../errors.js";
import type { Principal } from "../authenticator.js";
import { notAccessibleByIntegration } from "../fine-grained-access.js";

/** A preference as the request gives it: an app's id and whether a push makes its suite. */
interface PreferenceInput {
  app_id?: string | number | null;
  setting?: boolean | null;
}
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

  /** GitHub's "Create a check suite": the app's suite of the SHA, made (`queued`) when it has none yet. */
  async create(path: FeedParams, input: { head_sha: string }, access: ActionAccess) {
    const { repo, scene, app, appFacts, repository } = await this.writes.app(path, access);
    const { sha, fields } = await this.writes.reports.namedCommit(repo, input.head_sha);
    const headBranch = await this.writes.reports.branchAt(repo, sha);
    return this.writes.acting.perform(scene, async (making) => {
      const key = { repoId: repo.id, appId: app.id, headSha: sha, headBranch };
      const made = await making.tx.checks.newSuite({ ...key, before: null }, scene.at);
      const suite = made ?? (await making.tx.checks.suiteFor(key, scene.at));
      const latestRunsCount = (await making.tx.checks.latestRuns(suite.id)).length;
      return {
        facts: suiteFacts(suite, { app: appFacts, repository, headCommit: fields, latestRunsCount }),
        made: !!made,
      };
    });
  }

  /**
   * GitHub's "Update repository preferences for check suites": for the repository's administrators (or an app's
   * installation token with Administration), each app's setting kept, the others' left as they were; the
   * repository's preferences after it.
   */
  async setPreferences(path: FeedParams, input: { auto_trigger_checks?: PreferenceInput[] }, access: ActionAccess) {
    const { parts } = this.writes;
    const w = await writableRepository(parts.store, parts.feeds, path, access);
    if (!w.administers && grantOf(w.principal)?.installationId === undefined) throw mustHaveAdminRights();
    const preferences: CheckSuitePreference[] = [];
    for (const [i, given] of (input.auto_trigger_checks ?? []).entries()) {
      const appId = Number(given.app_id);
      const refused = (field: string, code = "invalid") =>
        validationFailed([{ resource: "CheckSuitePreference", code, field: `auto_trigger_checks[${i}].${field}` }]);
      if (given.app_id === undefined || given.app_id === null) throw refused("app_id", "missing_field");
      if (!Number.isSafeInteger(appId) || appId < 1 || !(await parts.store.apps.byId(appId))) throw refused("app_id");
      if (given.setting === undefined || given.setting === null) throw refused("setting", "missing_field");
      preferences.push({ appId, setting: given.setting });
    }
    const scene = await this.writes.acting.scene(w.repo, w.principal.user);
    await this.writes.acting.perform(scene, async (making) => {
      await making.tx.checks.setPreferences(w.repo.id, preferences);
    });
    return {
      preferences: await parts.store.checks.preferences(w.repo.id),
      repository: await this.facts().repository(w.repo),
    };
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
