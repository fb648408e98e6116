/**
 * GitHub Apps' checks as GitHub's API and its `check_run` and `check_suite` webhooks show them (`check-run.schema.json`,
 * `check-suite.schema.json`, `../shared/data/webhooks/examples/check_run.json`). A run's `html_url` is its page on the
 * web origin (`/{owner}/{repo}/runs/{id}`), as GitHub's; `pull_requests` is empty (no pull request is matched yet).
 */
import type {
  CheckAnnotation as WireAnnotation,
  CheckApp,
  CheckRun,
  CheckSuite,
  CheckSuitePreference as WirePreference,
} from "../../api/check-schemas.js";
import type { CommitFields } from "../git/objects.js";
import { formatApiDate } from "../git/objects.js";
import type {
  AppRow,
  CheckAnnotation,
  CheckRunRow,
  CheckSuitePreference,
  CheckSuiteRow,
  UserRow,
} from "../store/store.js";
import { toWireIntegration } from "./app.js";
import { nodeId } from "./git.js";
import { toWireParentRepository, type RepositoryFacts } from "./repository.js";
import { isoSeconds } from "./time.js";
import { webOrigin } from "./urls.js";

/** The app a check belongs to, with its owner. */
export interface CheckAppFacts {
  app: AppRow;
  owner: UserRow;
}

export function toWireCheckApp(facts: CheckAppFacts, baseUrl: string): CheckApp {
  const {
    client_id: _,
    installations_count: __,
    ...app
  } = toWireIntegration({ ...facts, installationsCount: 0 }, baseUrl);
  return app;
}

const time = (at: Date | null) => (at === null ? null : isoSeconds(at));

export function toWireCheckRun(run: CheckRunRow, app: CheckAppFacts, fullName: string, baseUrl: string): CheckRun {
  const url = `${baseUrl}/repos/${fullName}/check-runs/${run.id}`;
  return {
    id: run.id,
    head_sha: run.headSha,
    node_id: nodeId("CheckRun", run.id),
    external_id: run.externalId,
    url,
    html_url: `${webOrigin(baseUrl)}/${fullName}/runs/${run.id}`,
    // "If the integrator does not provide this, then the homepage of the GitHub app is used."
    details_url: run.detailsUrl ?? `${webOrigin(baseUrl)}/apps/${app.app.slug}`,
    status: run.status,
    conclusion: run.conclusion,
    started_at: time(run.startedAt),
    completed_at: time(run.completedAt),
    output: {
      title: run.output.title,
      summary: run.output.summary,
      text: run.output.text,
      annotations_count: run.annotationsCount,
      annotations_url: `${url}/annotations`,
    },
    name: run.name,
    check_suite: { id: run.suiteId },
    app: toWireCheckApp(app, baseUrl),
    pull_requests: [],
  };
}

export function toWireAnnotation(
  annotation: CheckAnnotation,
  headSha: string,
  fullName: string,
  baseUrl: string,
): WireAnnotation {
  return {
    path: annotation.path,
    start_line: annotation.startLine,
    end_line: annotation.endLine,
    start_column: annotation.startColumn,
    end_column: annotation.endColumn,
    annotation_level: annotation.annotationLevel,
    title: annotation.title,
    message: annotation.message,
    raw_details: annotation.rawDetails,
    blob_href: `${webOrigin(baseUrl)}/${fullName}/blob/${headSha}/${annotation.path}`,
  };
}

/** A suite with what its answer shows beside its row: its app, repository, head commit and latest runs' count. */
export interface SuiteFacts {
  suite: CheckSuiteRow;
  app: CheckAppFacts;
  repository: RepositoryFacts;
  headCommit: CommitFields;
  latestRunsCount: number;
}

export function toWireCheckSuite(facts: SuiteFacts, baseUrl: string): CheckSuite {
  const { suite, headCommit } = facts;
  const fullName = facts.repository.repo.fullName;
  const url = `${baseUrl}/repos/${fullName}/check-suites/${suite.id}`;
  const person = (p: CommitFields["author"]) => ({ name: p.name, email: p.email });
  return {
    id: suite.id,
    node_id: nodeId("CheckSuite", suite.id),
    head_branch: suite.headBranch,
    head_sha: suite.headSha,
    status: suite.status,
    conclusion: suite.conclusion,
    url,
    // A push's suite says where the push moved its branch from; another its head commit's parent.
    before: suite.before ?? headCommit.parents[0] ?? null,
    after: suite.headSha,
    pull_requests: [],
    created_at: isoSeconds(suite.createdAt),
    updated_at: isoSeconds(suite.updatedAt),
    app: toWireCheckApp(facts.app, baseUrl),
    repository: toWireParentRepository(facts.repository, baseUrl),
    head_commit: {
      id: suite.headSha,
      tree_id: headCommit.tree,
      message: headCommit.message,
      timestamp: formatApiDate(headCommit.committer),
      author: person(headCommit.author),
      committer: person(headCommit.committer),
    },
    latest_check_runs_count: facts.latestRunsCount,
    check_runs_url: `${url}/check-runs`,
    rerequestable: true,
    runs_rerequestable: true,
  };
}

/**
 * A suite as webhooks carry it: inside a `check_run` (`withRuns` false: without its runs' count, URL and head commit)
 * or as a `check_suite`'s own (with them); never its repository, which the webhook carries beside it.
 */
export function toWebhookSuite(facts: SuiteFacts, baseUrl: string, withRuns: boolean): Record<string, unknown> {
  const { repository: _, rerequestable: __, runs_rerequestable: ___, ...suite } = toWireCheckSuite(facts, baseUrl);
  const { latest_check_runs_count, check_runs_url, head_commit, ...trimmed } = suite;
  const ordered = {
    id: trimmed.id,
    node_id: trimmed.node_id,
    head_branch: trimmed.head_branch,
    head_sha: trimmed.head_sha,
    status: trimmed.status,
    conclusion: trimmed.conclusion,
    url: trimmed.url,
    before: trimmed.before,
    after: trimmed.after,
    pull_requests: trimmed.pull_requests,
    app: trimmed.app,
    created_at: trimmed.created_at,
    updated_at: trimmed.updated_at,
  };
  return withRuns ? { ...ordered, latest_check_runs_count, check_runs_url, head_commit } : ordered;
}

/** A repository's check suite preferences as GitHub's `check-suite-preference` shows them. */
export function toWireCheckSuitePreference(
  preferences: readonly CheckSuitePreference[],
  repository: RepositoryFacts,
  baseUrl: string,
): WirePreference {
  return {
    preferences: { auto_trigger_checks: preferences.map((p) => ({ app_id: p.appId, setting: p.setting })) },
    repository: toWireParentRepository(repository, baseUrl),
  };
}
