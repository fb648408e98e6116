/** Feed queries in PostgreSQL: the shared feed SQL, run in one REPEATABLE READ snapshot per page. */
import pg from "pg";
import {
  ARRIVAL_OF,
  arrivalsSql,
  arrivalWhere,
  countArrivalsSql,
  feedStatements,
  feedWhere,
  INGESTED_SINCE,
  LAST_ARRIVALS,
  RECEIVED_VERSION,
  VERSION,
} from "../feed-sql.js";
import { CHANGES_CHANNEL } from "../migrations/index.js";
import type {
  ArrivalRequest,
  ArrivalTable,
  ArrivedEvent,
  Arrivals,
  EventScope,
  EventStore,
  FeedPage,
  FeedRequest,
  FeedTarget,
  IngestedSince,
  StoredEvent,
  StoreVersion,
} from "../event-store.js";
import { named, transaction } from "./pool.js";
import { SharedReads } from "./shared-reads.js";

interface EventRecord {
  id: string;
  body: string;
  complete: boolean;
  created_at: number;
  actor_wire_id: number | null;
  repo_wire_id: number | null;
  org_wire_id: number | null;
}

const toStored = (r: EventRecord): StoredEvent => ({
  id: r.id,
  body: r.body,
  complete: r.complete,
  createdAt: new Date(r.created_at * 1000),
  actorWireId: r.actor_wire_id,
  repoWireId: r.repo_wire_id,
  orgWireId: r.org_wire_id,
});

/** How long a lost LISTEN connection waits before connecting again (the version checks cover the gap). */
const RELISTEN_MS = 1000;

/** A bound no creation time reaches (created_at is bigint seconds). */
const NO_END = Number.MAX_SAFE_INTEGER;
const secondsOf = (time: Date | null) => (time ? Math.floor(time.getTime() / 1000) : 0);

export class PostgresEvents implements EventStore {
  /** Read by every request: concurrent requests share a read that started after they arrived (shared-reads.ts). */
  private readonly versions = new SharedReads<null, StoreVersion>(
    async () => (await this.pool.query<StoreVersion>(VERSION)).rows[0]!,
  );
  private readonly receivedVersions = new SharedReads<number, number>(async (userId) => {
    const { rows } = await this.pool.query<{ version: number }>(named(RECEIVED_VERSION, { user: userId }));
    return Number(rows[0]!.version);
  });

  constructor(private readonly pool: pg.Pool) {}

  version(): Promise<StoreVersion> {
    return this.versions.get(null);
  }

  receivedVersion(userId: number): Promise<number> {
    return this.receivedVersions.get(userId);
  }

  private run(
    table: "events" | "issue_events",
    where: string | string[],
    parameters: Record<string, number>,
    request: Omit<FeedRequest, "visibility">,
  ): Promise<FeedPage> {
    const sql = feedStatements("postgres", table, where);
    const filter = { ...parameters, notBefore: secondsOf(request.notBefore) };
    return transaction(
      this.pool,
      async (client) => {
        const page = await client.query<EventRecord>(
          named(sql.page, { ...filter, limit: request.limit, offset: request.offset }),
        );
        const count = await client.query<{ n: string }>(named(sql.count, filter));
        const newest = await client.query<{ created_at: number }>(named(sql.newest, filter));
        return {
          rows: page.rows.map(toStored),
          total: Number(count.rows[0]!.n),
          newest: newest.rows[0] ? new Date(newest.rows[0].created_at * 1000) : null,
        };
      },
      "REPEATABLE READ",
    );
  }

  async feed(scope: EventScope, request: FeedRequest): Promise<FeedPage> {
    const { table, where, parameters } = feedWhere("postgres", { scope, visibility: request.visibility });
    return this.run(table, where, parameters, request);
  }

  async issueFeed(repoId: number, request: Omit<FeedRequest, "visibility">): Promise<FeedPage> {
    const { table, where, parameters } = feedWhere("postgres", { issuesOf: repoId });
    return this.run(table, where, parameters, request);
  }

  async feedRows(target: FeedTarget, request: Omit<FeedRequest, "visibility">): Promise<Omit<FeedPage, "total">> {
    const { table, where, parameters } = feedWhere("postgres", target);
    const sql = feedStatements("postgres", table, where);
    const filter = { ...parameters, notBefore: secondsOf(request.notBefore) };
    return transaction(
      this.pool,
      async (client) => {
        const page = await client.query<EventRecord>(
          named(sql.page, { ...filter, limit: request.limit, offset: request.offset }),
        );
        const newest = await client.query<{ created_at: number }>(named(sql.newest, filter));
        return {
          rows: page.rows.map(toStored),
          newest: newest.rows[0] ? new Date(newest.rows[0].created_at * 1000) : null,
        };
      },
      "REPEATABLE READ",
    );
  }

  async countBetween(target: FeedTarget, from: number, until: number | null): Promise<number> {
    const { table, where, parameters } = feedWhere("postgres", target);
    const sql = feedStatements("postgres", table, where);
    const { rows } = await this.pool.query<{ n: number }>(
      named(sql.countUntil, { ...parameters, notBefore: from, until: until ?? NO_END }),
    );
    return Number(rows[0]!.n);
  }

  async timeAtDepth(target: FeedTarget, depth: number, from: number): Promise<number | null> {
    const { table, where, parameters } = feedWhere("postgres", target);
    const sql = feedStatements("postgres", table, where);
    const { rows } = await this.pool.query<{ created_at: number }>(
      named(sql.timeAtDepth, { ...parameters, notBefore: from, depth }),
    );
    return rows[0]?.created_at ?? null;
  }

  async ingestedSince(after: number, upTo: number): Promise<IngestedSince | null> {
    const { rows } = await this.pool.query<{
      n: number;
      oldest_event: number | null;
      oldest_issue_event: number | null;
    }>(named(INGESTED_SINCE, { after, upTo }));
    const found = rows[0]!;
    if (Number(found.n) !== upTo - after) return null;
    return { oldestEvent: found.oldest_event, oldestIssueEvent: found.oldest_issue_event };
  }

  async lastArrivals(): Promise<Arrivals> {
    const { rows } = await this.pool.query<{ events: number; issue_events: number }>(LAST_ARRIVALS);
    return { events: Number(rows[0]!.events), issueEvents: Number(rows[0]!.issue_events) };
  }

  async arrivalOf(table: ArrivalTable, id: string): Promise<number | null> {
    const { rows } = await this.pool.query<{ seq: number }>(named(ARRIVAL_OF[table], { id }));
    return rows[0] ? Number(rows[0].seq) : null;
  }

  async countArrivals(
    target: FeedTarget,
    { after, upTo, from }: { after: number; upTo: number; from: number },
  ): Promise<number> {
    const { table, where, parameters } = arrivalWhere("postgres", target);
    const { rows } = await this.pool.query<{ n: string }>(
      named(countArrivalsSql(table, where), { ...parameters, after, upTo, from }),
    );
    return Number(rows[0]!.n);
  }

  async arrivals(target: FeedTarget, request: ArrivalRequest): Promise<ArrivedEvent[]> {
    const { table, where, parameters } = arrivalWhere("postgres", target);
    const { after, upTo, limit, notBefore } = request;
    const { rows } = await this.pool.query<EventRecord & { seq: number; type: string | null }>(
      named(arrivalsSql("postgres", table, where), {
        ...parameters,
        after,
        upTo,
        limit,
        notBefore: secondsOf(notBefore),
      }),
    );
    return rows.map((r) => ({ ...toStored(r), seq: Number(r.seq), type: r.type }));
  }

  /**
   * A connection of its own, outside the pool (a LISTEN holds its connection for as long as it listens, and the
   * pool's are for requests). A lost connection is opened again after a pause, and `onChange` is called when it
   * is back, since a notification sent meanwhile was lost with it.
   */
  async listenForChanges(onChange: () => void): Promise<() => Promise<void>> {
    let stopped = false;
    let client: pg.Client | undefined;
    let retry: NodeJS.Timeout | undefined;
    const schedule = () => {
      if (!stopped) retry = setTimeout(() => void connect().then(onChange, () => undefined), RELISTEN_MS);
    };
    const connect = async (): Promise<void> => {
      const next = new pg.Client(this.pool.options);
      client = next;
      let gone = false;
      const lost = () => {
        if (gone) return;
        gone = true;
        next.on("error", () => undefined); // a closing connection may still report its loss
        void next.end().catch(() => undefined);
        if (client === next) schedule();
      };
      next.on("notification", () => onChange());
      next.on("error", lost);
      next.on("end", lost);
      try {
        await next.connect();
        await next.query(`LISTEN ${CHANGES_CHANNEL}`);
      } catch (error) {
        lost();
        throw error;
      }
    };
    await connect().catch((error: unknown) => {
      stopped = true; // the caller learns of the failure; nothing keeps trying behind its back
      clearTimeout(retry);
      throw error;
    });
    return async () => {
      stopped = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    };
  }
}
