/** Feed queries in PostgreSQL: the shared feed SQL, run in one REPEATABLE READ snapshot per page. */
import type pg from "pg";
import { feedStatements, GENERATION, scopeParameters, SCOPES, visibilitySql } from "../feed-sql.js";
import type { EventScope, EventStore, FeedPage, FeedRequest, StoredEvent } from "../store.js";
import { named, transaction } from "./pool.js";

interface EventRecord {
  body: string; complete: boolean; created_at: number;
  actor_wire_id: number | null; repo_wire_id: number | null; org_wire_id: number | null;
}

const toStored = (r: EventRecord): StoredEvent => ({
  body: r.body, complete: r.complete, createdAt: new Date(r.created_at * 1000),
  actorWireId: r.actor_wire_id, repoWireId: r.repo_wire_id, orgWireId: r.org_wire_id,
});

export class PostgresEvents implements EventStore {
  constructor(private readonly pool: pg.Pool) {}

  async generation(): Promise<number> {
    const { rows } = await this.pool.query<{ generation: number }>(GENERATION);
    return rows[0]!.generation;
  }

  private run(table: "events" | "issue_events", where: string, parameters: Record<string, number>,
    request: Omit<FeedRequest, "visibility">): Promise<FeedPage> {
    const sql = feedStatements("postgres", table, where);
    const filter = { ...parameters, notBefore: request.notBefore ? Math.floor(request.notBefore.getTime() / 1000) : 0 };
    return transaction(this.pool, async (client) => {
      const page = await client.query<EventRecord>(named(sql.page, { ...filter, limit: request.limit, offset: request.offset }));
      const count = await client.query<{ n: string }>(named(sql.count, filter));
      const newest = await client.query<{ created_at: number }>(named(sql.newest, filter));
      return {
        rows: page.rows.map(toStored),
        total: Number(count.rows[0]!.n),
        newest: newest.rows[0] ? new Date(newest.rows[0].created_at * 1000) : null,
      };
    }, "REPEATABLE READ");
  }

  async feed(scope: EventScope, request: FeedRequest): Promise<FeedPage> {
    const where = `${SCOPES[scope.kind]} AND ${visibilitySql("postgres", request.visibility.kind)}`;
    const parameters: Record<string, number> = scopeParameters(scope);
    if (request.visibility.kind === "readable-by") parameters.reader = request.visibility.userId;
    return this.run("events", where, parameters, request);
  }

  async issueFeed(repoId: number, request: Omit<FeedRequest, "visibility">): Promise<FeedPage> {
    return this.run("issue_events", "e.repo_id = @repo", { repo: repoId }, request);
  }
}
