/**
 * The SQL of the feed queries, shared by the SQLite and PostgreSQL drivers so that both serve the same
 * events in the same order. Parameters are named (`@name`); `TRUE` is each dialect's boolean literal.
 */
import type { EventScope, FeedTarget, Visibility } from "./event-store.js";

export type Dialect = "sqlite" | "postgres";

const TRUE: Record<Dialect, string> = { sqlite: "1", postgres: "true" };

/**
 * The store's version (StoreVersion): the ingest generation, raised in the transaction of every write that changes
 * what a feed shows (ingests, account deletion), and the numbers raised by triggers (migrations 6 and 41). Read on every
 * request, by every instance.
 */
export const VERSION = "SELECT generation, credentials, repos, access, received, hooks FROM ingest_state WHERE id = 1";

/** A user's received-feed number (migration 6): raised by every change to the user's follows and watches; 0 before any. */
export const RECEIVED_VERSION =
  "SELECT coalesce((SELECT version FROM received_versions WHERE user_id = @user), 0) AS version";
export const RAISE_GENERATION = "UPDATE ingest_state SET generation = generation + 1 WHERE id = 1";

/** Ingests the log keeps (one small row each): a feed total last counted further back is counted again. */
export const INGEST_LOG_KEPT = 100_000;

/** What an ingest writes after raising the generation: its row of the ingest log, and the log's oldest row out. */
export const LOG_INGEST = [
  `INSERT INTO ingest_log (generation, oldest_event, oldest_issue_event)
    VALUES ((SELECT generation FROM ingest_state WHERE id = 1), @oldestEvent, @oldestIssueEvent)`,
  `DELETE FROM ingest_log WHERE generation <= (SELECT generation FROM ingest_state WHERE id = 1) - ${INGEST_LOG_KEPT}`,
];

/** The log's rows after one generation up to another: complete when their number is the generations' difference. */
export const INGESTED_SINCE = `SELECT count(*) AS n, min(oldest_event) AS oldest_event, min(oldest_issue_event) AS oldest_issue_event
  FROM ingest_log WHERE generation > @after AND generation <= @upTo`;

/**
 * The repositories a user can read: owned, collaborating, or owned by an organization the user belongs to.
 */
export const READABLE_REPOS = `
  SELECT id FROM repos WHERE owner_id = @reader
  UNION SELECT repo_id FROM collaborators WHERE user_id = @reader
  UNION SELECT r.id FROM org_members m JOIN repos r ON r.owner_id = m.org_id WHERE m.user_id = @reader`;

/**
 * Look-ups by wire id for GitHub's id-based paths (`/repositories/:id/events`). GitHub's own id, kept from
 * imported data, wins over a row id that happens to be equal.
 */
export const BY_WIRE_ID = {
  account: `SELECT login FROM (
      SELECT login, 0 AS rank FROM users WHERE external_id = @id
      UNION ALL SELECT login, 1 AS rank FROM users WHERE id = @id AND external_id IS NULL) AS found
    ORDER BY rank LIMIT 1`,
  repo: `SELECT name FROM (
      SELECT u.login || '/' || r.name AS name, 0 AS rank FROM repos r JOIN users u ON u.id = r.owner_id WHERE r.external_id = @id
      UNION ALL SELECT u.login || '/' || r.name AS name, 1 AS rank FROM repos r JOIN users u ON u.id = r.owner_id
        WHERE r.id = @id AND r.external_id IS NULL) AS found
    ORDER BY rank LIMIT 1`,
};

/** The scopes read in parts (PARTS), each part one index read; the others are one WHERE (SCOPES). */
type PartScope = "org" | "received";

const SCOPES: Record<Exclude<EventScope["kind"], PartScope>, string> = {
  all: "1 = 1",
  repo: "e.repo_id = @repo",
  network: "e.repo_id IN (SELECT id FROM repos WHERE network_id = @network)",
  actor: "e.actor_id = @actor",
};

/**
 * PostgreSQL's own forms, where its planner needs them. Events are partitioned by month there (migration 16): joined
 * repository by repository, a network's events were an index read per repository and partition, each charged the
 * start-up of the visibility's hashed subqueries again, and the planner read every event instead. The network's
 * repositories as one array, read once, make each partition a single index read.
 */
const POSTGRES_SCOPES: Partial<Record<EventScope["kind"], string>> = {
  network: "e.repo_id = ANY (ARRAY(SELECT id FROM repos WHERE network_id = @network))",
};

/**
 * The organization's feed (its repositories' events, and those GitHub attributed to it: `org` on the event) and the
 * received feed (events by accounts the user follows, and in repositories the user watches) are read part by part,
 * each part one read of an index that covers what the feed's visibility asks of a row (migrations 18 and 21), and the
 * parts' events deduplicated by UNION. Gathering the ids first and looking each up cost a read of the table's row per
 * event: on PostgreSQL the first count of a received feed over a thousand follows and watches took 4 s at a million
 * events and ran past the statement timeout at ten million (40 ms part by part); on SQLite, at a million events, the
 * busiest organization's count took 4.5 s from a cold cache and 240 ms warm (48 and 39 ms part by part), its first
 * page 612 ms warm (53 ms). A single WHERE with OR over the two subqueries is worse still on PostgreSQL, which cannot
 * use an index for it (tests/store/postgres-indexes.test.ts). Each dialect writes the repositories' and accounts'
 * lists as its planner reads them best.
 */
const PARTS: Record<Dialect, Record<PartScope, string[]>> = {
  sqlite: {
    org: ["e.org_id = @org", "e.repo_id IN (SELECT id FROM repos WHERE owner_id = @org)"],
    received: [
      "e.actor_id IN (SELECT followee_id FROM follows WHERE follower_id = @user)",
      "e.repo_id IN (SELECT repo_id FROM watches WHERE user_id = @user)",
    ],
  },
  postgres: {
    org: ["e.org_id = @org", "e.repo_id = ANY (ARRAY(SELECT id FROM repos WHERE owner_id = @org))"],
    received: [
      "e.actor_id = ANY (ARRAY(SELECT followee_id FROM follows WHERE follower_id = @user))",
      "e.repo_id = ANY (ARRAY(SELECT repo_id FROM watches WHERE user_id = @user))",
    ],
  },
};

const readInParts = (kind: EventScope["kind"]): kind is PartScope => Object.hasOwn(PARTS.sqlite, kind);

/** The WHERE of a scope in a dialect. */
export function scopeSql(dialect: Dialect, kind: Exclude<EventScope["kind"], PartScope>): string {
  return (dialect === "postgres" ? POSTGRES_SCOPES[kind] : undefined) ?? SCOPES[kind];
}

export function visibilitySql(dialect: Dialect, kind: Visibility["kind"]): string {
  const isPublic = `e.public = ${TRUE[dialect]}`;
  switch (kind) {
    case "public":
      return isPublic;
    // A private event about no repository (a 2012 TeamAddEvent) is its organization's business: members see it.
    case "readable-by":
      return `(${isPublic} OR e.repo_id IN (${READABLE_REPOS})
      OR (e.repo_id IS NULL AND e.org_id IN (SELECT org_id FROM org_members WHERE user_id = @reader)))`;
    case "all":
      return "1 = 1";
  }
}

export function scopeParameters(scope: EventScope): Record<string, number> {
  switch (scope.kind) {
    case "all":
      return {};
    case "repo":
      return { repo: scope.repoId };
    case "network":
      return { network: scope.networkId };
    case "org":
      return { org: scope.orgId };
    case "actor":
      return { actor: scope.actorId };
    case "received":
      return { user: scope.userId };
  }
}

/** Wire ids, looked up only for events whose envelope must be completed; complete ones cost nothing. */
export function wireIdsSql(dialect: Dialect, table: "events" | "issue_events"): string {
  const incomplete = `e.complete = ${dialect === "sqlite" ? "0" : "false"}`;
  const account = (column: string) =>
    `CASE WHEN ${incomplete} THEN (SELECT coalesce(external_id, id) FROM users WHERE id = e.${column}) END`;
  if (table === "issue_events")
    return `${account("actor_id")} AS actor_wire_id, NULL AS repo_wire_id, NULL AS org_wire_id`;
  return `${account("actor_id")} AS actor_wire_id,
    CASE WHEN ${incomplete} THEN (SELECT coalesce(external_id, id) FROM repos WHERE id = e.repo_id) END AS repo_wire_id,
    ${account("org_id")} AS org_wire_id`;
}

export type FeedSql = Record<"page" | "count" | "newest" | "countUntil" | "timeAtDepth", string>;

/**
 * The statements of one feed shape: a page, its total, the feed's newest time, the count of a time range
 * [@notBefore, @until), and the time of the event at a depth (0: the newest). `where` is the feed's WHERE, or the
 * WHEREs of its parts (PARTS), whose events together are the feed's.
 */
export function feedStatements(dialect: Dialect, table: "events" | "issue_events", where: string | string[]): FeedSql {
  if (typeof where !== "string") return partStatements(dialect, table, where);
  const from = `FROM ${table} e WHERE ${where} AND e.created_at >= @notBefore`;
  return {
    page: `SELECT CAST(e.id AS TEXT) AS id, e.body, e.complete, e.created_at, ${wireIdsSql(dialect, table)} ${from}
      ORDER BY e.created_at DESC, e.id DESC LIMIT @limit OFFSET @offset`,
    count: `SELECT count(*) AS n ${from}`,
    newest: `SELECT e.created_at ${from} ORDER BY e.created_at DESC, e.id DESC LIMIT 1`,
    countUntil: `SELECT count(*) AS n ${from} AND e.created_at < @until`,
    timeAtDepth: `SELECT e.created_at ${from} ORDER BY e.created_at DESC, e.id DESC LIMIT 1 OFFSET @depth`,
  };
}

/**
 * The same statements over a feed of parts: the parts' keys (id and time, all an index holds) united, and for a page
 * only the rows of the page's keys read from the table.
 */
function partStatements(dialect: Dialect, table: "events" | "issue_events", parts: string[]): FeedSql {
  const keys = (until = "") =>
    parts
      .map((part) => `SELECT e.id, e.created_at FROM ${table} e WHERE ${part} AND e.created_at >= @notBefore${until}`)
      .join("\n      UNION ");
  const newestFirst = "ORDER BY k.created_at DESC, k.id DESC";
  return {
    page: `SELECT CAST(e.id AS TEXT) AS id, e.body, e.complete, e.created_at, ${wireIdsSql(dialect, table)}
      FROM (SELECT k.id, k.created_at FROM (${keys()}) AS k ${newestFirst} LIMIT @limit OFFSET @offset) AS k
      JOIN ${table} e ON e.id = k.id AND e.created_at = k.created_at
      ORDER BY e.created_at DESC, e.id DESC`,
    count: `SELECT count(*) AS n FROM (${keys()}) AS k`,
    newest: `SELECT k.created_at FROM (${keys()}) AS k ${newestFirst} LIMIT 1`,
    countUntil: `SELECT count(*) AS n FROM (${keys(" AND e.created_at < @until")}) AS k`,
    timeAtDepth: `SELECT k.created_at FROM (${keys()}) AS k ${newestFirst} LIMIT 1 OFFSET @depth`,
  };
}

/** feedWhere's answer: the table, the WHERE (or the parts' WHEREs) feedStatements takes, and its parameters. */
export interface FeedWhere {
  table: "events" | "issue_events";
  where: string | string[];
  parameters: Record<string, number>;
}

/**
 * A feed's events, as the store's feed queries take them: scope and visibility, or a repository's issue events; the
 * organization's and the received feed in parts (PARTS).
 */
export function feedWhere(dialect: Dialect, target: FeedTarget): FeedWhere {
  if ("issuesOf" in target)
    return { table: "issue_events", where: "e.repo_id = @repo", parameters: { repo: target.issuesOf } };
  const parameters = scopeParameters(target.scope);
  if (target.visibility.kind === "readable-by") parameters.reader = target.visibility.userId;
  const visibility = visibilitySql(dialect, target.visibility.kind);
  const kind = target.scope.kind;
  if (readInParts(kind))
    return { table: "events", where: PARTS[dialect][kind].map((part) => `${part} AND ${visibility}`), parameters };
  return { table: "events", where: `${scopeSql(dialect, kind)} AND ${visibility}`, parameters };
}

/**
 * The organization and received scopes row by row: their parts joined by OR, in the form of SQLite's parts, which both
 * dialects plan well for a handful of rows. The pages' forms gather the feed's events by index first, which suits
 * reading the newest of a long history; a stream reads the few events that just arrived, and asks each of them
 * whether it belongs.
 */
const rowScope = (kind: PartScope) => `(${PARTS.sqlite[kind].join(" OR ")})`;

/** A feed's WHERE for live streams: the feed's own (feedWhere), the same events, row by row. */
export function arrivalWhere(dialect: Dialect, target: FeedTarget): FeedWhere & { where: string } {
  const found = feedWhere(dialect, target);
  if ("scope" in target && readInParts(target.scope.kind)) {
    return { ...found, where: `${rowScope(target.scope.kind)} AND ${visibilitySql(dialect, target.visibility.kind)}` };
  }
  // Only the scopes read in parts have a WHERE of several.
  if (typeof found.where !== "string") throw new Error(`no row form for the parts of ${JSON.stringify(target)}`);
  return { ...found, where: found.where };
}

/**
 * The columns a feed's WHERE reads (feedWhere, arrivalWhere: scope and visibility), by table. A range of arrivals is
 * narrowed to them before it is filtered: materialized whole, with every event's body, the 20,000 arrivals a received
 * feed had not seen since its last poll took 200 ms to count on SQLite, narrowed 30 ms.
 */
const FILTERED_COLUMNS = {
  events: "seq, actor_id, repo_id, org_id, public, created_at",
  issue_events: "seq, repo_id, actor_id, created_at",
};

/** The arrivals in (@after, @upTo], narrowed to what a feed's WHERE reads, named `fresh`. */
const freshArrivals = (table: "events" | "issue_events") =>
  `fresh AS MATERIALIZED (SELECT ${FILTERED_COLUMNS[table]} FROM ${table} WHERE seq > @after AND seq <= @upTo)`;

/**
 * Live streams (migration 9): a feed's events stored after one arrival number, up to another, in arrival order.
 * Driven by the arrival range (the events just stored), then filtered by the feed's WHERE (arrivalWhere): read
 * through the feed's own index instead, a wake-up cost the feed's whole history. Issue events have no `type` column.
 * SQLite reads the bodies of the events chosen only, by their arrival numbers' unique index; PostgreSQL, whose events
 * are partitioned by month, has no such index, and reads them with the range.
 */
export function arrivalsSql(dialect: Dialect, table: "events" | "issue_events", where: string): string {
  const type = table === "events" ? "e.type" : "NULL";
  const columns = `e.seq, CAST(e.id AS TEXT) AS id, ${type} AS type, e.body, e.complete, e.created_at, ${wireIdsSql(dialect, table)}`;
  if (dialect === "sqlite") {
    return `WITH ${freshArrivals(table)},
      chosen AS MATERIALIZED (SELECT e.seq FROM fresh e WHERE ${where} AND e.created_at >= @notBefore ORDER BY e.seq LIMIT @limit)
      SELECT ${columns} FROM ${table} e WHERE e.seq IN (SELECT seq FROM chosen) ORDER BY e.seq`;
  }
  return `WITH fresh AS MATERIALIZED (SELECT * FROM ${table} WHERE seq > @after AND seq <= @upTo)
    SELECT ${columns} FROM fresh e WHERE ${where} AND e.created_at >= @notBefore
    ORDER BY e.seq LIMIT @limit`;
}

/**
 * How many of a feed's events arrived in (@after, @upTo] and were created at or after @from: what an ingest added to a
 * feed's newest events (services/feed-totals.ts), read through the arrival range as arrivalsSql does.
 */
export function countArrivalsSql(table: "events" | "issue_events", where: string): string {
  return `WITH ${freshArrivals(table)} SELECT count(*) AS n FROM fresh e WHERE ${where} AND e.created_at >= @from`;
}

/** The newest arrival numbers, 0 before any. */
export const LAST_ARRIVALS = `SELECT (SELECT coalesce(max(seq), 0) FROM events) AS events,
  (SELECT coalesce(max(seq), 0) FROM issue_events) AS issue_events`;

/** The arrival number of an event (or issue event) by its id. */
export const ARRIVAL_OF = {
  events: "SELECT seq FROM events WHERE id = @id",
  issueEvents: "SELECT seq FROM issue_events WHERE id = @id",
};
