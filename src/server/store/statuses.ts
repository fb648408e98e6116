/**
 * Commit statuses, written once over the executor. A context is compared as given: GitHub documents it as
 * case-insensitive for the combined view, which groups contexts by their lowered form on both drivers.
 */
import type { Executor } from "./executor.js";
import type { PageRequest } from "./page.js";
import { date, type Time } from "./sql-values.js";
import type { CommitStatusRow, NewCommitStatus, StatusState, StatusStore } from "./status-store.js";

interface StatusRecord {
  id: number | string;
  repo_id: number | string;
  sha: string;
  context: string;
  state: string;
  target_url: string | null;
  description: string | null;
  creator_id: number | string | null;
  created_at: Time;
  updated_at: Time;
}

const toStatus = (r: StatusRecord): CommitStatusRow => ({
  id: Number(r.id),
  repoId: Number(r.repo_id),
  sha: r.sha,
  context: r.context,
  state: r.state as StatusState,
  targetUrl: r.target_url,
  description: r.description,
  creatorId: r.creator_id === null ? null : Number(r.creator_id),
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
});

/** The newest status of each context of one commit (the highest id is the newest: ids only grow). */
const LATEST_IDS = `SELECT max(id) AS id FROM commit_statuses WHERE repo_id = @repo AND sha = @sha
  GROUP BY lower(context)`;

export class Statuses implements StatusStore {
  constructor(private readonly db: Executor) {}

  async insert(status: NewCommitStatus, now: Date): Promise<CommitStatusRow> {
    const at = this.db.values.time(now);
    const row = await this.db.get<StatusRecord>(
      `INSERT INTO commit_statuses (repo_id, sha, context, state, target_url, description, creator_id, created_at,
         updated_at)
       VALUES (@repo, @sha, @context, @state, @targetUrl, @description, @creator, @at, @at) RETURNING *`,
      {
        repo: status.repoId,
        sha: status.sha,
        context: status.context,
        state: status.state,
        targetUrl: status.targetUrl,
        description: status.description,
        creator: status.creatorId,
        at,
      },
    );
    return toStatus(row!);
  }

  async page(repoId: number, sha: string, window: PageRequest) {
    const where = { repo: repoId, sha };
    const [rows, count] = await Promise.all([
      this.db.all<StatusRecord>(
        `SELECT * FROM commit_statuses WHERE repo_id = @repo AND sha = @sha ORDER BY id DESC
         LIMIT @limit OFFSET @offset`,
        { ...where, ...window },
      ),
      this.db.get<{ n: number }>(
        "SELECT count(*) AS n FROM commit_statuses WHERE repo_id = @repo AND sha = @sha",
        where,
      ),
    ]);
    return { rows: rows.map(toStatus), total: Number(count!.n) };
  }

  async latest(repoId: number, sha: string): Promise<CommitStatusRow[]> {
    const rows = await this.db.all<StatusRecord>(
      `SELECT s.* FROM commit_statuses s WHERE s.id IN (${LATEST_IDS})
       ORDER BY (SELECT min(f.id) FROM commit_statuses f
         WHERE f.repo_id = s.repo_id AND f.sha = s.sha AND lower(f.context) = lower(s.context))`,
      { repo: repoId, sha },
    );
    return rows.map(toStatus);
  }

  async countInContext(repoId: number, sha: string, context: string): Promise<number> {
    const row = await this.db.get<{ n: number }>(
      `SELECT count(*) AS n FROM commit_statuses WHERE repo_id = @repo AND sha = @sha
         AND lower(context) = lower(@context)`,
      { repo: repoId, sha, context },
    );
    return Number(row!.n);
  }
}
