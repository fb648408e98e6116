/**
 * The event reads written once over the executor: the shared feed SQL (feed-sql.ts), one indexed query per page,
 * newest first with the event id breaking ties, so the order is stable across pages; a page and its total read in
 * one snapshot. What each driver adds is how it knows the store changed: sqlite/events.ts (a version read kept per
 * turn of the event loop), postgres/events.ts (reads shared in flight, LISTEN/NOTIFY).
 */
import type { Executor } from "./executor.js";
import {
  ARRIVAL_OF,
  arrivalsSql,
  arrivalWhere,
  countArrivalsSql,
  feedStatements,
  feedWhere,
  INGESTED_SINCE,
  LAST_ARRIVALS,
} from "./feed-sql.js";
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
} from "./event-store.js";
import type { Bool } from "./sql-values.js";

interface EventRecord {
  id: string;
  body: string;
  complete: Bool;
  created_at: number;
  actor_wire_id: number | null;
  repo_wire_id: number | null;
  org_wire_id: number | null;
}

const toStored = (r: EventRecord): StoredEvent => ({
  id: r.id,
  body: r.body,
  complete: r.complete === true || r.complete === 1,
  createdAt: new Date(r.created_at * 1000),
  actorWireId: r.actor_wire_id,
  repoWireId: r.repo_wire_id,
  orgWireId: r.org_wire_id,
});

type PageOf = Omit<FeedRequest, "visibility">;

/** A bound no creation time reaches (created_at is integer seconds in both). */
const NO_END = Number.MAX_SAFE_INTEGER;
const secondsOf = (time: Date | null) => (time ? Math.floor(time.getTime() / 1000) : 0);

export abstract class EventReads implements EventStore {
  constructor(protected readonly db: Executor) {}

  abstract version(shareTurn?: boolean): StoreVersion | Promise<StoreVersion>;
  abstract receivedVersion(userId: number): Promise<number>;
  abstract listenForChanges(onChange: () => void): Promise<() => Promise<void>>;

  /** The page and the newest time, and the total when `counted`, in one snapshot: one moment. */
  private page(target: FeedTarget, request: PageOf, counted: boolean): Promise<FeedPage | Omit<FeedPage, "total">> {
    const { table, where, parameters } = feedWhere(this.db.dialect, target);
    const sql = feedStatements(this.db.dialect, table, where);
    const filter = { ...parameters, notBefore: secondsOf(request.notBefore) };
    return this.db.transaction(
      async (tx) => {
        const rows = await tx.all<EventRecord>(sql.page, { ...filter, limit: request.limit, offset: request.offset });
        const count = counted ? await tx.get<{ n: number }>(sql.count, filter) : undefined;
        const newest = await tx.get<{ created_at: number }>(sql.newest, filter);
        return {
          rows: rows.map(toStored),
          ...(count ? { total: Number(count.n) } : {}),
          newest: newest ? new Date(newest.created_at * 1000) : null,
        };
      },
      { consistentReads: true },
    );
  }

  feed(scope: EventScope, request: FeedRequest): Promise<FeedPage> {
    return this.page({ scope, visibility: request.visibility }, request, true) as Promise<FeedPage>;
  }

  issueFeed(repoId: number, request: PageOf): Promise<FeedPage> {
    return this.page({ issuesOf: repoId }, request, true) as Promise<FeedPage>;
  }

  feedRows(target: FeedTarget, request: PageOf): Promise<Omit<FeedPage, "total">> {
    return this.page(target, request, false);
  }

  async countBetween(target: FeedTarget, from: number, until: number | null): Promise<number> {
    const { table, where, parameters } = feedWhere(this.db.dialect, target);
    const sql = feedStatements(this.db.dialect, table, where).countUntil;
    return Number(
      (await this.db.get<{ n: number }>(sql, { ...parameters, notBefore: from, until: until ?? NO_END }))!.n,
    );
  }

  async timeAtDepth(target: FeedTarget, depth: number, from: number): Promise<number | null> {
    const { table, where, parameters } = feedWhere(this.db.dialect, target);
    const sql = feedStatements(this.db.dialect, table, where).timeAtDepth;
    return (
      (await this.db.get<{ created_at: number }>(sql, { ...parameters, notBefore: from, depth }))?.created_at ?? null
    );
  }

  async ingestedSince(after: number, upTo: number): Promise<IngestedSince | null> {
    const found = (await this.db.get<{ n: number; oldest_event: number | null; oldest_issue_event: number | null }>(
      INGESTED_SINCE,
      { after, upTo },
    ))!;
    if (Number(found.n) !== upTo - after) return null;
    return { oldestEvent: found.oldest_event, oldestIssueEvent: found.oldest_issue_event };
  }

  async lastArrivals(): Promise<Arrivals> {
    const row = (await this.db.get<{ events: number; issue_events: number }>(LAST_ARRIVALS))!;
    return { events: Number(row.events), issueEvents: Number(row.issue_events) };
  }

  async arrivalOf(table: ArrivalTable, id: string): Promise<number | null> {
    // SQLite compares the integer id with a BigInt (ids go up to 18 digits, past a double's exact integers); pg sends
    // the digits as text, which PostgreSQL casts.
    const row = await this.db.get<{ seq: number }>(ARRIVAL_OF[table], {
      id: this.db.dialect === "sqlite" ? BigInt(id) : id,
    });
    return row ? Number(row.seq) : null;
  }

  async countArrivals(
    target: FeedTarget,
    { after, upTo, from }: { after: number; upTo: number; from: number },
  ): Promise<number> {
    const { table, where, parameters } = arrivalWhere(this.db.dialect, target);
    const row = await this.db.get<{ n: number }>(countArrivalsSql(table, where), { ...parameters, after, upTo, from });
    return Number(row!.n);
  }

  async arrivals(target: FeedTarget, request: ArrivalRequest): Promise<ArrivedEvent[]> {
    const { table, where, parameters } = arrivalWhere(this.db.dialect, target);
    const { after, upTo, limit, notBefore } = request;
    const rows = await this.db.all<EventRecord & { seq: number; type: string | null }>(
      arrivalsSql(this.db.dialect, table, where),
      { ...parameters, after, upTo, limit, notBefore: secondsOf(notBefore) },
    );
    return rows.map((r) => ({ ...toStored(r), seq: Number(r.seq), type: r.type }));
  }
}
