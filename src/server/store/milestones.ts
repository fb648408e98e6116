/**
 * Milestones, written once over the executor. A milestone's number is the repository's next, read in the action's
 * write transaction (which no other writer enters); its issue counts are counted on each read, so that no issue
 * action has to keep them.
 */
import type { Executor } from "./executor.js";
import type {
  MilestoneChanges,
  MilestoneFilter,
  MilestoneRow,
  MilestoneStore,
  NewMilestone,
} from "./milestone-store.js";
import { holdsNul } from "./nul.js";
import type { PageRequest } from "./page.js";
import { date, type Time } from "./sql-values.js";

interface MilestoneRecord {
  id: number;
  repo_id: number;
  number: number;
  title: string;
  description: string | null;
  state: "open" | "closed";
  creator_id: number;
  due_on: Time | null;
  created_at: Time;
  updated_at: Time;
  closed_at: Time | null;
  open_issues: number;
  closed_issues: number;
}

const toMilestone = (r: MilestoneRecord): MilestoneRow => ({
  id: Number(r.id),
  repoId: Number(r.repo_id),
  number: Number(r.number),
  title: r.title,
  description: r.description,
  state: r.state,
  creatorId: Number(r.creator_id),
  dueOn: r.due_on === null ? null : date(r.due_on),
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
  closedAt: r.closed_at === null ? null : date(r.closed_at),
  openIssues: Number(r.open_issues),
  closedIssues: Number(r.closed_issues),
});

const COUNTED = `(SELECT count(*) FROM issues i WHERE i.milestone_id = m.id AND i.state = 'open') AS open_issues,
  (SELECT count(*) FROM issues i WHERE i.milestone_id = m.id AND i.state = 'closed') AS closed_issues`;
const SELECT = `SELECT * FROM (SELECT m.*, ${COUNTED} FROM milestones m) AS m`;

/** The orders GitHub offers; a milestone without a due date comes after those with one, either way. */
const ORDER: Record<MilestoneFilter["sort"], (direction: string) => string> = {
  due_on: (d) => `(m.due_on IS NULL), m.due_on ${d}, m.number ${d}`,
  completeness: (d) =>
    `CASE WHEN m.open_issues + m.closed_issues = 0 THEN 0.0
       ELSE m.closed_issues * 1.0 / (m.open_issues + m.closed_issues) END ${d}, m.number ${d}`,
};

/** The columns of MilestoneChanges, by property. */
const CHANGE_COLUMNS = {
  title: "title",
  description: "description",
  state: "state",
  dueOn: "due_on",
  closedAt: "closed_at",
  updatedAt: "updated_at",
} as const satisfies Record<keyof MilestoneChanges, string>;

export class Milestones implements MilestoneStore {
  constructor(private readonly db: Executor) {}

  private async one(where: string, parameters: Record<string, unknown>): Promise<MilestoneRow | null> {
    const row = await this.db.get<MilestoneRecord>(`${SELECT} WHERE ${where}`, parameters);
    return row ? toMilestone(row) : null;
  }

  async page(filter: MilestoneFilter, window: PageRequest) {
    const where = ["m.repo_id = @repo"];
    const parameters: Record<string, unknown> = { repo: filter.repoId, ...window };
    if (filter.state !== "all") {
      where.push("m.state = @state");
      parameters.state = filter.state;
    }
    const condition = where.join(" AND ");
    const direction = filter.direction === "desc" ? "DESC" : "ASC";
    const [rows, count] = await Promise.all([
      this.db.all<MilestoneRecord>(
        `${SELECT} WHERE ${condition} ORDER BY ${ORDER[filter.sort](direction)} LIMIT @limit OFFSET @offset`,
        parameters,
      ),
      this.db.get<{ n: number }>(`SELECT count(*) AS n FROM milestones m WHERE ${condition}`, parameters),
    ]);
    return { rows: rows.map(toMilestone), total: Number(count!.n) };
  }

  find(repoId: number, number: number) {
    return this.one("m.repo_id = @repo AND m.number = @number", { repo: repoId, number });
  }

  async byIds(ids: number[]): Promise<Map<number, MilestoneRow>> {
    const byId = new Map<number, MilestoneRow>();
    // Few per page (most issues share one or have none): one look-up each, in the order asked.
    for (const id of new Set(ids)) {
      const row = await this.one("m.id = @id", { id });
      if (row) byId.set(id, row);
    }
    return byId;
  }

  async titled(repoId: number, title: string) {
    if (this.db.dialect === "postgres" && holdsNul(title)) return null;
    return this.one("m.repo_id = @repo AND m.title = @title", { repo: repoId, title });
  }

  async insert(milestone: NewMilestone): Promise<MilestoneRow> {
    const at = this.db.values.time(milestone.at);
    const row = await this.db.get<{ id: number }>(
      `INSERT INTO milestones (repo_id, number, title, description, state, creator_id, due_on, created_at, updated_at,
         closed_at)
       VALUES (@repo, (SELECT coalesce(max(number), 0) + 1 FROM milestones WHERE repo_id = @repo), @title, @description,
         @state, @creator, @dueOn, @at, @at, @closedAt)
       RETURNING id`,
      {
        repo: milestone.repoId,
        title: milestone.title,
        description: milestone.description,
        state: milestone.state,
        creator: milestone.creatorId,
        dueOn: milestone.dueOn && this.db.values.time(milestone.dueOn),
        at,
        closedAt: milestone.state === "closed" ? at : null,
      },
    );
    return (await this.one("m.id = @id", { id: row!.id }))!;
  }

  async update(id: number, changes: MilestoneChanges): Promise<MilestoneRow> {
    const sets: string[] = [];
    const parameters: Record<string, unknown> = { id };
    for (const [key, column] of Object.entries(CHANGE_COLUMNS) as [keyof MilestoneChanges, string][]) {
      const value = changes[key];
      if (value === undefined) continue;
      sets.push(`${column} = @${key}`);
      parameters[key] = value instanceof Date ? this.db.values.time(value) : value;
    }
    await this.db.run(`UPDATE milestones SET ${sets.join(", ")} WHERE id = @id`, parameters);
    return (await this.one("m.id = @id", { id }))!;
  }

  async delete(id: number): Promise<void> {
    await this.db.run("UPDATE issues SET milestone_id = NULL WHERE milestone_id = @id", { id });
    await this.db.run("DELETE FROM milestones WHERE id = @id", { id });
  }
}
