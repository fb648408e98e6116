/**
 * GitHub Apps' checks as stored state (https://docs.github.com/rest/checks): a check suite per app and head SHA of a
 * repository, its check runs, and their annotations. Written in the action log's transaction with the `check_run` and
 * `check_suite` webhooks they make; a suite's status and conclusion are written there from its runs.
 */
import type { Page, PageRequest } from "./page.js";

/** The statuses an app sets (GitHub keeps `waiting`, `requested` and `pending` for its Actions). */
export const CHECK_STATUSES = ["queued", "in_progress", "completed"] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** The conclusions an app may give a completed run (GitHub keeps `stale` for itself). */
export const CHECK_CONCLUSIONS = [
  "action_required",
  "cancelled",
  "failure",
  "neutral",
  "success",
  "skipped",
  "timed_out",
] as const;
export type CheckConclusion = (typeof CHECK_CONCLUSIONS)[number];

export interface CheckSuiteRow {
  id: number;
  repoId: number;
  appId: number;
  headSha: string;
  /** The branch whose head the SHA was when the suite was made; null for none. */
  headBranch: string | null;
  /** Where the push that made the suite moved its branch from (GitHub's `before`); null for a suite made otherwise. */
  before: string | null;
  status: CheckStatus;
  conclusion: CheckConclusion | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface CheckOutput {
  title: string | null;
  summary: string | null;
  text: string | null;
}

export interface CheckRunRow {
  id: number;
  suiteId: number;
  repoId: number;
  headSha: string;
  name: string;
  status: CheckStatus;
  conclusion: CheckConclusion | null;
  startedAt: Date;
  completedAt: Date | null;
  externalId: string | null;
  detailsUrl: string | null;
  output: CheckOutput;
  annotationsCount: number;
}

export type NewCheckRun = Omit<CheckRunRow, "id" | "annotationsCount">;
export type CheckRunChanges = Omit<NewCheckRun, "suiteId" | "repoId" | "headSha">;

export interface CheckAnnotation {
  path: string;
  startLine: number;
  endLine: number;
  startColumn: number | null;
  endColumn: number | null;
  annotationLevel: "notice" | "warning" | "failure";
  title: string | null;
  message: string;
  rawDetails: string | null;
}

/** Which runs of a commit a listing shows (GitHub's `check_name`, `status`, `app_id`, `filter`). */
export interface CheckRunFilter {
  name?: string;
  status?: CheckStatus;
  appId?: number;
  /** `filter=latest` (the default): of the runs of one name in one suite, only the newest. */
  latest: boolean;
}

/** Whether a push makes an app's suite in a repository: GitHub's `auto_trigger_checks` setting of one app. */
export interface CheckSuitePreference {
  appId: number;
  setting: boolean;
}

export interface CheckStore {
  suite(repoId: number, id: number): Promise<CheckSuiteRow | null>;
  /** The app's suite of the SHA in the repository, made (`queued`) when there is none yet. */
  suiteFor(
    suite: Pick<CheckSuiteRow, "repoId" | "appId" | "headSha" | "headBranch">,
    now: Date,
  ): Promise<CheckSuiteRow>;
  /** The app's suite of the SHA, made now (`queued`) as a push makes it; null when the app has one already. */
  newSuite(
    suite: Pick<CheckSuiteRow, "repoId" | "appId" | "headSha" | "headBranch" | "before">,
    now: Date,
  ): Promise<CheckSuiteRow | null>;
  /**
   * The apps a push to the repository makes a suite for, by id: installed on its owner (not suspended) over the
   * repository, taking the `check_suite` event with Checks (write), and not turned off by the repository's
   * preferences.
   */
  appsForPushes(repoId: number): Promise<number[]>;
  /** The repository's preferences, by app id. */
  preferences(repoId: number): Promise<CheckSuitePreference[]>;
  /** Sets each app's preference, keeping the other apps'. */
  setPreferences(repoId: number, preferences: readonly CheckSuitePreference[]): Promise<void>;
  setSuiteState(id: number, status: CheckStatus, conclusion: CheckConclusion | null, now: Date): Promise<CheckSuiteRow>;
  /** The suites of a SHA, oldest first; with `appId`, only that app's. */
  suitesOf(repoId: number, sha: string, appId: number | undefined, window: PageRequest): Promise<Page<CheckSuiteRow>>;
  run(repoId: number, id: number): Promise<CheckRunRow | null>;
  insertRun(run: NewCheckRun): Promise<CheckRunRow>;
  updateRun(id: number, changes: CheckRunChanges): Promise<CheckRunRow>;
  /** Appends annotations to the run, in order, and counts them in its `annotationsCount`. */
  annotate(runId: number, annotations: readonly CheckAnnotation[]): Promise<void>;
  annotations(runId: number, window: PageRequest): Promise<Page<CheckAnnotation>>;
  /** The runs of a SHA (or of one suite), newest first, as filtered. */
  runsOf(
    of: { repoId: number; sha: string } | { suiteId: number },
    filter: CheckRunFilter,
    window: PageRequest,
  ): Promise<Page<CheckRunRow>>;
  /** The newest run of each name in the suite: what its status, conclusion and `latest_check_runs_count` are of. */
  latestRuns(suiteId: number): Promise<CheckRunRow[]>;
}
