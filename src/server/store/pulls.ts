/**
 * Pull requests, their requested reviewers and reviews, written once over the executor. A pull request's issue row is
 * written first (store/issues.ts), in the same action transaction.
 */
import type { Executor } from "./executor.js";
import type { IssueRow } from "./issue-store.js";
import { LISTED, listParameter, toIssue, type IssueRecord } from "./issues.js";
import type { NewPull, PullChanges, PullFilter, PullRow, PullStore, ReviewRow, ReviewState } from "./pull-store.js";
import { date, type Bool, type Time } from "./sql-values.js";

interface PullRecord {
  issue_id: number;
  repo_id: number;
  number: number;
  head_repo_id: number | null;
  head_ref: string;
  head_sha: string;
  base_ref: string;
  base_sha: string;
  draft: Bool;
  maintainer_can_modify: Bool;
  merged_at: Time | null;
  merged_by_id: number | null;
  merge_commit_sha: string | null;
}

interface ReviewRecord {
  id: number;
  issue_id: number;
  user_id: number;
  state: ReviewState;
  body: string;
  commit_id: string;
  submitted_at: Time | null;
  created_at: Time;
}

const toPull = (r: PullRecord): PullRow => ({
  issueId: Number(r.issue_id),
  repoId: Number(r.repo_id),
  number: Number(r.number),
  headRepoId: r.head_repo_id === null ? null : Number(r.head_repo_id),
  headRef: r.head_ref,
  headSha: r.head_sha,
  baseRef: r.base_ref,
  baseSha: r.base_sha,
  draft: Boolean(r.draft),
  maintainerCanModify: Boolean(r.maintainer_can_modify),
  mergedAt: r.merged_at === null ? null : date(r.merged_at),
  mergedById: r.merged_by_id === null ? null : Number(r.merged_by_id),
  mergeCommitSha: r.merge_commit_sha,
});

const toReview = (r: ReviewRecord): ReviewRow => ({
  id: Number(r.id),
  issueId: Number(r.issue_id),
  userId: Number(r.user_id),
  state: r.state,
  body: r.body,
  commitId: r.commit_id,
  submittedAt: r.submitted_at === null ? null : date(r.submitted_at),
  createdAt: date(r.created_at),
});

/** The columns of PullChanges, by property. */
const CHANGE_COLUMNS = {
  headSha: "head_sha",
  baseRef: "base_ref",
  baseSha: "base_sha",
  draft: "draft",
  maintainerCanModify: "maintainer_can_modify",
  mergedAt: "merged_at",
  mergedById: "merged_by_id",
  mergeCommitSha: "merge_commit_sha",
} as const satisfies Record<keyof PullChanges, string>;

/** GitHub's sorts of a pull request list: popularity is by comments, long-running by age. */
const ORDER: Record<PullFilter["sort"], string> = {
  created: "i.created_at",
  updated: "i.updated_at",
  popularity: "i.comments",
  "long-running": "i.created_at",
};

export class Pulls implements PullStore {
  constructor(private readonly db: Executor) {}

  /** A value as the driver binds it: booleans and times differ (sql-values.ts). */
  private bound(value: unknown): unknown {
    if (value instanceof Date) return this.db.values.time(value);
    if (typeof value === "boolean") return this.db.values.bool(value);
    return value;
  }

  async insert(pull: NewPull): Promise<PullRow> {
    const row = await this.db.get<PullRecord>(
      `INSERT INTO pull_requests (issue_id, repo_id, number, head_repo_id, head_ref, head_sha, base_ref, base_sha,
         draft, maintainer_can_modify)
       VALUES (@issue, @repo, @number, @headRepo, @headRef, @headSha, @baseRef, @baseSha, @draft, @modify)
       RETURNING *`,
      {
        issue: pull.issueId,
        repo: pull.repoId,
        number: pull.number,
        headRepo: pull.headRepoId,
        headRef: pull.headRef,
        headSha: pull.headSha,
        baseRef: pull.baseRef,
        baseSha: pull.baseSha,
        draft: this.db.values.bool(pull.draft),
        modify: this.db.values.bool(pull.maintainerCanModify),
      },
    );
    return toPull(row!);
  }

  async find(repoId: number, number: number): Promise<PullRow | null> {
    const row = await this.db.get<PullRecord>(
      "SELECT * FROM pull_requests WHERE repo_id = @repo AND number = @number",
      { repo: repoId, number },
    );
    return row ? toPull(row) : null;
  }

  async byIssueIds(issueIds: number[]): Promise<Map<number, PullRow>> {
    const found = new Map<number, PullRow>();
    if (!issueIds.length) return found;
    const rows = await this.db.all<PullRecord>(
      `SELECT * FROM pull_requests WHERE ${LISTED[this.db.dialect]("issue_id", "int8")}`,
      { list: listParameter(this.db.dialect, issueIds) },
    );
    for (const row of rows) found.set(Number(row.issue_id), toPull(row));
    return found;
  }

  async page(filter: PullFilter, window: { limit: number; offset: number }) {
    const where = ["p.repo_id = @repo"];
    const parameters: Record<string, unknown> = { repo: filter.repoId, ...window };
    if (filter.state !== "all") {
      where.push("i.state = @state");
      parameters.state = filter.state;
    }
    if (filter.head) {
      where.push("p.head_repo_id = @headRepo AND p.head_ref = @headRef");
      parameters.headRepo = filter.head.repoId;
      parameters.headRef = filter.head.ref;
    }
    if (filter.base !== undefined) {
      where.push("p.base_ref = @base");
      parameters.base = filter.base;
    }
    const direction = filter.direction === "asc" ? "ASC" : "DESC";
    const from = `FROM pull_requests p JOIN issues i ON i.id = p.issue_id WHERE ${where.join(" AND ")}`;
    // One after another: on a transaction's executor the two would overlap on its one connection.
    const rows = await this.db.all<IssueRecord>(
      `SELECT i.* ${from} ORDER BY ${ORDER[filter.sort]} ${direction}, p.number ${direction}
       LIMIT @limit OFFSET @offset`,
      parameters,
    );
    const count = await this.db.get<{ n: number }>(`SELECT count(*) AS n ${from}`, parameters);
    return { rows: rows.map(toIssue), total: Number(count!.n) };
  }

  private async open(condition: string, parameters: Record<string, unknown>): Promise<PullRow[]> {
    const rows = await this.db.all<PullRecord>(
      `SELECT p.* FROM pull_requests p JOIN issues i ON i.id = p.issue_id
       WHERE ${condition} AND i.state = 'open' ORDER BY p.issue_id`,
      parameters,
    );
    return rows.map(toPull);
  }

  openWithHead(headRepoId: number, ref: string): Promise<PullRow[]> {
    return this.open("p.head_repo_id = @repo AND p.head_ref = @ref", { repo: headRepoId, ref });
  }

  async withHead(headRepoId: number, ref: string): Promise<PullRow[]> {
    const rows = await this.db.all<PullRecord>(
      "SELECT * FROM pull_requests WHERE head_repo_id = @repo AND head_ref = @ref ORDER BY issue_id",
      { repo: headRepoId, ref },
    );
    return rows.map(toPull);
  }

  openWithBase(repoId: number, ref: string): Promise<PullRow[]> {
    return this.open("p.repo_id = @repo AND p.base_ref = @ref", { repo: repoId, ref });
  }

  // A scan of the repository's pull requests (pull_requests_by_base leads with repo_id): no index on the SHAs.
  async withCommit(repoId: number, sha: string): Promise<IssueRow[]> {
    const rows = await this.db.all<IssueRecord>(
      `SELECT i.* FROM pull_requests p JOIN issues i ON i.id = p.issue_id
       WHERE p.repo_id = @repo AND (p.head_sha = @sha OR p.merge_commit_sha = @sha) ORDER BY p.number DESC`,
      { repo: repoId, sha },
    );
    return rows.map(toIssue);
  }

  async update(issueId: number, changes: PullChanges): Promise<PullRow> {
    const sets: string[] = [];
    const parameters: Record<string, unknown> = { issue: issueId };
    for (const [key, column] of Object.entries(CHANGE_COLUMNS) as [keyof PullChanges, string][]) {
      if (changes[key] === undefined) continue;
      sets.push(`${column} = @${key}`);
      parameters[key] = this.bound(changes[key]);
    }
    const row = sets.length
      ? await this.db.get<PullRecord>(
          `UPDATE pull_requests SET ${sets.join(", ")} WHERE issue_id = @issue RETURNING *`,
          parameters,
        )
      : await this.db.get<PullRecord>("SELECT * FROM pull_requests WHERE issue_id = @issue", parameters);
    return toPull(row!);
  }

  async reviewersOf(issueIds: number[]): Promise<Map<number, number[]>> {
    const byPull = new Map<number, number[]>(issueIds.map((id) => [id, []]));
    if (!issueIds.length) return byPull;
    const rows = await this.db.all<{ issue_id: number; user_id: number }>(
      `SELECT issue_id, user_id FROM pull_request_reviewers WHERE ${LISTED[this.db.dialect]("issue_id", "int8")}
       ORDER BY issue_id, user_id`,
      { list: listParameter(this.db.dialect, issueIds) },
    );
    for (const row of rows) byPull.get(Number(row.issue_id))?.push(Number(row.user_id));
    return byPull;
  }

  async addReviewers(issueId: number, userIds: number[]): Promise<void> {
    for (const user of userIds)
      await this.db.run(
        `INSERT INTO pull_request_reviewers (issue_id, user_id) VALUES (@issue, @user)
         ON CONFLICT (issue_id, user_id) DO NOTHING`,
        { issue: issueId, user },
      );
  }

  async removeReviewers(issueId: number, userIds: number[]): Promise<void> {
    if (!userIds.length) return;
    await this.db.run(
      `DELETE FROM pull_request_reviewers WHERE issue_id = @issue AND ${LISTED[this.db.dialect]("user_id", "int8")}`,
      { issue: issueId, list: listParameter(this.db.dialect, userIds) },
    );
  }

  async insertReview(review: Omit<ReviewRow, "id">): Promise<ReviewRow> {
    const row = await this.db.get<ReviewRecord>(
      `INSERT INTO pull_request_reviews (issue_id, user_id, state, body, commit_id, submitted_at, created_at)
       VALUES (@issue, @user, @state, @body, @commit, @submitted, @created) RETURNING *`,
      {
        issue: review.issueId,
        user: review.userId,
        state: review.state,
        body: review.body,
        commit: review.commitId,
        submitted: review.submittedAt === null ? null : this.db.values.time(review.submittedAt),
        created: this.db.values.time(review.createdAt),
      },
    );
    return toReview(row!);
  }

  async review(issueId: number, id: number): Promise<ReviewRow | null> {
    const row = await this.db.get<ReviewRecord>(
      "SELECT * FROM pull_request_reviews WHERE issue_id = @issue AND id = @id",
      { issue: issueId, id },
    );
    return row ? toReview(row) : null;
  }

  async reviews(issueId: number, window: { limit: number; offset: number }) {
    const rows = await this.db.all<ReviewRecord>(
      "SELECT * FROM pull_request_reviews WHERE issue_id = @issue ORDER BY id LIMIT @limit OFFSET @offset",
      { issue: issueId, ...window },
    );
    const count = await this.db.get<{ n: number }>(
      "SELECT count(*) AS n FROM pull_request_reviews WHERE issue_id = @issue",
      { issue: issueId },
    );
    return { rows: rows.map(toReview), total: Number(count!.n) };
  }

  async updateReview(id: number, changes: Partial<Pick<ReviewRow, "state" | "body" | "submittedAt">>) {
    const sets: string[] = [];
    const parameters: Record<string, unknown> = { id };
    if (changes.state !== undefined) sets.push("state = @state");
    if (changes.body !== undefined) sets.push("body = @body");
    if (changes.submittedAt !== undefined) sets.push("submitted_at = @submitted");
    parameters.state = changes.state;
    parameters.body = changes.body;
    parameters.submitted = changes.submittedAt == null ? null : this.db.values.time(changes.submittedAt);
    const row = await this.db.get<ReviewRecord>(
      `UPDATE pull_request_reviews SET ${sets.join(", ")} WHERE id = @id RETURNING *`,
      parameters,
    );
    return toReview(row!);
  }
}
