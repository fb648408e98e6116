/**
 * `GET /search/issues` over the stored issues, written once over the executor: the visible repositories (public,
 * and private ones the reader may read), then every condition of the parsed query (services/search/issue-query.ts,
 * its logins and repositories already resolved to ids).
 */
import type { Executor } from "./executor.js";
import type { Dialect } from "./feed-sql.js";
import type { IssueRow } from "./issue-store.js";
import { toIssue, type IssueRecord } from "./issues.js";
import type { Page } from "./page.js";

export interface IssueSearch {
  /** Only these repositories (`repo:`); undefined: any visible. */
  repoIds?: number[];
  /** Only repositories these accounts own (`org:`, `user:`). */
  ownerIds?: number[];
  /**
   * Only repositories this user owns or collaborates on, and with `organizations` those of the organizations the user
   * belongs to (`GET /issues` and `/user/issues`).
   */
  relatedTo?: { userId: number; organizations: boolean };
  /** Only issues this user is in: authored, assigned, mentioned in, or commented on (`filter=subscribed`). */
  involves?: { userId: number; login: string };
  /** Pull requests are issues too on GitHub; none are stored yet, so `is:pr` matches nothing. */
  kind: "issue" | "pr" | null;
  state: "open" | "closed" | null;
  locked: boolean | null;
  labels: string[];
  authorId?: number;
  assigneeId?: number;
  mentions?: string;
  milestone?: string;
  without: ("label" | "assignee" | "milestone")[];
  in: ("title" | "body" | "comments")[];
  words: string[];
  times: {
    field: "created" | "updated" | "closed";
    from?: { at: Date; inclusive: boolean };
    to?: { at: Date; inclusive: boolean };
  }[];
  sort: "created" | "updated" | "comments" | null;
  order: "asc" | "desc";
}

/** Who reads: private repositories are searched only for a reader that may read them (`private`: the token allows). */
export interface SearchReader {
  userId: number | null;
  private: boolean;
}

export interface IssueSearchStore {
  search(query: IssueSearch, reader: SearchReader, window: { limit: number; offset: number }): Promise<Page<IssueRow>>;
}

const LIST: Record<Dialect, (column: string) => string> = {
  sqlite: (column) => `${column} IN (SELECT value FROM json_each(@{}))`,
  postgres: (column) => `${column} = ANY(@{}::int8[])`,
};

/** What the reader may read, as GitHub's repository roles: owner, collaborator, member of the owning organization. */
const readable = (reader: SearchReader) =>
  reader.userId === null || !reader.private
    ? "NOT r.private"
    : `(NOT r.private OR r.owner_id = @reader
        OR EXISTS (SELECT 1 FROM collaborators c WHERE c.repo_id = r.id AND c.user_id = @reader)
        OR EXISTS (SELECT 1 FROM org_members m WHERE m.org_id = r.owner_id AND m.user_id = @reader))`;

const TIME_COLUMNS = { created: "i.created_at", updated: "i.updated_at", closed: "i.closed_at" } as const;
const SORT_COLUMNS = { created: "i.created_at", updated: "i.updated_at", comments: "i.comments" } as const;

export class IssueSearches implements IssueSearchStore {
  constructor(private readonly db: Executor) {}

  async search(query: IssueSearch, reader: SearchReader, window: { limit: number; offset: number }) {
    const { dialect } = this.db;
    const where: string[] = [readable(reader)];
    const parameters: Record<string, unknown> = { reader: reader.userId ?? -1, ...window };
    let n = 0;
    // Letters only: the PostgreSQL driver's @name placeholders are letters (postgres/pool.ts named()).
    const bind = (value: unknown) => {
      const name = `value${String.fromCharCode(97 + (n % 26)).repeat(1 + Math.floor(n / 26))}`;
      n++;
      parameters[name] = value;
      return `@${name}`;
    };
    const list = (column: string, ids: number[]) =>
      LIST[dialect](column).replace("@{}", bind(dialect === "sqlite" ? JSON.stringify(ids) : ids));
    if (query.repoIds) where.push(list("i.repo_id", query.repoIds));
    if (query.ownerIds) where.push(list("r.owner_id", query.ownerIds));
    if (query.relatedTo) {
      const user = bind(query.relatedTo.userId);
      where.push(`(r.owner_id = ${user}
        OR EXISTS (SELECT 1 FROM collaborators c WHERE c.repo_id = r.id AND c.user_id = ${user})
        ${query.relatedTo.organizations ? `OR EXISTS (SELECT 1 FROM org_members m WHERE m.org_id = r.owner_id AND m.user_id = ${user})` : ""})`);
    }
    if (query.involves) {
      const user = bind(query.involves.userId);
      const mention = bind(`%@${query.involves.login.toLowerCase()}%`);
      where.push(`(i.user_id = ${user}
        OR EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id AND a.user_id = ${user})
        OR lower(coalesce(i.body, '')) LIKE ${mention}
        OR EXISTS (SELECT 1 FROM issue_comments ic WHERE ic.issue_id = i.id AND (ic.user_id = ${user} OR lower(ic.body) LIKE ${mention})))`);
    }
    if (query.kind === "pr") where.push("1 = 0");
    if (query.state) where.push(`i.state = ${bind(query.state)}`);
    if (query.locked !== null) where.push(`i.locked = ${bind(this.db.values.bool(query.locked))}`);
    for (const label of query.labels)
      where.push(`EXISTS (SELECT 1 FROM issue_labels il JOIN labels l ON l.id = il.label_id
        WHERE il.issue_id = i.id AND lower(l.name) = lower(${bind(label)}))`);
    if (query.authorId !== undefined) where.push(`i.user_id = ${bind(query.authorId)}`);
    if (query.assigneeId !== undefined)
      where.push(
        `EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id AND a.user_id = ${bind(query.assigneeId)})`,
      );
    if (query.milestone !== undefined)
      where.push(
        `EXISTS (SELECT 1 FROM milestones ms WHERE ms.id = i.milestone_id AND lower(ms.title) = lower(${bind(query.milestone)}))`,
      );
    if (query.without.includes("label"))
      where.push("NOT EXISTS (SELECT 1 FROM issue_labels il WHERE il.issue_id = i.id)");
    if (query.without.includes("assignee"))
      where.push("NOT EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id)");
    if (query.without.includes("milestone")) where.push("i.milestone_id IS NULL");
    const containing = (pattern: string) => {
      const places = query.in.map((place) =>
        place === "comments"
          ? `EXISTS (SELECT 1 FROM issue_comments ic WHERE ic.issue_id = i.id AND lower(ic.body) LIKE ${pattern} ESCAPE '\\')`
          : `lower(coalesce(i.${place}, '')) LIKE ${pattern} ESCAPE '\\'`,
      );
      return `(${places.join(" OR ")})`;
    };
    if (query.mentions !== undefined) {
      const pattern = bind(`%@${query.mentions.toLowerCase()}%`);
      where.push(`(lower(coalesce(i.body, '')) LIKE ${pattern} OR EXISTS (SELECT 1 FROM issue_comments ic
        WHERE ic.issue_id = i.id AND lower(ic.body) LIKE ${pattern}))`);
    }
    for (const word of query.words) where.push(containing(bind(`%${escapeLike(word.toLowerCase())}%`)));
    for (const range of query.times) {
      const column = TIME_COLUMNS[range.field];
      if (range.from)
        where.push(`${column} ${range.from.inclusive ? ">=" : ">"} ${bind(this.db.values.time(range.from.at))}`);
      if (range.to)
        where.push(`${column} ${range.to.inclusive ? "<=" : "<"} ${bind(this.db.values.time(range.to.at))}`);
    }
    const condition = where.join(" AND ");
    const from = "FROM issues i JOIN repos r ON r.id = i.repo_id";
    // GitHub's "best match" without a sort: the most recently updated first, here. Ties (issues made in one second)
    // go the way asked too, as the repository's issue list sends them: sort=created&order=asc is the order of creation.
    const direction = query.order === "asc" ? "ASC" : "DESC";
    const order = `${SORT_COLUMNS[query.sort ?? "updated"]} ${direction}, i.id ${direction}`;
    const [rows, count] = await Promise.all([
      this.db.all<IssueRecord>(
        `SELECT i.* ${from} WHERE ${condition} ORDER BY ${order} LIMIT @limit OFFSET @offset`,
        parameters,
      ),
      this.db.get<{ n: number }>(`SELECT count(*) AS n ${from} WHERE ${condition}`, parameters),
    ]);
    return { rows: rows.map(toIssue), total: Number(count!.n) };
  }
}

/** A word searched for literally: LIKE's wildcards in it match themselves, escaped with the `\` each LIKE names. */
function escapeLike(word: string): string {
  return word.replace(/[\\%_]/g, (c) => `\\${c}`);
}
