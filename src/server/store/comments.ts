/**
 * Issue comments and reactions, written once over the executor. A comment is read with its issue's number (its URLs
 * name it); a reaction is one user's content on one issue or comment, once (the table's unique key), so giving it
 * again finds the stored one rather than failing.
 */
import type { ReactionContent } from "../../api/issue-schemas.js";
import type {
  CommentFilter,
  CommentRow,
  CommentStore,
  NewComment,
  ReactionCountsRow,
  ReactionRow,
  ReactionStore,
  ReactionSubject,
} from "./comment-store.js";
import type { Executor } from "./executor.js";
import type { Dialect } from "./feed-sql.js";
import type { PageRequest } from "./page.js";
import { date, type Time } from "./sql-values.js";

interface CommentRecord {
  id: number;
  repo_id: number;
  issue_id: number;
  issue_number: number;
  user_id: number;
  body: string;
  created_at: Time;
  updated_at: Time;
}

interface ReactionRecord {
  id: number;
  subject_type: "issue" | "comment";
  subject_id: number;
  user_id: number;
  content: ReactionContent;
  created_at: Time;
}

const toComment = (r: CommentRecord): CommentRow => ({
  id: Number(r.id),
  repoId: Number(r.repo_id),
  issueId: Number(r.issue_id),
  issueNumber: Number(r.issue_number),
  userId: Number(r.user_id),
  body: r.body,
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
});

const toReaction = (r: ReactionRecord): ReactionRow => ({
  id: Number(r.id),
  subject: { type: r.subject_type, id: Number(r.subject_id) },
  userId: Number(r.user_id),
  content: r.content,
  createdAt: date(r.created_at),
});

/** A comment's columns and its issue's number. */
const COMMENT = "SELECT c.*, i.number AS issue_number FROM issue_comments c JOIN issues i ON i.id = c.issue_id";

const ORDER: Record<CommentFilter["sort"], string> = { created: "c.created_at", updated: "c.updated_at" };

/** A list of ids as one parameter, as issues.ts binds its lists: a JSON array for SQLite, an array for PostgreSQL. */
const LISTED: Record<Dialect, (column: string) => string> = {
  sqlite: (column) => `${column} IN (SELECT value FROM json_each(@list))`,
  postgres: (column) => `${column} = ANY(@list::int8[])`,
};
const listParameter = (dialect: Dialect, values: readonly number[]) =>
  dialect === "sqlite" ? JSON.stringify(values) : values;

export class Comments implements CommentStore {
  constructor(private readonly db: Executor) {}

  async insert(comment: NewComment): Promise<CommentRow> {
    const at = this.db.values.time(comment.at);
    const row = await this.db.get<CommentRecord>(
      `INSERT INTO issue_comments (repo_id, issue_id, user_id, body, created_at, updated_at)
       VALUES (@repo, @issue, @user, @body, @at, @at)
       RETURNING *, (SELECT i.number FROM issues i WHERE i.id = issue_comments.issue_id) AS issue_number`,
      { repo: comment.repoId, issue: comment.issueId, user: comment.userId, body: comment.body, at },
    );
    return toComment(row!);
  }

  async find(id: number): Promise<CommentRow | null> {
    const row = await this.db.get<CommentRecord>(`${COMMENT} WHERE c.id = @id`, { id });
    return row ? toComment(row) : null;
  }

  async page(filter: CommentFilter, window: PageRequest) {
    const where = ["c.repo_id = @repo"];
    const parameters: Record<string, unknown> = { repo: filter.repoId, ...window };
    if (filter.issueId !== undefined) {
      where.push("c.issue_id = @issue");
      parameters.issue = filter.issueId;
    }
    if (filter.since !== undefined) {
      where.push("c.updated_at >= @since");
      parameters.since = this.db.values.time(filter.since);
    }
    const direction = filter.direction === "asc" ? "ASC" : "DESC";
    const condition = where.join(" AND ");
    const [rows, count] = await Promise.all([
      this.db.all<CommentRecord>(
        `${COMMENT} WHERE ${condition} ORDER BY ${ORDER[filter.sort]} ${direction}, c.id ${direction}
         LIMIT @limit OFFSET @offset`,
        parameters,
      ),
      this.db.get<{ n: number }>(`SELECT count(*) AS n FROM issue_comments c WHERE ${condition}`, parameters),
    ]);
    return { rows: rows.map(toComment), total: Number(count!.n) };
  }

  async update(id: number, body: string, at: Date): Promise<CommentRow> {
    await this.db.run("UPDATE issue_comments SET body = @body, updated_at = @at WHERE id = @id", {
      id,
      body,
      at: this.db.values.time(at),
    });
    return (await this.find(id))!;
  }

  async delete(id: number): Promise<void> {
    await this.db.run("DELETE FROM reactions WHERE subject_type = 'comment' AND subject_id = @id", { id });
    await this.db.run("DELETE FROM issue_comments WHERE id = @id", { id });
  }
}

export class Reactions implements ReactionStore {
  constructor(private readonly db: Executor) {}

  async insert(reaction: Omit<ReactionRow, "id">) {
    const key = {
      type: reaction.subject.type,
      subject: reaction.subject.id,
      user: reaction.userId,
      content: reaction.content,
    };
    const inserted = await this.db.get<ReactionRecord>(
      `INSERT INTO reactions (subject_type, subject_id, user_id, content, created_at)
       VALUES (@type, @subject, @user, @content, @at)
       ON CONFLICT (subject_type, subject_id, user_id, content) DO NOTHING RETURNING *`,
      { ...key, at: this.db.values.time(reaction.createdAt) },
    );
    if (inserted) return { row: toReaction(inserted), created: true };
    const found = await this.db.get<ReactionRecord>(
      `SELECT * FROM reactions
       WHERE subject_type = @type AND subject_id = @subject AND user_id = @user AND content = @content`,
      key,
    );
    return { row: toReaction(found!), created: false };
  }

  async find(subject: ReactionSubject, id: number): Promise<ReactionRow | null> {
    const row = await this.db.get<ReactionRecord>(
      "SELECT * FROM reactions WHERE id = @id AND subject_type = @type AND subject_id = @subject",
      { id, type: subject.type, subject: subject.id },
    );
    return row ? toReaction(row) : null;
  }

  async page(subject: ReactionSubject, content: ReactionContent | undefined, window: PageRequest) {
    const where = ["subject_type = @type", "subject_id = @subject"];
    const parameters: Record<string, unknown> = { type: subject.type, subject: subject.id, ...window };
    if (content !== undefined) {
      where.push("content = @content");
      parameters.content = content;
    }
    const condition = where.join(" AND ");
    const [rows, count] = await Promise.all([
      this.db.all<ReactionRecord>(
        `SELECT * FROM reactions WHERE ${condition} ORDER BY created_at, id LIMIT @limit OFFSET @offset`,
        parameters,
      ),
      this.db.get<{ n: number }>(`SELECT count(*) AS n FROM reactions WHERE ${condition}`, parameters),
    ]);
    return { rows: rows.map(toReaction), total: Number(count!.n) };
  }

  async delete(id: number): Promise<void> {
    await this.db.run("DELETE FROM reactions WHERE id = @id", { id });
  }

  async countsOf(type: ReactionSubject["type"], ids: number[]): Promise<Map<number, ReactionCountsRow>> {
    const bySubject = new Map<number, ReactionCountsRow>(ids.map((id) => [id, {}]));
    if (!ids.length) return bySubject;
    const rows = await this.db.all<{ subject_id: number; content: ReactionContent; n: number }>(
      `SELECT subject_id, content, count(*) AS n FROM reactions
       WHERE subject_type = @type AND ${LISTED[this.db.dialect]("subject_id")} GROUP BY subject_id, content`,
      { type, list: listParameter(this.db.dialect, ids) },
    );
    for (const row of rows) {
      const counts = bySubject.get(Number(row.subject_id));
      if (counts) counts[row.content] = Number(row.n);
    }
    return bySubject;
  }
}
