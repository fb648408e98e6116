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
import type { MadeEvent, MadeIssueEvent } from "../action-store.js";
import { INGEST_LOG_KEPT } from "../feed-sql.js";

const WRITE_MADE = `WITH
  e AS (INSERT INTO events (id, type, actor_id, repo_id, org_id, public, created_at, complete, body)
    SELECT * FROM unnest($1::int8[], $2::text[], $3::int8[], $4::int8[], $5::int8[], $6::bool[], $7::int8[],
      $8::bool[], $9::text[])),
  ie AS (INSERT INTO issue_events (id, repo_id, actor_id, created_at, complete, body, issue_number)
    SELECT * FROM unnest($10::int8[], $11::int8[], $12::int8[], $13::int8[], $14::bool[], $15::text[], $16::int4[])),
  g AS (UPDATE ingest_state SET generation = generation + 1 WHERE id = 1 RETURNING generation),
  l AS (INSERT INTO ingest_log (generation, oldest_event, oldest_issue_event)
    SELECT generation, $17::int8, $18::int8 FROM g)
DELETE FROM ingest_log WHERE generation <= (SELECT generation FROM g) - ${INGEST_LOG_KEPT}`;

const seconds = (at: Date) => Math.floor(at.getTime() / 1000);
/** The oldest of the rows' times, in seconds, as the ingest log keeps it; null for none. */
const oldest = (rows: { createdAt: Date }[]) =>
  rows.length ? Math.min(...rows.map((r) => seconds(r.createdAt))) : null;

export async function writeMade(
  client: pg.PoolClient,
  made: { events: MadeEvent[]; issueEvents: MadeIssueEvent[] },
): Promise<void> {
  const { events: e, issueEvents: ie } = made;
  await client.query(WRITE_MADE, [
    e.map((x) => x.id),
    e.map((x) => x.type),
    e.map((x) => x.actorId),
    e.map((x) => x.repoId),
    e.map((x) => x.orgId),
    e.map((x) => x.public),
    e.map((x) => seconds(x.createdAt)),
    e.map((x) => x.complete),
    e.map((x) => x.body),
    ie.map((x) => x.id),
    ie.map((x) => x.repoId),
    ie.map((x) => x.actorId),
    ie.map((x) => seconds(x.createdAt)),
    ie.map((x) => x.complete),
    ie.map((x) => x.body),
    ie.map((x) => x.issueNumber),
    oldest(e),
    oldest(ie),
  ]);
}
