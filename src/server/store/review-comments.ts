/** Pull request review comments, written once over the executor. */
import type { Executor } from "./executor.js";
import { LISTED, listParameter } from "./issues.js";
import type { ReviewCommentFilter, ReviewCommentRow, ReviewCommentStore } from "./review-comment-store.js";
import { date, type Time } from "./sql-values.js";

interface CommentRecord {
  id: number;
  repo_id: number;
  issue_id: number;
  review_id: number;
  user_id: number;
  body: string;
  path: string;
  commit_id: string;
  line: number | null;
  side: "LEFT" | "RIGHT" | null;
  start_line: number | null;
  start_side: "LEFT" | "RIGHT" | null;
  position: number | null;
  subject_type: "line" | "file";
  diff_hunk: string;
  in_reply_to_id: number | null;
  created_at: Time;
  updated_at: Time;
}

const orNumber = (value: number | null) => (value === null ? null : Number(value));

const toComment = (r: CommentRecord): ReviewCommentRow => ({
  id: Number(r.id),
  repoId: Number(r.repo_id),
  issueId: Number(r.issue_id),
  reviewId: Number(r.review_id),
  userId: Number(r.user_id),
  body: r.body,
  path: r.path,
  commitId: r.commit_id,
  line: orNumber(r.line),
  side: r.side,
  startLine: orNumber(r.start_line),
  startSide: r.start_side,
  position: orNumber(r.position),
  subjectType: r.subject_type,
  diffHunk: r.diff_hunk,
  inReplyToId: orNumber(r.in_reply_to_id),
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
});

export class ReviewComments implements ReviewCommentStore {
  constructor(private readonly db: Executor) {}

  async insert(c: Omit<ReviewCommentRow, "id">): Promise<ReviewCommentRow> {
    const row = await this.db.get<CommentRecord>(
      `INSERT INTO pull_request_review_comments (repo_id, issue_id, review_id, user_id, body, path, commit_id, line,
         side, start_line, start_side, position, subject_type, diff_hunk, in_reply_to_id, created_at, updated_at)
       VALUES (@repo, @issue, @review, @user, @body, @path, @commit, @line, @side, @startLine, @startSide, @position,
         @subject, @hunk, @replyTo, @created, @updated)
       RETURNING *`,
      {
        repo: c.repoId,
        issue: c.issueId,
        review: c.reviewId,
        user: c.userId,
        body: c.body,
        path: c.path,
        commit: c.commitId,
        line: c.line,
        side: c.side,
        startLine: c.startLine,
        startSide: c.startSide,
        position: c.position,
        subject: c.subjectType,
        hunk: c.diffHunk,
        replyTo: c.inReplyToId,
        created: this.db.values.time(c.createdAt),
        updated: this.db.values.time(c.updatedAt),
      },
    );
    return toComment(row!);
  }

  async find(repoId: number, id: number): Promise<ReviewCommentRow | null> {
    const row = await this.db.get<CommentRecord>(
      "SELECT * FROM pull_request_review_comments WHERE repo_id = @repo AND id = @id",
      { repo: repoId, id },
    );
    return row ? toComment(row) : null;
  }

  async page(filter: ReviewCommentFilter, window: { limit: number; offset: number }) {
    const where = ["repo_id = @repo"];
    const parameters: Record<string, unknown> = { repo: filter.repoId, ...window };
    if (filter.issueId !== undefined) {
      where.push("issue_id = @issue");
      parameters.issue = filter.issueId;
    }
    if (filter.since !== undefined) {
      where.push("updated_at >= @since");
      parameters.since = this.db.values.time(filter.since);
    }
    const direction = filter.direction === "asc" ? "ASC" : "DESC";
    const order = filter.sort === "updated" ? "updated_at" : "created_at";
    const condition = where.join(" AND ");
    // One after another: on a transaction's executor the two would overlap on its one connection.
    const rows = await this.db.all<CommentRecord>(
      `SELECT * FROM pull_request_review_comments WHERE ${condition}
       ORDER BY ${order} ${direction}, id ${direction} LIMIT @limit OFFSET @offset`,
      parameters,
    );
    const count = await this.db.get<{ n: number }>(
      `SELECT count(*) AS n FROM pull_request_review_comments WHERE ${condition}`,
      parameters,
    );
    return { rows: rows.map(toComment), total: Number(count!.n) };
  }

  async update(id: number, body: string, at: Date): Promise<ReviewCommentRow> {
    const row = await this.db.get<CommentRecord>(
      "UPDATE pull_request_review_comments SET body = @body, updated_at = @at WHERE id = @id RETURNING *",
      { id, body, at: this.db.values.time(at) },
    );
    return toComment(row!);
  }

  async delete(id: number): Promise<void> {
    await this.db.run("UPDATE pull_request_review_comments SET in_reply_to_id = NULL WHERE in_reply_to_id = @id", {
      id,
    });
    await this.db.run("DELETE FROM pull_request_review_comments WHERE id = @id", { id });
  }

  async countsOf(issueIds: number[]): Promise<Map<number, number>> {
    const counts = new Map<number, number>(issueIds.map((id) => [id, 0]));
    if (!issueIds.length) return counts;
    const rows = await this.db.all<{ issue_id: number; n: number }>(
      `SELECT issue_id, count(*) AS n FROM pull_request_review_comments
       WHERE ${LISTED[this.db.dialect]("issue_id", "int8")} GROUP BY issue_id`,
      { list: listParameter(this.db.dialect, issueIds) },
    );
    for (const row of rows) counts.set(Number(row.issue_id), Number(row.n));
    return counts;
  }
}
