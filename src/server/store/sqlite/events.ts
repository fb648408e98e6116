/**
 * Feed queries in SQLite: the shared feed SQL (store/feed-sql.ts), one indexed query per page, newest first
 * with the event id breaking ties, so the order is stable across pages. Statements are prepared once per shape.
 */
import type Database from "better-sqlite3";
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

interface EventRecord {
  id: string;
  body: string;
  complete: number;
  created_at: number;
  actor_wire_id: number | null;
  repo_wire_id: number | null;
  org_wire_id: number | null;
}

type Parameters = Record<string, number>;
type ArrivalRecord = EventRecord & { seq: number; type: string | null };
type PageOf = Omit<FeedRequest, "visibility">;

const toStored = (r: EventRecord): StoredEvent => ({
  id: r.id,
  body: r.body,
  complete: r.complete === 1,
  createdAt: new Date(r.created_at * 1000),
  actorWireId: r.actor_wire_id,
  repoWireId: r.repo_wire_id,
  orgWireId: r.org_wire_id,
});

interface FeedStatements {
  page: Database.Statement<Parameters, EventRecord>;
  count: Database.Statement<Parameters, { n: number }>;
  newest: Database.Statement<Parameters, { created_at: number }>;
  countUntil: Database.Statement<Parameters, { n: number }>;
  timeAtDepth: Database.Statement<Parameters, { created_at: number }>;
}

/** SQLite integers go up to 2^63; a bound no creation time reaches. */
const NO_END = Number.MAX_SAFE_INTEGER;
const secondsOf = (time: Date | null) => (time ? Math.floor(time.getTime() / 1000) : 0);

export class SqliteEvents implements EventStore {
  private readonly statements = new Map<string, FeedStatements>();
  private readonly versionStatement;
  /** What the version row said, and what told that nothing has been written since (see version()). */
  private lastVersion: { version: StoreVersion; dataVersion: number; totalChanges: number } | null = null;
  private readonly dataVersionStatement;
  /** `PRAGMA data_version` as read for the requests of this turn of the event loop, null when none is kept (readDataVersion()). */
  private turnDataVersion: number | null = null;
  private readonly totalChangesStatement;
  private readonly ingestedSinceStatement;
  private readonly receivedVersionStatement;
  private readonly arrivalStatements = new Map<string, Database.Statement<Parameters, ArrivalRecord>>();
  private readonly countArrivalStatements = new Map<string, Database.Statement<Parameters, number>>();
  private readonly lastArrivalsStatement;
  private readonly arrivalOfStatements;

  constructor(private readonly db: Database.Database) {
    this.versionStatement = db.prepare<[], StoreVersion>(VERSION);
    this.dataVersionStatement = db.prepare<[], number>("PRAGMA data_version").pluck();
    this.totalChangesStatement = db.prepare<[], number>("SELECT total_changes()").pluck();
    this.receivedVersionStatement = db.prepare<{ user: number }, { version: number }>(RECEIVED_VERSION);
    this.ingestedSinceStatement = db.prepare<
      { after: number; upTo: number },
      { n: number; oldest_event: number | null; oldest_issue_event: number | null }
    >(INGESTED_SINCE);
    this.lastArrivalsStatement = db.prepare<[], { events: number; issue_events: number }>(LAST_ARRIVALS);
    this.arrivalOfStatements = {
      events: db.prepare<{ id: bigint }, number>(ARRIVAL_OF.events).pluck(),
      issueEvents: db.prepare<{ id: bigint }, number>(ARRIVAL_OF.issueEvents).pluck(),
    };
  }

  /**
   * The version row is read only when something may have changed it: `PRAGMA data_version` moves when another
   * connection (the write worker, a command in another process) commits, and total_changes() when this one writes
   * (triggers included). Both are cheaper than reading a table, which every poll would otherwise do.
   */
  version(shareTurn = false): StoreVersion {
    const dataVersion = shareTurn ? (this.turnDataVersion ?? this.readDataVersion(true)) : this.readDataVersion(false);
    const totalChanges = this.totalChangesStatement.get()!;
    const last = this.lastVersion;
    if (last && last.dataVersion === dataVersion && last.totalChanges === totalChanges) return last.version;
    const version = this.versionStatement.get()!;
    this.lastVersion = { version, dataVersion, totalChanges };
    return version;
  }

  /**
   * Reads `PRAGMA data_version`, and keeps it for the requests handled in the rest of this turn of the event loop when
   * `keep` (or when a read is kept already, which this newer one replaces). Reading it starts a read transaction, two
   * locks and a stat of the file (three system calls, strace), which cost a repeated answer (repeats/) more than the
   * rest of its own work, while a busy server reads some thirty requests from its sockets in one turn. A kept read is
   * forgotten in the loop's check phase (setImmediate), and while one is kept the loop does not wait for I/O (an
   * immediate is pending), so a request is answered as of a read made at most one turn of the loop before it was
   * handled: in practice in the same poll for I/O, after its bytes had come. The write worker's commits do not wait
   * for the turn to end: their acknowledgement forgets the kept read (committed()) before anyone is told of the write.
   */
  private readDataVersion(keep: boolean): number {
    const read = this.dataVersionStatement.get()!;
    if (keep && this.turnDataVersion === null) setImmediate(this.forgetTurn);
    if (keep || this.turnDataVersion !== null) this.turnDataVersion = read;
    return read;
  }

  private readonly forgetTurn = () => {
    this.turnDataVersion = null;
  };

  /** Another connection of this process committed (the write worker's ingest): the next version() reads afresh. */
  committed(): void {
    this.turnDataVersion = null;
  }

  async receivedVersion(userId: number): Promise<number> {
    return this.receivedVersionStatement.get({ user: userId })!.version;
  }

  private prepared(table: "events" | "issue_events", where: string | string[]): FeedStatements {
    const key = `${table}|${typeof where === "string" ? where : where.join("|")}`;
    let statements = this.statements.get(key);
    if (!statements) {
      const sql = feedStatements("sqlite", table, where);
      statements = {
        page: this.db.prepare(sql.page),
        count: this.db.prepare(sql.count),
        newest: this.db.prepare(sql.newest),
        countUntil: this.db.prepare(sql.countUntil),
        timeAtDepth: this.db.prepare(sql.timeAtDepth),
      };
      this.statements.set(key, statements);
    }
    return statements;
  }

  /** The page and the newest time, and the total when `counted`, in one read transaction: one moment. */
  private run(statements: FeedStatements, parameters: Parameters, request: PageOf, counted: true): FeedPage;
  private run(
    statements: FeedStatements,
    parameters: Parameters,
    request: PageOf,
    counted: false,
  ): Omit<FeedPage, "total">;
  private run(statements: FeedStatements, parameters: Parameters, request: PageOf, counted: boolean) {
    const where = { ...parameters, notBefore: secondsOf(request.notBefore) };
    return this.db.transaction(() => {
      const newest = statements.newest.get(where);
      return {
        rows: statements.page.all({ ...where, limit: request.limit, offset: request.offset }).map(toStored),
        ...(counted ? { total: statements.count.get(where)!.n } : {}),
        newest: newest ? new Date(newest.created_at * 1000) : null,
      };
    })();
  }

  async feed(scope: EventScope, request: FeedRequest): Promise<FeedPage> {
    const { statements, parameters } = this.target({ scope, visibility: request.visibility });
    return this.run(statements, parameters, request, true);
  }

  async issueFeed(repoId: number, request: Omit<FeedRequest, "visibility">): Promise<FeedPage> {
    const { statements, parameters } = this.target({ issuesOf: repoId });
    return this.run(statements, parameters, request, true);
  }
  private target(target: FeedTarget): { statements: FeedStatements; parameters: Parameters } {
    const { table, where, parameters } = feedWhere("sqlite", target);
    return { statements: this.prepared(table, where), parameters };
  }

  async feedRows(target: FeedTarget, request: Omit<FeedRequest, "visibility">): Promise<Omit<FeedPage, "total">> {
    const { statements, parameters } = this.target(target);
    return this.run(statements, parameters, request, false);
  }

  async countBetween(target: FeedTarget, from: number, until: number | null): Promise<number> {
    const { statements, parameters } = this.target(target);
    return statements.countUntil.get({ ...parameters, notBefore: from, until: until ?? NO_END })!.n;
  }

  async timeAtDepth(target: FeedTarget, depth: number, from: number): Promise<number | null> {
    const { statements, parameters } = this.target(target);
    return statements.timeAtDepth.get({ ...parameters, notBefore: from, depth })?.created_at ?? null;
  }

  async ingestedSince(after: number, upTo: number): Promise<IngestedSince | null> {
    const found = this.ingestedSinceStatement.get({ after, upTo })!;
    if (found.n !== upTo - after) return null;
    return { oldestEvent: found.oldest_event, oldestIssueEvent: found.oldest_issue_event };
  }

  async lastArrivals(): Promise<Arrivals> {
    const row = this.lastArrivalsStatement.get()!;
    return { events: row.events, issueEvents: row.issue_events };
  }

  async arrivalOf(table: ArrivalTable, id: string): Promise<number | null> {
    // A BigInt: ids go up to 18 digits, past a double's exact integers.
    return this.arrivalOfStatements[table].get({ id: BigInt(id) }) ?? null;
  }

  async countArrivals(
    target: FeedTarget,
    { after, upTo, from }: { after: number; upTo: number; from: number },
  ): Promise<number> {
    const { table, where, parameters } = arrivalWhere("sqlite", target);
    let statement = this.countArrivalStatements.get(`${table}|${where}`);
    if (!statement) {
      this.countArrivalStatements.set(
        `${table}|${where}`,
        (statement = this.db.prepare<Parameters, number>(countArrivalsSql(table, where)).pluck()),
      );
    }
    return statement.get({ ...parameters, after, upTo, from })!;
  }

  async arrivals(target: FeedTarget, request: ArrivalRequest): Promise<ArrivedEvent[]> {
    const { table, where, parameters } = arrivalWhere("sqlite", target);
    let statement = this.arrivalStatements.get(`${table}|${where}`);
    if (!statement)
      this.arrivalStatements.set(
        `${table}|${where}`,
        (statement = this.db.prepare(arrivalsSql("sqlite", table, where))),
      );
    const { after, upTo, limit, notBefore } = request;
    return statement
      .all({ ...parameters, after, upTo, limit, notBefore: secondsOf(notBefore) })
      .map((r) => ({ ...toStored(r), seq: r.seq, type: r.type }));
  }

  /** Nothing to listen to: writes of this process wake streams directly, other processes' show in version(). */
  async listenForChanges(): Promise<() => Promise<void>> {
    return async () => undefined;
  }
}
