/**
 * What an action made, written on its transaction's connection: its events (each taking the next arrival number),
 * its issue events with their issue numbers, the generation raised and the ingest logged, as an ingest writes them
 * (sqlite/ingest.ts). The ingest program would first look up the accounts and the repository its events name, and
 * then set each issue event's number in a statement of its own. An action needs none of that: it has the ids of the
 * accounts and the repository its events name, and it drew the events' own ids after the highest stored, under the
 * write lock, so none can be stored already.
 *
 * Not shared: PostgreSQL writes the same rows in one statement of data-modifying CTEs (postgres/made-rows.ts), where
 * each statement is a round trip; here each is a call into SQLite, and plain inserts are its cheapest.
 */
import { madeSeconds, oldestSeconds, type MadeRows } from "../action-store.js";
import type { Executor } from "../executor.js";
import { LOG_INGEST, RAISE_GENERATION } from "../feed-sql.js";

const INSERT_EVENT = `INSERT INTO events (id, type, actor_id, repo_id, org_id, public, created_at, complete, body, seq)
  VALUES (@id, @type, @actorId, @repoId, @orgId, @public, @createdAt, @complete, @body,
    (SELECT coalesce(max(seq), 0) + 1 FROM events))`;
const INSERT_ISSUE_EVENT = `INSERT INTO issue_events (id, repo_id, actor_id, created_at, complete, body, issue_number, seq)
  VALUES (@id, @repoId, @actorId, @createdAt, @complete, @body, @issueNumber,
    (SELECT coalesce(max(seq), 0) + 1 FROM issue_events))`;

export async function writeMade(tx: Executor, made: MadeRows): Promise<void> {
  const { bool } = tx.values;
  for (const e of made.events)
    await tx.run(INSERT_EVENT, {
      id: e.id,
      type: e.type,
      actorId: e.actorId,
      repoId: e.repoId,
      orgId: e.orgId,
      public: bool(e.public),
      createdAt: madeSeconds(e.createdAt),
      complete: bool(e.complete),
      body: e.body,
    });
  for (const e of made.issueEvents)
    await tx.run(INSERT_ISSUE_EVENT, {
      id: e.id,
      repoId: e.repoId,
      actorId: e.actorId,
      createdAt: madeSeconds(e.createdAt),
      complete: bool(e.complete),
      body: e.body,
      issueNumber: e.issueNumber,
    });
  await tx.run(RAISE_GENERATION);
  for (const sql of LOG_INGEST)
    await tx.run(sql, { oldestEvent: oldestSeconds(made.events), oldestIssueEvent: oldestSeconds(made.issueEvents) });
}
