/**
 * Issues, their labels and assignees, written once over the executor. An issue's number is the repository's next,
 * read in the action's write transaction (which no other writer enters), so two issues never share one.
 */
import type { Executor } from "./executor.js";
import type { Dialect } from "./feed-sql.js";
import type { IssueChanges, IssueFilter, IssueHas, IssueRow, IssueStore, LabelRow, NewIssue } from "./issue-store.js";
import { BY_NAME } from "./name-order.js";
import { date, type Bool, type Time } from "./sql-values.js";

export interface IssueRecord {
  id: number;
  repo_id: number;
  number: number;
  user_id: number;
  title: string;
  body: string | null;
  state: "open" | "closed";
  state_reason: string | null;
  locked: Bool;
  lock_reason: string | null;
  milestone_id: number | null;
  comments: number;
  closed_at: Time | null;
  closed_by_id: number | null;
  created_at: Time;
  updated_at: Time;
}

interface LabelRecord {
  id: number;
  repo_id: number;
  name: string;
  color: string;
  description: string | null;
  is_default: Bool;
}

export const toIssue = (r: IssueRecord): IssueRow => ({
  id: Number(r.id),
  repoId: Number(r.repo_id),
  number: Number(r.number),
  userId: Number(r.user_id),
  title: r.title,
  body: r.body,
  state: r.state,
  stateReason: r.state_reason,
  locked: Boolean(r.locked),
  lockReason: r.lock_reason,
  milestoneId: r.milestone_id === null ? null : Number(r.milestone_id),
  comments: Number(r.comments),
  closedAt: r.closed_at === null ? null : date(r.closed_at),
  closedById: r.closed_by_id === null ? null : Number(r.closed_by_id),
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
});

export const toLabel = (r: LabelRecord): LabelRow => ({
  id: Number(r.id),
  repoId: Number(r.repo_id),
  name: r.name,
  color: r.color,
  description: r.description,
  isDefault: Boolean(r.is_default),
});

/**
 * A list of ids or names as one parameter: SQLite reads a JSON array with json_each, PostgreSQL takes an array.
 * `listed(dialect, column, kind)` is the condition `column` is one of `@list`.
 */
export const LISTED: Record<Dialect, (column: string, kind: "int8" | "text") => string> = {
  sqlite: (column) => `${column} IN (SELECT value FROM json_each(@list))`,
  postgres: (column, kind) => `${column} = ANY(@list::${kind}[])`,
};
export const listParameter = (dialect: Dialect, values: readonly (number | string)[]) =>
  dialect === "sqlite" ? JSON.stringify(values) : values;

/** Label names compare case-insensitively, as on GitHub: SQLite's column is NOCASE, PostgreSQL's index is on lower(). */
const NAME_LISTED: Record<Dialect, (column: string) => string> = {
  sqlite: (column) => `${column} IN (SELECT value FROM json_each(@list))`,
  postgres: (column) => `lower(${column}) = ANY(SELECT lower(n) FROM unnest(@list::text[]) AS n)`,
};

const ORDER: Record<IssueFilter["sort"], string> = {
  created: "created_at",
  updated: "updated_at",
  comments: "comments",
};

/** The columns of IssueChanges, by property. */
const CHANGE_COLUMNS = {
  title: "title",
  body: "body",
  state: "state",
  stateReason: "state_reason",
  locked: "locked",
  lockReason: "lock_reason",
  milestoneId: "milestone_id",
  closedAt: "closed_at",
  closedById: "closed_by_id",
  comments: "comments",
  updatedAt: "updated_at",
} as const satisfies Record<keyof IssueChanges, string>;

/** Which of its labels, assignees, reactions and pull request the issue an UPDATE ... RETURNING wrote has. */
const RETURNING_HAS = `
  EXISTS (SELECT 1 FROM issue_labels l WHERE l.issue_id = issues.id) AS labelled,
  EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = issues.id) AS assigned,
  EXISTS (SELECT 1 FROM reactions r WHERE r.subject_type = 'issue' AND r.subject_id = issues.id) AS reacted,
  EXISTS (SELECT 1 FROM pull_requests p WHERE p.issue_id = issues.id) AS pull`;
type HasRecord = IssueRecord & Record<"labelled" | "assigned" | "reacted" | "pull", unknown>;

function withHas({ labelled, assigned, reacted, pull, ...issue }: HasRecord): { issue: IssueRow; has: IssueHas } {
  const has = {
    labels: Boolean(labelled),
    assignees: Boolean(assigned),
    reactions: Boolean(reacted),
    pull: Boolean(pull),
  };
  return { issue: toIssue(issue), has };
}

export class Issues implements IssueStore {
  constructor(private readonly db: Executor) {}

  private listed(column: string, kind: "int8" | "text") {
    return LISTED[this.db.dialect](column, kind);
  }

  async insert(issue: NewIssue): Promise<IssueRow> {
    const at = this.db.values.time(issue.at);
    const row = await this.db.get<IssueRecord>(
      `INSERT INTO issues (repo_id, number, user_id, title, body, state, milestone_id, created_at, updated_at)
       VALUES (@repo, coalesce(@number, (SELECT coalesce(max(number), 0) + 1 FROM issues WHERE repo_id = @repo)), @user, @title, @body,
         'open', @milestone, @at, @at)
       RETURNING *`,
      {
        repo: issue.repoId,
        number: issue.number ?? null,
        user: issue.userId,
        title: issue.title,
        body: issue.body,
        milestone: issue.milestoneId,
        at,
      },
    );
    return toIssue(row!);
  }

  async find(repoId: number, number: number): Promise<IssueRow | null> {
    const row = await this.db.get<IssueRecord>("SELECT * FROM issues WHERE repo_id = @repo AND number = @number", {
      repo: repoId,
      number,
    });
    return row ? toIssue(row) : null;
  }

  async findById(id: number): Promise<IssueRow | null> {
    const row = await this.db.get<IssueRecord>("SELECT * FROM issues WHERE id = @id", { id });
    return row ? toIssue(row) : null;
  }

  async page(filter: IssueFilter, window: { limit: number; offset: number }) {
    const where = ["i.repo_id = @repo"];
    const parameters: Record<string, unknown> = { repo: filter.repoId, ...window };
    if (filter.state !== "all") {
      where.push("i.state = @state");
      parameters.state = filter.state;
    }
    if (filter.creatorId !== undefined) {
      where.push("i.user_id = @creator");
      parameters.creator = filter.creatorId;
    }
    const assigned = "EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id";
    if (filter.assignee === "none") where.push(`NOT ${assigned})`);
    else if (filter.assignee === "*") where.push(`${assigned})`);
    else if (filter.assignee !== undefined) {
      where.push(`${assigned} AND a.user_id = @assignee)`);
      parameters.assignee = filter.assignee;
    }
    if (filter.milestone === "none") where.push("i.milestone_id IS NULL");
    else if (filter.milestone === "*") where.push("i.milestone_id IS NOT NULL");
    else if (filter.milestone !== undefined) {
      where.push("i.milestone_id = @milestone");
      parameters.milestone = filter.milestone;
    }
    if (filter.labels?.length) {
      // Every label named: as many of them on the issue as were named (names are unique per repository).
      where.push(`(SELECT count(*) FROM issue_labels il JOIN labels l ON l.id = il.label_id
        WHERE il.issue_id = i.id AND ${NAME_LISTED[this.db.dialect]("l.name")}) = @labelCount`);
      parameters.list = listParameter(this.db.dialect, filter.labels);
      parameters.labelCount = new Set(filter.labels.map((l) => l.toLowerCase())).size;
    }
    if (filter.mentioned !== undefined) {
      where.push(`(lower(coalesce(i.body, '')) LIKE @mention OR lower(i.title) LIKE @mention OR EXISTS (
        SELECT 1 FROM issue_comments c WHERE c.issue_id = i.id AND lower(c.body) LIKE @mention))`);
      parameters.mention = `%@${filter.mentioned.toLowerCase()}%`;
    }
    if (filter.since !== undefined) {
      where.push("i.updated_at >= @since");
      parameters.since = this.db.values.time(filter.since);
    }
    const direction = filter.direction === "asc" ? "ASC" : "DESC";
    const condition = where.join(" AND ");
    // One after another: on a transaction's executor the two would overlap on its one connection.
    const rows = await this.db.all<IssueRecord>(
      `SELECT i.* FROM issues i WHERE ${condition}
       ORDER BY i.${ORDER[filter.sort]} ${direction}, i.number ${direction} LIMIT @limit OFFSET @offset`,
      parameters,
    );
    const count = await this.db.get<{ n: number }>(`SELECT count(*) AS n FROM issues i WHERE ${condition}`, parameters);
    return { rows: rows.map(toIssue), total: Number(count!.n) };
  }

  async update(id: number, changes: IssueChanges): Promise<IssueRow> {
    const sets: string[] = [];
    const parameters: Record<string, unknown> = { id };
    for (const [key, column] of Object.entries(CHANGE_COLUMNS) as [keyof IssueChanges, string][]) {
      const value = changes[key];
      if (value === undefined) continue;
      sets.push(`${column} = @${key}`);
      parameters[key] =
        value instanceof Date
          ? this.db.values.time(value)
          : typeof value === "boolean"
            ? this.db.values.bool(value)
            : value;
    }
    const row = await this.db.get<IssueRecord>(
      `UPDATE issues SET ${sets.join(", ")} WHERE id = @id RETURNING *`,
      parameters,
    );
    return toIssue(row!);
  }

  async commentAdded(
    repoId: number,
    number: number,
    at: Date,
    evenLocked: boolean,
  ): Promise<{ issue: IssueRow; has: IssueHas } | null> {
    const row = await this.db.get<HasRecord>(
      `UPDATE issues SET comments = comments + 1, updated_at = @at
       WHERE repo_id = @repoId AND number = @number AND (NOT locked OR @evenLocked) RETURNING *, ${RETURNING_HAS}`,
      { repoId, number, at: this.db.values.time(at), evenLocked: this.db.values.bool(evenLocked) },
    );
    return row ? withHas(row) : null;
  }

  async touched(id: number, at: Date): Promise<{ issue: IssueRow; has: IssueHas }> {
    const row = await this.db.get<HasRecord>(
      `UPDATE issues SET updated_at = @at WHERE id = @id RETURNING *, ${RETURNING_HAS}`,
      { id, at: this.db.values.time(at) },
    );
    return withHas(row!);
  }

  async labelsOf(issueIds: number[]): Promise<Map<number, LabelRow[]>> {
    const byIssue = new Map<number, LabelRow[]>(issueIds.map((id) => [id, []]));
    if (!issueIds.length) return byIssue;
    const rows = await this.db.all<LabelRecord & { issue_id: number }>(
      `SELECT il.issue_id, l.* FROM issue_labels il JOIN labels l ON l.id = il.label_id
       WHERE ${this.listed("il.issue_id", "int8")} ORDER BY ${BY_NAME[this.db.dialect]("l.name")}, l.id`,
      { list: listParameter(this.db.dialect, issueIds) },
    );
    for (const row of rows) byIssue.get(Number(row.issue_id))?.push(toLabel(row));
    return byIssue;
  }

  async assigneesOf(issueIds: number[]): Promise<Map<number, number[]>> {
    const byIssue = new Map<number, number[]>(issueIds.map((id) => [id, []]));
    if (!issueIds.length) return byIssue;
    // In the order they were assigned: the rowid (SQLite) or the physical order is no order, so by user id.
    const rows = await this.db.all<{ issue_id: number; user_id: number }>(
      `SELECT issue_id, user_id FROM issue_assignees WHERE ${this.listed("issue_id", "int8")} ORDER BY issue_id, user_id`,
      { list: listParameter(this.db.dialect, issueIds) },
    );
    for (const row of rows) byIssue.get(Number(row.issue_id))?.push(Number(row.user_id));
    return byIssue;
  }

  async labelsNamed(repoId: number, names: string[]): Promise<LabelRow[]> {
    if (!names.length) return [];
    const rows = await this.db.all<LabelRecord>(
      `SELECT * FROM labels WHERE repo_id = @repo AND ${NAME_LISTED[this.db.dialect]("name")} ORDER BY name`,
      {
        repo: repoId,
        list: listParameter(this.db.dialect, names),
      },
    );
    return rows.map(toLabel);
  }

  async insertLabel(label: Omit<LabelRow, "id">): Promise<LabelRow> {
    const row = await this.db.get<LabelRecord>(
      `INSERT INTO labels (repo_id, name, color, description, is_default)
       VALUES (@repo, @name, @color, @description, @isDefault) RETURNING *`,
      {
        repo: label.repoId,
        name: label.name,
        color: label.color,
        description: label.description,
        isDefault: this.db.values.bool(label.isDefault),
      },
    );
    return toLabel(row!);
  }

  async issueEventsOf(repoId: number, number: number, window: { limit: number; offset: number }) {
    const parameters = { repo: repoId, number, ...window };
    const where = "repo_id = @repo AND issue_number = @number";
    const [rows, count] = await Promise.all([
      this.db.all<{ body: string }>(
        `SELECT body FROM issue_events WHERE ${where} ORDER BY created_at, id LIMIT @limit OFFSET @offset`,
        parameters,
      ),
      this.db.get<{ n: number }>(`SELECT count(*) AS n FROM issue_events WHERE ${where}`, parameters),
    ]);
    return { rows: rows.map((r) => r.body), total: Number(count!.n) };
  }

  async addLabels(issueId: number, labelIds: number[]): Promise<void> {
    for (const label of labelIds)
      await this.db.run(
        "INSERT INTO issue_labels (issue_id, label_id) VALUES (@issue, @label) ON CONFLICT (issue_id, label_id) DO NOTHING",
        { issue: issueId, label },
      );
  }

  async removeLabels(issueId: number, labelIds: number[]): Promise<void> {
    if (!labelIds.length) return;
    await this.db.run(`DELETE FROM issue_labels WHERE issue_id = @issue AND ${this.listed("label_id", "int8")}`, {
      issue: issueId,
      list: listParameter(this.db.dialect, labelIds),
    });
  }

  async addAssignees(issueId: number, userIds: number[]): Promise<void> {
    for (const user of userIds)
      await this.db.run(
        "INSERT INTO issue_assignees (issue_id, user_id) VALUES (@issue, @user) ON CONFLICT (issue_id, user_id) DO NOTHING",
        { issue: issueId, user },
      );
  }

  async removeAssignees(issueId: number, userIds: number[]): Promise<void> {
    if (!userIds.length) return;
    await this.db.run(`DELETE FROM issue_assignees WHERE issue_id = @issue AND ${this.listed("user_id", "int8")}`, {
      issue: issueId,
      list: listParameter(this.db.dialect, userIds),
    });
  }
}
