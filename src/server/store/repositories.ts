/**
 * Repositories as their own resource (repository-store.ts), written once over the executor. Names compare
 * case-insensitively, as on GitHub (SQLite's columns are NOCASE; PostgreSQL's indexes are on lower()).
 */
import type { Executor } from "./executor.js";
import type { Dialect } from "./feed-sql.js";
import { READABLE_REPOS } from "./feed-sql.js";
import { REPO_SELECT, toRepo, type RepoRecord } from "./directory.js";
import type { RepoRow } from "./directory-store.js";
import { BY_NAME } from "./name-order.js";
import { holdsNul } from "./nul.js";
import type { PageRequest } from "./page.js";
import type { PrivateReader } from "./relation-store.js";
import type {
  RepoAffiliation,
  ForkSort,
  NewRepository,
  RepoChanges,
  RepoListQuery,
  RepositoryStore,
  RepoSort,
} from "./repository-store.js";

/** The repositories `@user` is related to by each affiliation (an organization's own: `owner`). */
const AFFILIATED: Record<RepoAffiliation, string> = {
  owner: "r.owner_id = @user",
  collaborator: "r.id IN (SELECT repo_id FROM collaborators WHERE user_id = @user)",
  organization_member: "r.owner_id IN (SELECT org_id FROM org_members WHERE user_id = @user)",
};

/** A time column that may be null, as the oldest of times: SQLite keeps ISO text, PostgreSQL timestamptz. */
const OR_OLDEST: Record<Dialect, (column: string) => string> = {
  sqlite: (column) => `coalesce(${column}, '')`,
  postgres: (column) => `coalesce(${column}, 'epoch'::timestamptz)`,
};

/** GitHub's orders; without pushes (no git data yet) `pushed` is `updated`. Row ids follow creation. */
function orderBy(dialect: Dialect, sort: RepoSort, direction: "asc" | "desc"): string {
  const dir = direction === "asc" ? "ASC" : "DESC";
  switch (sort) {
    case "created":
      return `r.id ${dir}`;
    case "full_name":
      return `${BY_NAME[dialect]("u.login")} ${dir}, ${BY_NAME[dialect]("r.name")} ${dir}, r.id ${dir}`;
    default:
      return `${OR_OLDEST[dialect]("r.updated_at")} ${dir}, r.id ${dir}`;
  }
}

const FORK_ORDER: Record<ForkSort, string> = {
  newest: "r.id DESC",
  oldest: "r.id ASC",
  stargazers: "(SELECT count(*) FROM watches w WHERE w.repo_id = r.id) DESC, r.id DESC",
  watchers: "(SELECT count(*) FROM watches w WHERE w.repo_id = r.id) DESC, r.id DESC",
};

/** Public, or readable by `@reader` (null: public only). */
const visibleTo = (reader: PrivateReader) =>
  reader === null ? "NOT r.private" : `(NOT r.private OR r.id IN (${READABLE_REPOS}))`;

const OLD_NAME: Record<Dialect, string> = {
  sqlite: "u.login = @owner AND n.name = @name",
  postgres: "lower(u.login) = lower(@owner) AND lower(n.name) = lower(@name)",
};

/**
 * What only the repository holds, deleted with it, children first. Its events stay, about no stored repository (the
 * feeds of their actor and organization and the public timeline keep showing them); its issue events, which only its
 * own feed shows, go.
 */
const DELETE_HELD = [
  "DELETE FROM reactions WHERE subject_type = 'comment' AND subject_id IN (SELECT id FROM issue_comments WHERE repo_id = @id)",
  "DELETE FROM reactions WHERE subject_type = 'issue' AND subject_id IN (SELECT id FROM issues WHERE repo_id = @id)",
  "DELETE FROM issue_comments WHERE repo_id = @id",
  "DELETE FROM reactions WHERE subject_type = 'commit_comment' AND subject_id IN (SELECT id FROM commit_comments WHERE repo_id = @id)",
  "DELETE FROM commit_comments WHERE repo_id = @id",
  "DELETE FROM branch_protections WHERE repo_id = @id",
  "DELETE FROM issue_labels WHERE issue_id IN (SELECT id FROM issues WHERE repo_id = @id)",
  "DELETE FROM issue_assignees WHERE issue_id IN (SELECT id FROM issues WHERE repo_id = @id)",
  "DELETE FROM pull_request_review_comments WHERE repo_id = @id",
  "DELETE FROM pull_request_reviews WHERE issue_id IN (SELECT issue_id FROM pull_requests WHERE repo_id = @id)",
  "DELETE FROM pull_request_reviewers WHERE issue_id IN (SELECT issue_id FROM pull_requests WHERE repo_id = @id)",
  "DELETE FROM pull_requests WHERE repo_id = @id",
  // A fork's pull requests into another repository stay there, coming from a repository that is gone (GitHub's "unknown repository").
  "UPDATE pull_requests SET head_repo_id = NULL WHERE head_repo_id = @id",
  "DELETE FROM issues WHERE repo_id = @id",
  "DELETE FROM release_assets WHERE release_id IN (SELECT id FROM releases WHERE repo_id = @id)",
  "DELETE FROM releases WHERE repo_id = @id",
  "DELETE FROM labels WHERE repo_id = @id",
  "DELETE FROM milestones WHERE repo_id = @id",
  "DELETE FROM issue_events WHERE repo_id = @id",
  "UPDATE events SET repo_id = NULL WHERE repo_id = @id",
  "DELETE FROM watches WHERE repo_id = @id",
  "DELETE FROM subscriptions WHERE repo_id = @id",
  "DELETE FROM collaborators WHERE repo_id = @id",
  "DELETE FROM repository_invitations WHERE repo_id = @id",
  "DELETE FROM hooks WHERE repo_id = @id",
  "DELETE FROM repo_renames WHERE repo_id = @id",
  "UPDATE repos SET parent_id = NULL WHERE parent_id = @id",
];

export class Repositories implements RepositoryStore {
  constructor(private readonly db: Executor) {}

  private async byId(id: number): Promise<RepoRow> {
    return toRepo((await this.db.get<RepoRecord>(`${REPO_SELECT} WHERE r.id = @id`, { id }))!);
  }

  async insert(repo: NewRepository): Promise<RepoRow> {
    const { settings: s } = repo;
    const { bool, time } = this.db.values;
    const made = await this.db.get<{ id: number }>(
      `INSERT INTO repos (owner_id, name, private, parent_id, network_id, description, homepage, has_issues,
         has_projects, has_wiki, default_branch, archived, created_at, updated_at)
       VALUES (@owner, @name, @private, @parent, @network, @description, @homepage, @issues, @projects, @wiki,
         @branch, @archived, @created, @updated) RETURNING id`,
      {
        owner: repo.ownerId,
        name: repo.name,
        private: bool(repo.private),
        parent: repo.fork?.parentId ?? null,
        network: repo.fork?.networkId ?? 0,
        description: s.description,
        homepage: s.homepage,
        issues: bool(s.hasIssues),
        projects: bool(s.hasProjects),
        wiki: bool(s.hasWiki),
        branch: s.defaultBranch,
        archived: bool(s.archived),
        created: s.createdAt ? time(s.createdAt) : null,
        updated: s.updatedAt ? time(s.updatedAt) : null,
      },
    );
    const id = Number(made!.id);
    if (!repo.fork) await this.db.run("UPDATE repos SET network_id = id WHERE id = @id", { id });
    // The name is its own again: requests naming it reach it, no longer the repository renamed from it.
    await this.db.run(`DELETE FROM repo_renames WHERE owner_id = @owner AND ${this.nameIs("name")}`, {
      owner: repo.ownerId,
      name: repo.name,
    });
    return this.byId(id);
  }

  private nameIs(column: string): string {
    return this.db.dialect === "sqlite" ? `${column} = @name` : `lower(${column}) = lower(@name)`;
  }

  async update(id: number, changes: RepoChanges, at: Date): Promise<RepoRow> {
    const { bool, time } = this.db.values;
    const columns: [string, unknown][] = [
      ["private", changes.private === undefined ? undefined : bool(changes.private)],
      ["description", changes.description],
      ["homepage", changes.homepage],
      ["has_issues", changes.hasIssues === undefined ? undefined : bool(changes.hasIssues)],
      ["has_projects", changes.hasProjects === undefined ? undefined : bool(changes.hasProjects)],
      ["has_wiki", changes.hasWiki === undefined ? undefined : bool(changes.hasWiki)],
      ["default_branch", changes.defaultBranch],
      ["archived", changes.archived === undefined ? undefined : bool(changes.archived)],
    ];
    const set = columns.filter(([, value]) => value !== undefined);
    const parameters = Object.fromEntries(set.map(([column, value]) => [column, value]));
    await this.db.run(
      `UPDATE repos SET ${[...set.map(([column]) => `${column} = @${column}`), "updated_at = @at"].join(", ")}
       WHERE id = @id`,
      { ...parameters, id, at: time(at) },
    );
    return this.byId(id);
  }

  async rename(repo: RepoRow, name: string, at: Date): Promise<RepoRow> {
    const old = repo.fullName.slice(repo.fullName.indexOf("/") + 1);
    const owner = { owner: repo.ownerId };
    await this.db.run(`DELETE FROM repo_renames WHERE owner_id = @owner AND ${this.nameIs("name")}`, {
      ...owner,
      name,
    });
    if (old.toLowerCase() !== name.toLowerCase())
      await this.db.run("INSERT INTO repo_renames (owner_id, name, repo_id) VALUES (@owner, @name, @repo)", {
        ...owner,
        name: old,
        repo: repo.id,
      });
    await this.db.run("UPDATE repos SET name = @name, updated_at = @at WHERE id = @id", {
      id: repo.id,
      name,
      at: this.db.values.time(at),
    });
    return this.byId(repo.id);
  }

  async renamedFrom(owner: string, name: string): Promise<RepoRow | null> {
    if (this.db.dialect === "postgres" && holdsNul(owner, name)) return null;
    const row = await this.db.get<RepoRecord>(
      `${REPO_SELECT} WHERE r.id = (SELECT n.repo_id FROM repo_renames n JOIN users u ON u.id = n.owner_id
         WHERE ${OLD_NAME[this.db.dialect]})`,
      { owner, name },
    );
    return row ? toRepo(row) : null;
  }

  async delete(repo: RepoRow): Promise<void> {
    const id = { id: repo.id };
    for (const sql of DELETE_HELD) await this.db.run(sql, id);
    if (repo.networkId === repo.id) {
      // The oldest fork left roots the network.
      const root = await this.db.get<{ id: number }>(
        "SELECT min(id) AS id FROM repos WHERE network_id = @id AND id <> @id",
        id,
      );
      if (root?.id != null)
        await this.db.run("UPDATE repos SET network_id = @root WHERE network_id = @id AND id <> @id", {
          ...id,
          root: root.id,
        });
    }
    await this.db.run("DELETE FROM repos WHERE id = @id", id);
  }

  async inNetwork(networkId: number, ownerId: number): Promise<RepoRow | null> {
    const row = await this.db.get<RepoRecord>(
      `${REPO_SELECT} WHERE r.network_id = @network AND r.owner_id = @owner ORDER BY r.id LIMIT 1`,
      { network: networkId, owner: ownerId },
    );
    return row ? toRepo(row) : null;
  }

  async forks(repoId: number, order: { sort: ForkSort; reader: PrivateReader }, window: PageRequest) {
    const where = `r.parent_id = @repo AND ${visibleTo(order.reader)}`;
    const parameters = { repo: repoId, reader: order.reader };
    const rows = await this.db.all<RepoRecord>(
      `${REPO_SELECT} WHERE ${where} ORDER BY ${FORK_ORDER[order.sort]} LIMIT @limit OFFSET @offset`,
      { ...parameters, ...window },
    );
    const count = await this.db.get<{ n: number }>(`SELECT count(*) AS n FROM repos r WHERE ${where}`, parameters);
    return { rows: rows.map(toRepo), total: Number(count!.n) };
  }

  async list(query: RepoListQuery, window: PageRequest) {
    const { time } = this.db.values;
    const conditions = [
      `(${query.affiliations.map((a) => AFFILIATED[a]).join(" OR ")})`,
      visibleTo(query.reader),
      ...(query.visibility === "public" ? ["NOT r.private"] : query.visibility === "private" ? ["r.private"] : []),
      ...(query.forks === "forks"
        ? ["r.parent_id IS NOT NULL"]
        : query.forks === "sources"
          ? ["r.parent_id IS NULL"]
          : []),
      ...(query.since ? ["r.updated_at >= @since"] : []),
      ...(query.before ? ["r.updated_at < @before"] : []),
    ];
    const where = conditions.join(" AND ");
    const parameters = {
      user: query.accountId,
      reader: query.reader,
      since: query.since ? time(query.since) : null,
      before: query.before ? time(query.before) : null,
    };
    const rows = await this.db.all<RepoRecord>(
      `${REPO_SELECT} WHERE ${where} ORDER BY ${orderBy(this.db.dialect, query.sort, query.direction)}
       LIMIT @limit OFFSET @offset`,
      { ...parameters, ...window },
    );
    const count = await this.db.get<{ n: number }>(
      `SELECT count(*) AS n FROM repos r JOIN users u ON u.id = r.owner_id WHERE ${where}`,
      parameters,
    );
    return { rows: rows.map(toRepo), total: Number(count!.n) };
  }
}
