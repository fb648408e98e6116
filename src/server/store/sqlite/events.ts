/**
 * Feed queries in SQLite: one indexed query per page, newest first with the event id breaking ties, so the
 * order is stable across pages. Statements are built per feed shape and prepared once.
 */
import type Database from "better-sqlite3";
import type { EventScope, EventStore, FeedPage, FeedRequest, StoredEvent, Visibility } from "../store.js";
import { READABLE_REPOS } from "./directory.js";

interface EventRecord {
  body: string; complete: number; created_at: number;
  actor_wire_id: number | null; repo_wire_id: number | null; org_wire_id: number | null;
}

type Parameters = Record<string, number>;

const SCOPES: Record<EventScope["kind"], string> = {
  all: "1 = 1",
  repo: "e.repo_id = @repo",
  network: "e.repo_id IN (SELECT id FROM repos WHERE network_id = @network)",
  // The organization's repositories, and events GitHub attributed to it (`org` on the event).
  org: "(e.org_id = @org OR e.repo_id IN (SELECT id FROM repos WHERE owner_id = @org))",
  actor: "e.actor_id = @actor",
  received: `(e.actor_id IN (SELECT followee_id FROM follows WHERE follower_id = @user)
              OR e.repo_id IN (SELECT repo_id FROM watches WHERE user_id = @user))`,
};

const VISIBILITY: Record<Visibility["kind"], string> = {
  public: "e.public = 1",
  "readable-by": `(e.public = 1 OR e.repo_id IN (${READABLE_REPOS}))`,
  all: "1 = 1",
};

function scopeParameters(scope: EventScope): Parameters {
  switch (scope.kind) {
    case "all": return {};
    case "repo": return { repo: scope.repoId };
    case "network": return { network: scope.networkId };
    case "org": return { org: scope.orgId };
    case "actor": return { actor: scope.actorId };
    case "received": return { user: scope.userId };
  }
}

// Wire ids are looked up only for events whose envelope must be completed; complete ones cost nothing.
const WIRE_IDS = `
  CASE WHEN e.complete = 0 THEN (SELECT coalesce(external_id, id) FROM users WHERE id = e.actor_id) END AS actor_wire_id,
  CASE WHEN e.complete = 0 THEN (SELECT coalesce(external_id, id) FROM repos WHERE id = e.repo_id) END AS repo_wire_id,
  CASE WHEN e.complete = 0 THEN (SELECT coalesce(external_id, id) FROM users WHERE id = e.org_id) END AS org_wire_id`;

const ISSUE_WIRE_IDS = `
  CASE WHEN e.complete = 0 THEN (SELECT coalesce(external_id, id) FROM users WHERE id = e.actor_id) END AS actor_wire_id,
  NULL AS repo_wire_id, NULL AS org_wire_id`;

const toStored = (r: EventRecord): StoredEvent => ({
  body: r.body, complete: r.complete === 1, createdAt: new Date(r.created_at * 1000),
  actorWireId: r.actor_wire_id, repoWireId: r.repo_wire_id, orgWireId: r.org_wire_id,
});

interface FeedStatements {
  page: Database.Statement<Parameters, EventRecord>;
  count: Database.Statement<Parameters, { n: number }>;
  newest: Database.Statement<Parameters, { created_at: number }>;
}

export class SqliteEvents implements EventStore {
  private readonly statements = new Map<string, FeedStatements>();

  constructor(private readonly db: Database.Database) {}

  private prepared(table: "events" | "issue_events", where: string, wireIds: string): FeedStatements {
    const key = `${table}|${where}`;
    let statements = this.statements.get(key);
    if (!statements) {
      const from = `FROM ${table} e WHERE ${where} AND e.created_at >= @notBefore`;
      statements = {
        page: this.db.prepare(`SELECT e.body, e.complete, e.created_at, ${wireIds} ${from}
          ORDER BY e.created_at DESC, e.id DESC LIMIT @limit OFFSET @offset`),
        count: this.db.prepare(`SELECT count(*) AS n ${from}`),
        newest: this.db.prepare(`SELECT e.created_at ${from} ORDER BY e.created_at DESC, e.id DESC LIMIT 1`),
      };
      this.statements.set(key, statements);
    }
    return statements;
  }

  private run(statements: FeedStatements, parameters: Parameters, request: Omit<FeedRequest, "visibility">): FeedPage {
    const where = { ...parameters, notBefore: request.notBefore ? Math.floor(request.notBefore.getTime() / 1000) : 0 };
    // One read transaction: the page, the total and the newest time describe the same moment.
    return this.db.transaction(() => {
      const newest = statements.newest.get(where);
      return {
        rows: statements.page.all({ ...where, limit: request.limit, offset: request.offset }).map(toStored),
        total: statements.count.get(where)!.n,
        newest: newest ? new Date(newest.created_at * 1000) : null,
      };
    })();
  }

  async feed(scope: EventScope, request: FeedRequest): Promise<FeedPage> {
    const where = `${SCOPES[scope.kind]} AND ${VISIBILITY[request.visibility.kind]}`;
    const parameters: Parameters = { ...scopeParameters(scope) };
    if (request.visibility.kind === "readable-by") parameters.reader = request.visibility.userId;
    return this.run(this.prepared("events", where, WIRE_IDS), parameters, request);
  }

  async issueFeed(repoId: number, request: Omit<FeedRequest, "visibility">): Promise<FeedPage> {
    return this.run(this.prepared("issue_events", "e.repo_id = @repo", ISSUE_WIRE_IDS), { repo: repoId }, request);
  }
}
