/**
 * Check suites, runs and annotations, written once over the executor. Filters are joined into the SQL only when
 * given, so that PostgreSQL never has to guess the type of a parameter that is null.
 */
import type { Executor } from "./executor.js";
import type { PageRequest } from "./page.js";
import { type Bool, date, json, type Json, type Time } from "./sql-values.js";
import { INSTALLATION_COVERS } from "./hook-sql.js";
import { subscribes } from "../../api/webhook-events.js";
import type { GrantedPermissions } from "../../api/permissions.js";
import type {
  CheckAnnotation,
  CheckConclusion,
  CheckRunChanges,
  CheckRunFilter,
  CheckRunRow,
  CheckStatus,
  CheckStore,
  CheckSuitePreference,
  CheckSuiteRow,
  NewCheckRun,
} from "./check-store.js";

type Id = number | string;

interface SuiteRecord {
  id: Id;
  repo_id: Id;
  app_id: Id;
  head_sha: string;
  head_branch: string | null;
  before_sha: string | null;
  status: string;
  conclusion: string | null;
  created_at: Time;
  updated_at: Time;
}

interface RunRecord {
  id: Id;
  suite_id: Id;
  repo_id: Id;
  head_sha: string;
  name: string;
  status: string;
  conclusion: string | null;
  started_at: Time;
  completed_at: Time | null;
  external_id: string | null;
  details_url: string | null;
  output_title: string | null;
  output_summary: string | null;
  output_text: string | null;
  annotations_count: number;
}

interface AnnotationRecord {
  path: string;
  start_line: number;
  end_line: number;
  start_column: number | null;
  end_column: number | null;
  annotation_level: string;
  title: string | null;
  message: string;
  raw_details: string | null;
}

const toSuite = (r: SuiteRecord): CheckSuiteRow => ({
  id: Number(r.id),
  repoId: Number(r.repo_id),
  appId: Number(r.app_id),
  headSha: r.head_sha,
  headBranch: r.head_branch,
  before: r.before_sha,
  status: r.status as CheckStatus,
  conclusion: r.conclusion as CheckConclusion | null,
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
});

const toRun = (r: RunRecord): CheckRunRow => ({
  id: Number(r.id),
  suiteId: Number(r.suite_id),
  repoId: Number(r.repo_id),
  headSha: r.head_sha,
  name: r.name,
  status: r.status as CheckStatus,
  conclusion: r.conclusion as CheckConclusion | null,
  startedAt: date(r.started_at),
  completedAt: r.completed_at === null ? null : date(r.completed_at),
  externalId: r.external_id,
  detailsUrl: r.details_url,
  output: { title: r.output_title, summary: r.output_summary, text: r.output_text },
  annotationsCount: Number(r.annotations_count),
});

const toAnnotation = (r: AnnotationRecord): CheckAnnotation => ({
  path: r.path,
  startLine: r.start_line,
  endLine: r.end_line,
  startColumn: r.start_column,
  endColumn: r.end_column,
  annotationLevel: r.annotation_level as CheckAnnotation["annotationLevel"],
  title: r.title,
  message: r.message,
  rawDetails: r.raw_details,
});

/** The newest run of its name in its suite: GitHub's `filter=latest`. */
const LATEST = "r.id = (SELECT max(l.id) FROM check_runs l WHERE l.suite_id = r.suite_id AND l.name = r.name)";

export class Checks implements CheckStore {
  constructor(private readonly db: Executor) {}

  async suite(repoId: number, id: number): Promise<CheckSuiteRow | null> {
    const row = await this.db.get<SuiteRecord>("SELECT * FROM check_suites WHERE repo_id = @repo AND id = @id", {
      repo: repoId,
      id,
    });
    return row ? toSuite(row) : null;
  }

  async suiteFor(suite: Pick<CheckSuiteRow, "repoId" | "appId" | "headSha" | "headBranch">, now: Date) {
    const key = { repo: suite.repoId, app: suite.appId, sha: suite.headSha };
    await this.db.run(
      `INSERT INTO check_suites (repo_id, app_id, head_sha, head_branch, status, conclusion, created_at, updated_at)
       VALUES (@repo, @app, @sha, @branch, 'queued', NULL, @now, @now)
       ON CONFLICT (repo_id, head_sha, app_id) DO NOTHING`,
      { ...key, branch: suite.headBranch, now: this.db.values.time(now) },
    );
    const row = await this.db.get<SuiteRecord>(
      "SELECT * FROM check_suites WHERE repo_id = @repo AND head_sha = @sha AND app_id = @app",
      key,
    );
    return toSuite(row!);
  }

  async newSuite(
    suite: Pick<CheckSuiteRow, "repoId" | "appId" | "headSha" | "headBranch" | "before">,
    now: Date,
  ): Promise<CheckSuiteRow | null> {
    const row = await this.db.get<SuiteRecord>(
      `INSERT INTO check_suites
         (repo_id, app_id, head_sha, head_branch, before_sha, status, conclusion, created_at, updated_at)
       VALUES (@repo, @app, @sha, @branch, @before, 'queued', NULL, @now, @now)
       ON CONFLICT (repo_id, head_sha, app_id) DO NOTHING RETURNING *`,
      {
        repo: suite.repoId,
        app: suite.appId,
        sha: suite.headSha,
        branch: suite.headBranch,
        before: suite.before,
        now: this.db.values.time(now),
      },
    );
    return row ? toSuite(row) : null;
  }

  async appsForPushes(repoId: number): Promise<number[]> {
    const rows = await this.db.all<{ app_id: Id; events: Json<string[]>; permissions: Json<GrantedPermissions> }>(
      `SELECT i.app_id AS app_id, i.events AS events, i.permissions AS permissions
       FROM repos r JOIN installations i ON i.account_id = r.owner_id AND i.suspended_at IS NULL
         AND ${INSTALLATION_COVERS[this.db.dialect]}
       LEFT JOIN check_suite_preferences p ON p.repo_id = r.id AND p.app_id = i.app_id
       WHERE r.id = @repo AND (p.auto_trigger IS NULL OR p.auto_trigger = @on)
       ORDER BY i.app_id`,
      { repo: repoId, on: this.db.values.bool(true) },
    );
    return rows
      .filter((r) => subscribes(json(r.events), "check_suite") && json(r.permissions).checks === "write")
      .map((r) => Number(r.app_id));
  }

  async preferences(repoId: number): Promise<CheckSuitePreference[]> {
    const rows = await this.db.all<{ app_id: Id; auto_trigger: Bool }>(
      "SELECT app_id, auto_trigger FROM check_suite_preferences WHERE repo_id = @repo ORDER BY app_id",
      { repo: repoId },
    );
    return rows.map((r) => ({ appId: Number(r.app_id), setting: Boolean(r.auto_trigger) }));
  }

  async setPreferences(repoId: number, preferences: readonly CheckSuitePreference[]): Promise<void> {
    for (const { appId, setting } of preferences)
      await this.db.run(
        `INSERT INTO check_suite_preferences (repo_id, app_id, auto_trigger) VALUES (@repo, @app, @setting)
         ON CONFLICT (repo_id, app_id) DO UPDATE SET auto_trigger = excluded.auto_trigger`,
        { repo: repoId, app: appId, setting: this.db.values.bool(setting) },
      );
  }

  async setSuiteState(id: number, status: CheckStatus, conclusion: CheckConclusion | null, now: Date) {
    const row = await this.db.get<SuiteRecord>(
      `UPDATE check_suites SET status = @status, conclusion = @conclusion, updated_at = @now WHERE id = @id
       RETURNING *`,
      { id, status, conclusion, now: this.db.values.time(now) },
    );
    return toSuite(row!);
  }

  async suitesOf(repoId: number, sha: string, appId: number | undefined, window: PageRequest) {
    const where = `repo_id = @repo AND head_sha = @sha${appId === undefined ? "" : " AND app_id = @app"}`;
    const values = { repo: repoId, sha, ...(appId === undefined ? {} : { app: appId }) };
    const [rows, count] = await Promise.all([
      this.db.all<SuiteRecord>(`SELECT * FROM check_suites WHERE ${where} ORDER BY id LIMIT @limit OFFSET @offset`, {
        ...values,
        ...window,
      }),
      this.db.get<{ n: number }>(`SELECT count(*) AS n FROM check_suites WHERE ${where}`, values),
    ]);
    return { rows: rows.map(toSuite), total: Number(count!.n) };
  }

  async run(repoId: number, id: number): Promise<CheckRunRow | null> {
    const row = await this.db.get<RunRecord>("SELECT * FROM check_runs WHERE repo_id = @repo AND id = @id", {
      repo: repoId,
      id,
    });
    return row ? toRun(row) : null;
  }

  async insertRun(run: NewCheckRun): Promise<CheckRunRow> {
    const row = await this.db.get<RunRecord>(
      `INSERT INTO check_runs (suite_id, repo_id, head_sha, name, status, conclusion, started_at, completed_at,
         external_id, details_url, output_title, output_summary, output_text)
       VALUES (@suite, @repo, @sha, @name, @status, @conclusion, @startedAt, @completedAt, @externalId, @detailsUrl,
         @title, @summary, @text)
       RETURNING *`,
      { suite: run.suiteId, repo: run.repoId, sha: run.headSha, ...this.changeValues(run) },
    );
    return toRun(row!);
  }

  async updateRun(id: number, changes: CheckRunChanges): Promise<CheckRunRow> {
    const row = await this.db.get<RunRecord>(
      `UPDATE check_runs SET name = @name, status = @status, conclusion = @conclusion, started_at = @startedAt,
         completed_at = @completedAt, external_id = @externalId, details_url = @detailsUrl, output_title = @title,
         output_summary = @summary, output_text = @text
       WHERE id = @id RETURNING *`,
      { id, ...this.changeValues(changes) },
    );
    return toRun(row!);
  }

  private changeValues(changes: CheckRunChanges) {
    const time = (at: Date | null) => (at === null ? null : this.db.values.time(at));
    return {
      name: changes.name,
      status: changes.status,
      conclusion: changes.conclusion,
      startedAt: time(changes.startedAt),
      completedAt: time(changes.completedAt),
      externalId: changes.externalId,
      detailsUrl: changes.detailsUrl,
      title: changes.output.title,
      summary: changes.output.summary,
      text: changes.output.text,
    };
  }

  async annotate(runId: number, annotations: readonly CheckAnnotation[]): Promise<void> {
    for (const a of annotations) {
      await this.db.run(
        `INSERT INTO check_annotations (run_id, path, start_line, end_line, start_column, end_column,
           annotation_level, title, message, raw_details)
         VALUES (@run, @path, @startLine, @endLine, @startColumn, @endColumn, @level, @title, @message, @rawDetails)`,
        {
          run: runId,
          path: a.path,
          startLine: a.startLine,
          endLine: a.endLine,
          startColumn: a.startColumn,
          endColumn: a.endColumn,
          level: a.annotationLevel,
          title: a.title,
          message: a.message,
          rawDetails: a.rawDetails,
        },
      );
    }
    await this.db.run("UPDATE check_runs SET annotations_count = annotations_count + @n WHERE id = @id", {
      id: runId,
      n: annotations.length,
    });
  }

  async annotations(runId: number, window: PageRequest) {
    const [rows, count] = await Promise.all([
      this.db.all<AnnotationRecord>(
        "SELECT * FROM check_annotations WHERE run_id = @run ORDER BY id LIMIT @limit OFFSET @offset",
        { run: runId, ...window },
      ),
      this.db.get<{ n: number }>("SELECT count(*) AS n FROM check_annotations WHERE run_id = @run", { run: runId }),
    ]);
    return { rows: rows.map(toAnnotation), total: Number(count!.n) };
  }

  async runsOf(of: { repoId: number; sha: string } | { suiteId: number }, filter: CheckRunFilter, window: PageRequest) {
    const conditions = "suiteId" in of ? ["r.suite_id = @suite"] : ["r.repo_id = @repo", "r.head_sha = @sha"];
    const values: Record<string, unknown> = "suiteId" in of ? { suite: of.suiteId } : { repo: of.repoId, sha: of.sha };
    if (filter.name !== undefined) conditions.push("r.name = @name");
    if (filter.status !== undefined) conditions.push("r.status = @status");
    if (filter.appId !== undefined) conditions.push("s.app_id = @app");
    if (filter.latest) conditions.push(LATEST);
    Object.assign(values, { name: filter.name, status: filter.status, app: filter.appId });
    for (const key of ["name", "status", "app"]) if (values[key] === undefined) delete values[key];
    const from = `FROM check_runs r JOIN check_suites s ON s.id = r.suite_id WHERE ${conditions.join(" AND ")}`;
    const [rows, count] = await Promise.all([
      this.db.all<RunRecord>(`SELECT r.* ${from} ORDER BY r.id DESC LIMIT @limit OFFSET @offset`, {
        ...values,
        ...window,
      }),
      this.db.get<{ n: number }>(`SELECT count(*) AS n ${from}`, values),
    ]);
    return { rows: rows.map(toRun), total: Number(count!.n) };
  }

  async latestRuns(suiteId: number): Promise<CheckRunRow[]> {
    const rows = await this.db.all<RunRecord>(`SELECT r.* FROM check_runs r WHERE r.suite_id = @suite AND ${LATEST}`, {
      suite: suiteId,
    });
    return rows.map(toRun);
  }
}
