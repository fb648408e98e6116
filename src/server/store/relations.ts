/**
 * Stars, subscriptions and follows (relation-store.ts), written once over the executor. A write is one statement
 * whose changed-row count says whether it changed anything, so that an action makes its event and webhooks only for
 * a change, as GitHub does (starring a starred repository makes nothing). Migration 6's triggers on `watches` and
 * `follows` raise the received-feed numbers in the same transaction.
 */
import type { RepoRow } from "./directory-store.js";
import { toRepo, type RepoRecord } from "./directory.js";
import type { Executor } from "./executor.js";
import { READABLE_REPOS, type Dialect } from "./feed-sql.js";
import type { Page, PageRequest } from "./page.js";
import type {
  PrivateReader,
  RelationStore,
  StargazerRow,
  StarRow,
  StarSort,
  SubscriptionRow,
} from "./relation-store.js";
import { date, type Bool, type Time } from "./sql-values.js";
import type { UserRow } from "./user-store.js";
import { toUser, type UserRecord } from "./users.js";

/** A star from history has no `starred_at`: it sorts as the oldest, in each dialect's own time type. */
const EPOCH: Record<Dialect, string> = {
  sqlite: "'1970-01-01T00:00:00.000Z'",
  postgres: "'epoch'::timestamptz",
};

/**
 * The time of the WatchEvent that made a star from history (epoch seconds, as events keep it): GitHub's star+json
 * answers a time for every star, and history's is the event's.
 */
const WATCH_EVENT_AT = `CASE WHEN w.starred_at IS NULL THEN (SELECT min(e.created_at) FROM events e
    WHERE e.repo_id = w.repo_id AND e.actor_id = w.user_id AND e.type = 'WatchEvent') END`;

/** What a list of repositories shows of private ones: those the reader reads, or none. */
const visible = (reader: PrivateReader) =>
  reader === null ? "NOT r.private" : `(NOT r.private OR r.id IN (${READABLE_REPOS}))`;

interface StarRecord extends RepoRecord {
  starred_at: Time | null;
  event_at: number | null;
}

interface StargazerRecord extends UserRecord {
  starred_at: Time | null;
  event_at: number | null;
}

interface SubscriptionRecord {
  user_id: number;
  repo_id: number;
  subscribed: Bool;
  ignored: Bool;
  created_at: Time;
}

const seconds = (value: number | null) => (value === null ? null : new Date(Number(value) * 1000));
const starredAt = (value: Time | null) => (value === null ? null : date(value));

const toSubscription = (r: SubscriptionRecord): SubscriptionRow => ({
  userId: Number(r.user_id),
  repoId: Number(r.repo_id),
  subscribed: Boolean(r.subscribed),
  ignored: Boolean(r.ignored),
  createdAt: date(r.created_at),
});

export class Relations implements RelationStore {
  constructor(private readonly db: Executor) {}

  /** One page of `select` (which ends before ORDER BY) and the count of `from`, with the same parameters. */
  private async page<R, T>(
    select: string,
    from: string,
    order: string,
    parameters: Record<string, unknown>,
    window: PageRequest,
    map: (r: R) => T,
  ): Promise<Page<T>> {
    const all = { ...parameters, limit: window.limit, offset: window.offset };
    const [rows, count] = await Promise.all([
      this.db.all<R>(`${select} ${from} ORDER BY ${order} LIMIT @limit OFFSET @offset`, all),
      this.db.get<{ n: number }>(`SELECT count(*) AS n ${from}`, all),
    ]);
    return { rows: rows.map(map), total: Number(count!.n) };
  }

  async star(userId: number, repoId: number, at: Date): Promise<boolean> {
    const { changes } = await this.db.run(
      `INSERT INTO watches (user_id, repo_id, starred_at) VALUES (@user, @repo, @at)
       ON CONFLICT (user_id, repo_id) DO NOTHING`,
      { user: userId, repo: repoId, at: this.db.values.time(at) },
    );
    return changes > 0;
  }

  async unstar(userId: number, repoId: number): Promise<boolean> {
    const sql = "DELETE FROM watches WHERE user_id = @user AND repo_id = @repo";
    return (await this.db.run(sql, { user: userId, repo: repoId })).changes > 0;
  }

  async hasStarred(userId: number, repoId: number): Promise<boolean> {
    const sql = "SELECT 1 AS ok FROM watches WHERE user_id = @user AND repo_id = @repo";
    return (await this.db.get(sql, { user: userId, repo: repoId })) !== undefined;
  }

  async starred(
    userId: number,
    order: { sort: StarSort; direction: "asc" | "desc"; reader: PrivateReader },
    window: PageRequest,
  ): Promise<Page<StarRow>> {
    const direction = order.direction === "asc" ? "ASC" : "DESC";
    const by =
      order.sort === "created"
        ? `coalesce(w.starred_at, ${EPOCH[this.db.dialect]})`
        : "coalesce((SELECT max(e.created_at) FROM events e WHERE e.repo_id = w.repo_id), 0)";
    return this.page<StarRecord, StarRow>(
      `SELECT r.*, u.login AS owner_login, w.starred_at, ${WATCH_EVENT_AT} AS event_at`,
      `FROM watches w JOIN repos r ON r.id = w.repo_id JOIN users u ON u.id = r.owner_id
       WHERE w.user_id = @user AND ${visible(order.reader)}`,
      `${by} ${direction}, w.repo_id ${direction}`,
      { user: userId, reader: order.reader ?? -1 },
      window,
      (r) => ({ repo: toRepo(r), starredAt: starredAt(r.starred_at), eventAt: seconds(r.event_at) }),
    );
  }

  async stargazers(repoId: number, window: PageRequest): Promise<Page<StargazerRow>> {
    return this.page<StargazerRecord, StargazerRow>(
      `SELECT u.*, w.starred_at, ${WATCH_EVENT_AT} AS event_at`,
      "FROM watches w JOIN users u ON u.id = w.user_id WHERE w.repo_id = @repo",
      `coalesce(w.starred_at, ${EPOCH[this.db.dialect]}), w.user_id`,
      { repo: repoId },
      window,
      (r) => ({ user: toUser(r), starredAt: starredAt(r.starred_at), eventAt: seconds(r.event_at) }),
    );
  }

  async subscription(userId: number, repoId: number): Promise<SubscriptionRow | null> {
    const r = await this.db.get<SubscriptionRecord>(
      "SELECT * FROM subscriptions WHERE user_id = @user AND repo_id = @repo",
      { user: userId, repo: repoId },
    );
    return r ? toSubscription(r) : null;
  }

  async setSubscription(row: SubscriptionRow): Promise<SubscriptionRow> {
    const { values } = this.db;
    const r = await this.db.get<SubscriptionRecord>(
      `INSERT INTO subscriptions (user_id, repo_id, subscribed, ignored, created_at)
       VALUES (@user, @repo, @subscribed, @ignored, @at)
       ON CONFLICT (user_id, repo_id) DO UPDATE SET subscribed = excluded.subscribed, ignored = excluded.ignored
       RETURNING *`,
      {
        user: row.userId,
        repo: row.repoId,
        subscribed: values.bool(row.subscribed),
        ignored: values.bool(row.ignored),
        at: values.time(row.createdAt),
      },
    );
    return toSubscription(r!);
  }

  async deleteSubscription(userId: number, repoId: number): Promise<boolean> {
    const sql = "DELETE FROM subscriptions WHERE user_id = @user AND repo_id = @repo";
    return (await this.db.run(sql, { user: userId, repo: repoId })).changes > 0;
  }

  async subscribers(repoId: number, window: PageRequest): Promise<Page<UserRow>> {
    return this.page<UserRecord, UserRow>(
      "SELECT u.*",
      "FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE s.repo_id = @repo AND s.subscribed",
      "s.created_at, s.user_id",
      { repo: repoId },
      window,
      toUser,
    );
  }

  async subscriptions(userId: number, reader: PrivateReader, window: PageRequest): Promise<Page<RepoRow>> {
    return this.page<RepoRecord, RepoRow>(
      "SELECT r.*, u.login AS owner_login",
      `FROM subscriptions s JOIN repos r ON r.id = s.repo_id JOIN users u ON u.id = r.owner_id
       WHERE s.user_id = @user AND s.subscribed AND ${visible(reader)}`,
      "s.created_at, s.repo_id",
      { user: userId, reader: reader ?? -1 },
      window,
      toRepo,
    );
  }

  async follow(followerId: number, followeeId: number): Promise<boolean> {
    const { changes } = await this.db.run(
      `INSERT INTO follows (follower_id, followee_id) VALUES (@follower, @followee)
       ON CONFLICT (follower_id, followee_id) DO NOTHING`,
      { follower: followerId, followee: followeeId },
    );
    return changes > 0;
  }

  async unfollow(followerId: number, followeeId: number): Promise<boolean> {
    const sql = "DELETE FROM follows WHERE follower_id = @follower AND followee_id = @followee";
    return (await this.db.run(sql, { follower: followerId, followee: followeeId })).changes > 0;
  }

  async follows(followerId: number, followeeId: number): Promise<boolean> {
    const sql = "SELECT 1 AS ok FROM follows WHERE follower_id = @follower AND followee_id = @followee";
    return (await this.db.get(sql, { follower: followerId, followee: followeeId })) !== undefined;
  }

  async followers(accountId: number, window: PageRequest): Promise<Page<UserRow>> {
    return this.page<UserRecord, UserRow>(
      "SELECT u.*",
      "FROM follows f JOIN users u ON u.id = f.follower_id WHERE f.followee_id = @id",
      "f.follower_id",
      { id: accountId },
      window,
      toUser,
    );
  }

  async following(accountId: number, window: PageRequest): Promise<Page<UserRow>> {
    return this.page<UserRecord, UserRow>(
      "SELECT u.*",
      "FROM follows f JOIN users u ON u.id = f.followee_id WHERE f.follower_id = @id",
      "f.followee_id",
      { id: accountId },
      window,
      toUser,
    );
  }
}
