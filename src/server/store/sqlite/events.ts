/**
 * Feed queries in SQLite: the shared feed SQL (store/feed-sql.ts), one indexed query per page, newest first
 * with the event id breaking ties, so the order is stable across pages. Statements are prepared once per shape.
 */
import type Database from "better-sqlite3";
import { feedStatements, GENERATION, scopeParameters, SCOPES, visibilitySql } from "../feed-sql.js";
import type { EventScope, EventStore, FeedPage, FeedRequest, StoredEvent } from "../store.js";

interface EventRecord {
  body: string; complete: number; created_at: number;
  actor_wire_id: number | null; repo_wire_id: number | null; org_wire_id: number | null;
}

type Parameters = Record<string, number>;

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
  private readonly generationStatement;

  constructor(private readonly db: Database.Database) {
    this.generationStatement = db.prepare<[], { generation: number }>(GENERATION);
  }

  async generation(): Promise<number> {
    return this.generationStatement.get()!.generation;
  }

  private prepared(table: "events" | "issue_events", where: string): FeedStatements {
    const key = `${table}|${where}`;
    let statements = this.statements.get(key);
    if (!statements) {
      const sql = feedStatements("sqlite", table, where);
      statements = { page: this.db.prepare(sql.page), count: this.db.prepare(sql.count), newest: this.db.prepare(sql.newest) };
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
    const where = `${SCOPES[scope.kind]} AND ${visibilitySql("sqlite", request.visibility.kind)}`;
    const parameters: Parameters = scopeParameters(scope);
    if (request.visibility.kind === "readable-by") parameters.reader = request.visibility.userId;
    return this.run(this.prepared("events", where), parameters, request);
  }

  async issueFeed(repoId: number, request: Omit<FeedRequest, "visibility">): Promise<FeedPage> {
    return this.run(this.prepared("issue_events", "e.repo_id = @repo"), { repo: repoId }, request);
  }
}
