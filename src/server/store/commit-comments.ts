/** Commit comments, written once over the executor. */
import type { CommitCommentRow, CommitCommentStore, NewCommitComment } from "./commit-comment-store.js";
import type { Executor } from "./executor.js";
import { LISTED, listParameter } from "./issues.js";
import type { PageRequest } from "./page.js";
import { date, type Time } from "./sql-values.js";

interface CommitCommentRecord {
  id: number;
  repo_id: number;
  commit_id: string;
  user_id: number;
  body: string;
  path: string | null;
  position: number | null;
  line: number | null;
  created_at: Time;
  updated_at: Time;
}

const orNumber = (value: number | null) => (value === null ? null : Number(value));

const toComment = (r: CommitCommentRecord): CommitCommentRow => ({
  id: Number(r.id),
  repoId: Number(r.repo_id),
  commitId: r.commit_id,
  userId: Number(r.user_id),
  body: r.body,
  path: r.path,
  position: orNumber(r.position),
  line: orNumber(r.line),
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
});

export class CommitComments implements CommitCommentStore {
  constructor(private readonly db: Executor) {}

  async insert(c: NewCommitComment): Promise<CommitCommentRow> {
    const row = await this.db.get<CommitCommentRecord>(
      `INSERT INTO commit_comments (repo_id, commit_id, user_id, body, path, position, line, created_at, updated_at)
       VALUES (@repo, @commit, @user, @body, @path, @position, @line, @created, @updated)
       RETURNING *`,
      {
        repo: c.repoId,
        commit: c.commitId,
        user: c.userId,
        body: c.body,
        path: c.path,
        position: c.position,
        line: c.line,
        created: this.db.values.time(c.createdAt),
        updated: this.db.values.time(c.updatedAt),
      },
    );
    return toComment(row!);
  }

  async find(repoId: number, id: number): Promise<CommitCommentRow | null> {
    const row = await this.db.get<CommitCommentRecord>(
      "SELECT * FROM commit_comments WHERE repo_id = @repo AND id = @id",
      { repo: repoId, id },
    );
    return row ? toComment(row) : null;
  }

  async page(filter: { repoId: number; commitId?: string }, window: PageRequest) {
    const where = ["repo_id = @repo", ...(filter.commitId === undefined ? [] : ["commit_id = @commit"])];
    const parameters = { repo: filter.repoId, commit: filter.commitId ?? null, ...window };
    const condition = where.join(" AND ");
    // One after another: on a transaction's executor the two would overlap on its one connection.
    const rows = await this.db.all<CommitCommentRecord>(
      `SELECT * FROM commit_comments WHERE ${condition} ORDER BY id LIMIT @limit OFFSET @offset`,
      parameters,
    );
    const count = await this.db.get<{ n: number }>(
      `SELECT count(*) AS n FROM commit_comments WHERE ${condition}`,
      parameters,
    );
    return { rows: rows.map(toComment), total: Number(count!.n) };
  }

  async update(id: number, body: string, at: Date): Promise<CommitCommentRow> {
    const row = await this.db.get<CommitCommentRecord>(
      "UPDATE commit_comments SET body = @body, updated_at = @at WHERE id = @id RETURNING *",
      { id, body, at: this.db.values.time(at) },
    );
    return toComment(row!);
  }

  async delete(id: number): Promise<void> {
    await this.db.run("DELETE FROM reactions WHERE subject_type = 'commit_comment' AND subject_id = @id", { id });
    await this.db.run("DELETE FROM commit_comments WHERE id = @id", { id });
  }

  async countsOf(repoId: number, commitIds: string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>(commitIds.map((sha) => [sha, 0]));
    if (!commitIds.length) return counts;
    const rows = await this.db.all<{ commit_id: string; n: number }>(
      `SELECT commit_id, count(*) AS n FROM commit_comments
       WHERE repo_id = @repo AND ${LISTED[this.db.dialect]("commit_id", "text")} GROUP BY commit_id`,
      { repo: repoId, list: listParameter(this.db.dialect, commitIds) },
    );
    for (const row of rows) counts.set(row.commit_id, Number(row.n));
    return counts;
  }
}
