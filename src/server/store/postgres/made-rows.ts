/**
 * What an action made, written in one statement on its transaction's connection: its events, its issue events (with
 * their issue numbers), the generation raised and the ingest logged, as an ingest writes them (feed-sql.ts). An
 * ingest looks up the names its events carry and the ids already stored, then COPYs (postgres/ingest.ts and copy.ts):
 * eight round trips for an action's one event, each a socket write and a read on both sides. An action needs none of
 * that: it has the ids of the accounts and the repository its events name, and it drew the events' own ids after the
 * highest stored, under the ingest lock, so none can be stored already.
 *
 * Not shared: arrays (unnest) and data-modifying CTEs are PostgreSQL's; SQLite's statements cost no round trip.
 */
import type pg from "pg";
import { madeSeconds, oldestSeconds, type MadeEvent, type MadeIssueEvent, type MadeRows } from "../action-store.js";
import { INGEST_LOG_KEPT } from "../feed-sql.js";

/** A column of a table the statement inserts into: its name, its type, and its value in a row. */
type Column<Row> = [name: string, type: string, value: (row: Row) => unknown];

const EVENT_COLUMNS: Column<MadeEvent>[] = [
  ["id", "int8", (e) => e.id],
  ["type", "text", (e) => e.type],
  ["actor_id", "int8", (e) => e.actorId],
  ["repo_id", "int8", (e) => e.repoId],
  ["org_id", "int8", (e) => e.orgId],
  ["public", "bool", (e) => e.public],
  ["created_at", "int8", (e) => madeSeconds(e.createdAt)],
  ["complete", "bool", (e) => e.complete],
  ["body", "text", (e) => e.body],
];
const ISSUE_EVENT_COLUMNS: Column<MadeIssueEvent>[] = [
  ["id", "int8", (e) => e.id],
  ["repo_id", "int8", (e) => e.repoId],
  ["actor_id", "int8", (e) => e.actorId],
  ["created_at", "int8", (e) => madeSeconds(e.createdAt)],
  ["complete", "bool", (e) => e.complete],
  ["body", "text", (e) => e.body],
  ["issue_number", "int4", (e) => e.issueNumber],
];

/** `INSERT INTO table (...) SELECT * FROM unnest(...)`, its arrays the parameters from `$first` on. */
function insertAll<Row>(table: string, columns: Column<Row>[], first: number): string {
  const names = columns.map(([name]) => name).join(", ");
  const arrays = columns.map(([, type], i) => `$${first + i}::${type}[]`).join(", ");
  return `INSERT INTO ${table} (${names}) SELECT * FROM unnest(${arrays})`;
}

const OLDEST = EVENT_COLUMNS.length + ISSUE_EVENT_COLUMNS.length + 1;
const WRITE_MADE = `WITH
  e AS (${insertAll("events", EVENT_COLUMNS, 1)}),
  ie AS (${insertAll("issue_events", ISSUE_EVENT_COLUMNS, EVENT_COLUMNS.length + 1)}),
  g AS (UPDATE ingest_state SET generation = generation + 1 WHERE id = 1 RETURNING generation),
  l AS (INSERT INTO ingest_log (generation, oldest_event, oldest_issue_event)
    SELECT generation, $${OLDEST}::int8, $${OLDEST + 1}::int8 FROM g)
DELETE FROM ingest_log WHERE generation <= (SELECT generation FROM g) - ${INGEST_LOG_KEPT}`;

export async function writeMade(client: pg.PoolClient, made: MadeRows): Promise<void> {
  const { events, issueEvents } = made;
  await client.query(WRITE_MADE, [
    ...EVENT_COLUMNS.map(([, , value]) => events.map(value)),
    ...ISSUE_EVENT_COLUMNS.map(([, , value]) => issueEvents.map(value)),
    oldestSeconds(events),
    oldestSeconds(issueEvents),
  ]);
}
