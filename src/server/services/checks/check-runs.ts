/**
 * GitHub's check runs (https://docs.github.com/rest/checks/runs): written only by GitHub Apps, through an installation
 * token (anything else is GitHub's 403 "You must authenticate via a GitHub App."). A run goes in its app's suite of
 * the head SHA, made with the first; every write is one action of the log holding the run, its annotations, its suite's
 * status and conclusion as its runs now make them, and the webhooks: `check_run.created`, `check_run.completed` when
 * the run completes, `check_suite.completed` when its suite does; a rerequest makes `check_run.rerequested` for the
 * run's app alone, as GitHub sends it, and queues its suite again.
 */
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import { toWebhookSuite, toWireCheckRun, type CheckAppFacts, type SuiteFacts } from "../../convert/check.js";
import type { RepositoryFacts } from "../../convert/repository.js";
import { ApiError, notFound, requiresAuthentication, validationFailed } from "../../errors.js";
import type { CommitFields } from "../../git/objects.js";
import {
  CHECK_STATUSES,
  type ActionTransaction,
  type AppRow,
  type CheckRunRow,
  type CheckStatus,
  type CheckSuiteRow,
  type PageRequest,
  type RepoRow,
} from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams } from "../feeds.js";
import { grantOf, notAccessibleByIntegration } from "../fine-grained-access.js";
import { Acting, type ActionParts, type Making } from "../actions/acting.js";
import { writableRepository, type ActionAccess } from "../actions/repository-access.js";
import type { ActionScene } from "../actions/made.js";
import { CheckFacts, suiteFacts } from "./check-facts.js";
import { annotationsOf, runChanges, type CheckRunInput } from "./check-input.js";
import type { CommitReports, RefPath } from "./commit-reports.js";
import { suiteState } from "./suite-state.js";

type Rows = Endpoints["checks"];
export type RunPath = FeedParams & { check_run_id: string };
export type SuitePath = FeedParams & { check_suite_id: string };
type ListQuery = RequestOf<Rows["listForRef"], "query">;

export const READ_CHECKS = [{ checks: "read" }] as const;

/** GitHub's 403 to anything but a GitHub App's installation token on the checks API's writes. */
export const mustBeApp = () => new ApiError(403, "You must authenticate via a GitHub App.");

/** A run's or suite's id as a path gives it; null for one no row can have. */
export function idOf(value: string): number | null {
  const id = Number(value);
  return /^[0-9]+$/.test(value) && Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The GitHub App writing: the app of the caller's installation token, in a repository its installation reaches. */
export interface WritingApp {
  repo: RepoRow;
  scene: ActionScene;
  app: AppRow;
  appFacts: CheckAppFacts;
  /** The repository as the app's suites show it, read before the action. */
  repository: RepositoryFacts;
}

export class CheckWrites {
  readonly acting: Acting;

  constructor(
    readonly parts: ActionParts,
    readonly reports: CommitReports,
  ) {
    this.acting = new Acting(parts);
  }

  /** 401 anonymous, GitHub's 403 for a credential that is no installation token, then the repository's checks. */
  async app(params: FeedParams, access: ActionAccess): Promise<WritingApp> {
    if (!access.principal) throw requiresAuthentication();
    const installationId = grantOf(access.principal)?.installationId;
    if (installationId === undefined) throw mustBeApp();
    const { repo, principal } = await writableRepository(this.parts.store, this.parts.feeds, params, access);
    const installation = (await this.parts.store.apps.installation(installationId))!;
    const facts = new CheckFacts(this.parts.store);
    const appFacts = await facts.app(installation.appId);
    const scene = await this.acting.scene(repo, principal.user);
    return { repo, scene, app: appFacts.app, appFacts, repository: await facts.repository(repo) };
  }

  /**
   * Sets the suite's status and conclusion from its runs, in the transaction: the suite's facts as they are now, and
   * whether that completed it (GitHub's `check_suite.completed`, which `completedWebhook` makes).
   */
  async settle(tx: ActionTransaction, writing: WritingApp, suite: CheckSuiteRow, headCommit: CommitFields) {
    const latest = await tx.checks.latestRuns(suite.id);
    const state = suiteState(latest);
    const settled =
      state.status === suite.status && state.conclusion === suite.conclusion
        ? suite
        : await tx.checks.setSuiteState(suite.id, state.status, state.conclusion, writing.scene.at);
    const facts = suiteFacts(settled, {
      app: writing.appFacts,
      repository: writing.repository,
      headCommit,
      latestRunsCount: latest.length,
    });
    return { facts, completed: settled.status === "completed" && suite.status !== "completed" };
  }

  /** `check_suite.completed`, when the suite just completed: after the run's webhooks, as GitHub sends them. */
  completedWebhook(making: Making, settled: { facts: SuiteFacts; completed: boolean }) {
    if (settled.completed)
      making.webhook("check_suite", "completed", {
        check_suite: toWebhookSuite(settled.facts, making.scene.baseUrl, true),
      });
  }
}

export class CheckRunService {
  constructor(private readonly writes: CheckWrites) {}

  /** What answers show beside the rows, read afresh for each request (an app's name may change between them). */
  private facts(): CheckFacts {
    return new CheckFacts(this.writes.parts.store);
  }

  private get store() {
    return this.writes.parts.store;
  }

  async create(path: FeedParams, input: RequestOf<Rows["create"], "body">, access: ActionAccess) {
    const writing = await this.writes.app(path, access);
    const { repo, scene, app, appFacts } = writing;
    const changes = runChanges(input as CheckRunInput, null, scene.at);
    const annotations = annotationsOf(input as CheckRunInput);
    const { sha, fields } = await this.writes.reports.namedCommit(repo, input.head_sha);
    const headBranch = await this.writes.reports.branchAt(repo, sha);
    const run = await this.writes.acting.perform(scene, async (making) => {
      const suite = await making.tx.checks.suiteFor(
        { repoId: repo.id, appId: app.id, headSha: sha, headBranch },
        scene.at,
      );
      const made = await making.tx.checks.insertRun({ suiteId: suite.id, repoId: repo.id, headSha: sha, ...changes });
      if (annotations.length > 0) await making.tx.checks.annotate(made.id, annotations);
      const stored = (await making.tx.checks.run(repo.id, made.id))!;
      const settled = await this.writes.settle(making.tx, writing, suite, fields);
      const check_run = this.webhookRun(stored, settled.facts, scene, appFacts);
      making.webhook("check_run", "created", { check_run });
      if (stored.status === "completed") making.webhook("check_run", "completed", { check_run });
      this.writes.completedWebhook(making, settled);
      return stored;
    });
    return { repo, run, app: appFacts };
  }

  async update(path: RunPath, input: RequestOf<Rows["update"], "body">, access: ActionAccess) {
    const writing = await this.writes.app(path, access);
    const { repo, scene, app, appFacts } = writing;
    const existing = await this.ownRun(repo, path, app);
    const changes = runChanges(input as CheckRunInput, existing, scene.at);
    const annotations = annotationsOf(input as CheckRunInput);
    const { fields } = await this.writes.reports.namedCommit(repo, existing.headSha);
    const run = await this.writes.acting.perform(scene, async (making) => {
      await making.tx.checks.updateRun(existing.id, changes);
      if (annotations.length > 0) await making.tx.checks.annotate(existing.id, annotations);
      const stored = (await making.tx.checks.run(repo.id, existing.id))!;
      const suite = (await making.tx.checks.suite(repo.id, stored.suiteId))!;
      const settled = await this.writes.settle(making.tx, writing, suite, fields);
      if (stored.status === "completed" && existing.status !== "completed")
        making.webhook("check_run", "completed", {
          check_run: this.webhookRun(stored, settled.facts, scene, appFacts),
        });
      this.writes.completedWebhook(making, settled);
      return stored;
    });
    return { repo, run, app: appFacts };
  }

  /** GitHub's rerequest: the run's app is asked again (`check_run.rerequested`) and its suite queued again. */
  async rerequest(path: RunPath, access: ActionAccess) {
    const { repo, scene, app, appFacts, repository } = await this.writes.app(path, access);
    const run = await this.ownRun(repo, path, app);
    if (run.status !== "completed")
      throw validationFailed([{ resource: "CheckRun", code: "invalid", field: "status" }], REREQUEST_DOCS);
    const { fields } = await this.writes.reports.namedCommit(repo, run.headSha);
    await this.writes.acting.perform(scene, async (making) => {
      const queued = await making.tx.checks.setSuiteState(run.suiteId, "queued", null, scene.at);
      const facts = suiteFacts(queued, {
        app: appFacts,
        repository,
        headCommit: fields,
        latestRunsCount: (await making.tx.checks.latestRuns(queued.id)).length,
      });
      const check_run = {
        ...this.wire(run, appFacts, scene),
        check_suite: toWebhookSuite(facts, scene.baseUrl, false),
      };
      making.webhook("check_run", "rerequested", { check_run }, app.id);
    });
  }

  async get(path: RunPath, principal: Principal | null) {
    const repo = await this.writes.reports.readable(path, principal, READ_CHECKS);
    const run = await this.runOf(repo, path);
    return { repo, run, app: await this.appOfRun(repo, run) };
  }

  async annotations(path: RunPath, principal: Principal | null, window: PageRequest) {
    const repo = await this.writes.reports.readable(path, principal, READ_CHECKS);
    const run = await this.runOf(repo, path);
    return { repo, run, ...(await this.store.checks.annotations(run.id, window)) };
  }

  /** A commit's runs, newest first, filtered as GitHub's listing filters them. */
  async forRef(path: RefPath, query: ListQuery, principal: Principal | null, window: PageRequest) {
    const repo = await this.writes.reports.readable(path, principal, READ_CHECKS);
    const { sha } = await this.writes.reports.commitOf(repo, path.ref);
    const filter = { ...runFilter(query), ...(query.app_id === undefined ? {} : { appId: Number(query.app_id) }) };
    return this.listed(repo, await this.store.checks.runsOf({ repoId: repo.id, sha }, filter, window));
  }

  async forSuite(path: SuitePath, query: ListQuery, principal: Principal | null, window: PageRequest) {
    const repo = await this.writes.reports.readable(path, principal, READ_CHECKS);
    const id = idOf(path.check_suite_id);
    const suite = id === null ? null : await this.store.checks.suite(repo.id, id);
    if (!suite) throw notFound();
    return this.listed(repo, await this.store.checks.runsOf({ suiteId: suite.id }, runFilter(query), window));
  }

  private async listed(repo: RepoRow, page: { rows: CheckRunRow[]; total: number }) {
    const apps = await this.facts().appsOfSuites(
      repo.id,
      page.rows.map((r) => r.suiteId),
    );
    return { repo, total: page.total, rows: page.rows.map((run) => ({ run, app: apps.get(run.suiteId)! })) };
  }

  private async runOf(repo: RepoRow, path: RunPath): Promise<CheckRunRow> {
    const id = idOf(path.check_run_id);
    const run = id === null ? null : await this.store.checks.run(repo.id, id);
    if (!run) throw notFound();
    return run;
  }

  /** The run, when it is the writing app's: another app's is GitHub's 403. */
  private async ownRun(repo: RepoRow, path: RunPath, app: AppRow): Promise<CheckRunRow> {
    const run = await this.runOf(repo, path);
    const suite = await this.store.checks.suite(repo.id, run.suiteId);
    if (suite?.appId !== app.id) throw notAccessibleByIntegration();
    return run;
  }

  private async appOfRun(repo: RepoRow, run: CheckRunRow): Promise<CheckAppFacts> {
    return (await this.facts().appsOfSuites(repo.id, [run.suiteId])).get(run.suiteId)!;
  }

  private wire(run: CheckRunRow, app: CheckAppFacts, scene: ActionScene) {
    return toWireCheckRun(run, app, scene.repo.fullName, scene.baseUrl) as unknown as Record<string, unknown>;
  }

  /** The run as `check_run` webhooks carry it: its suite whole (GitHub's example), not only the suite's id. */
  private webhookRun(
    run: CheckRunRow,
    suite: Parameters<typeof toWebhookSuite>[0],
    scene: ActionScene,
    app: CheckAppFacts,
  ) {
    return { ...this.wire(run, app, scene), check_suite: toWebhookSuite(suite, scene.baseUrl, false) };
  }
}

const REREQUEST_DOCS = "https://docs.github.com/rest/checks/runs#rerequest-a-check-run";

/** The listing's filters: `status` one of GitHub's, `filter` `latest` (the default) or `all`, else GitHub's 422. */
function runFilter(query: { check_name?: string; status?: string; filter?: string }) {
  if (query.status !== undefined && !(CHECK_STATUSES as readonly string[]).includes(query.status))
    throw validationFailed([{ resource: "CheckRun", code: "invalid", field: "status" }]);
  if (query.filter !== undefined && query.filter !== "latest" && query.filter !== "all")
    throw validationFailed([{ resource: "CheckRun", code: "invalid", field: "filter" }]);
  return {
    ...(query.check_name === undefined ? {} : { name: query.check_name }),
    ...(query.status === undefined ? {} : { status: query.status as CheckStatus }),
    latest: query.filter !== "all",
  };
}
