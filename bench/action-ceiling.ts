/**
 * The action rows' own ceiling (issue "activity from actions"): bare node:http that, for each request, reads the body
 * and writes the rows the action writes, with the same driver (better-sqlite3 or pg), in one transaction, then
 * answers with the bytes feedgate answered that action with (captured in the same run). Opening an issue: the issue,
 * its IssuesEvent and the generation with its ingest-log row; a comment: the comment, the issue's count and
 * `updated_at`, its IssueCommentEvent and the generation; a label added to an issue (or removed from it): the
 * `issue_labels` row, the issue's `updated_at`, the `labeled` (`unlabeled`) issue event and the generation. Events
 * and issue events are the bodies feedgate stored for the same action, written again under the next id. Nothing is
 * validated, authenticated, rate-limited, read, converted or serialized: the least a server can do to make those rows
 * and send those bytes, so each row's CPU ratio is feedgate's cost over the bare cost of its own write.
 *
 * On PostgreSQL a write is three statements: BEGIN with the ingest's advisory lock (the ids continue after the
 * highest stored, as feedgate's do, so concurrent writes must not read the same highest), one statement writing
 * every row (data-modifying CTEs), COMMIT. Plain INSERTs, where feedgate's ingest COPYs its events.
 *
 *   node --import tsx bench/action-ceiling.ts <job.json>    (job: ActionCeilingJob)
 */
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import pg from "pg";
import { INGEST_LOG_KEPT, LOG_INGEST, RAISE_GENERATION } from "../src/server/store/feed-sql.js";

export interface CapturedAnswer {
  status: number;
  headers: string[];
  body: string;
}

/** The actions the ceiling writes, in the order the checks send them (issue 1 has the label: removed, then added). */
export const ACTION_KINDS = ["issue", "comment", "unlabeled", "labeled"] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

export interface ActionCeilingJob {
  driver: "sqlite" | "postgres";
  /** A copy of the seeded database feedgate writes to (a file, or a PostgreSQL URL), for the ceiling to write to. */
  db: string;
  repo: string;
  login: string;
  /** The label the label rows add and remove. */
  label: string;
  answers: Record<ActionKind, CapturedAnswer>;
  /** What feedgate stored for each action: the event's body (issue, comment), the issue event's (labeled, unlabeled). */
  bodies: Record<ActionKind, string>;
}

/** Which action a request is, and the issue number its path names. */
export function actionOf(method: string, url: string): { kind: ActionKind; issue: number } | null {
  const m = /\/issues(?:\/(\d+)\/(comments|labels)(\/[^/]+)?)?$/.exec(url);
  if (!m) return null;
  if (m[1] === undefined) return method === "POST" ? { kind: "issue", issue: 0 } : null;
  const issue = Number(m[1]);
  if (m[2] === "comments") return { kind: "comment", issue };
  if (method === "DELETE" && m[3] !== undefined) return { kind: "unlabeled", issue };
  return method === "POST" ? { kind: "labeled", issue } : null;
}

type Write = (kind: ActionKind, issue: number, text: string, at: Date) => void | Promise<void>;

/** The body's text after its id (`{"id":"123"`), to be written again after the next one. */
const afterId = (body: string) => body.replace(/^\{"id":"?\d+"?/, "");
const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

function sqliteWriter(job: ActionCeilingJob): Write {
  const db = new Database(job.db);
  db.pragma("journal_mode = WAL");
  const [owner, name] = job.repo.split("/");
  const ids = db
    .prepare<[string, string, string, string], { repoId: number; userId: number; labelId: number }>(
      `SELECT r.id AS repoId, (SELECT id FROM users WHERE login = ?) AS userId,
         (SELECT id FROM labels WHERE repo_id = r.id AND name = ?) AS labelId
       FROM repos r JOIN users o ON o.id = r.owner_id WHERE o.login = ? AND r.name = ?`,
    )
    .get(job.login, job.label, owner!, name!)!;
  const issues = new Map(
    db
      .prepare<[number], { number: number; id: number }>("SELECT number, id FROM issues WHERE repo_id = ?")
      .all(ids.repoId)
      .map((r) => [r.number, r.id]),
  );
  const s = {
    nextEvent: db.prepare<[], { id: number; seq: number }>(
      "SELECT coalesce(max(id), 0) + 1 AS id, (SELECT coalesce(max(seq), 0) + 1 FROM events) AS seq FROM events",
    ),
    event: db.prepare(
      `INSERT INTO events (id, type, actor_id, repo_id, org_id, public, created_at, complete, body, seq)
       VALUES (?, ?, ?, ?, NULL, 1, ?, 1, ?, ?)`,
    ),
    nextIssueEvent: db.prepare<[], { id: number; seq: number }>(
      "SELECT coalesce(max(id), 0) + 1 AS id, (SELECT coalesce(max(seq), 0) + 1 FROM issue_events) AS seq FROM issue_events",
    ),
    issueEvent: db.prepare(
      `INSERT INTO issue_events (id, repo_id, actor_id, created_at, complete, body, seq, issue_number)
       VALUES (?, ?, ?, ?, 1, ?, ?, ?)`,
    ),
    issue: db.prepare(
      `INSERT INTO issues (repo_id, number, user_id, title, body, state, created_at, updated_at)
       VALUES (?, (SELECT coalesce(max(number), 0) + 1 FROM issues WHERE repo_id = ?), ?, ?, NULL, 'open', ?, ?)`,
    ),
    comment: db.prepare(
      "INSERT INTO issue_comments (repo_id, issue_id, user_id, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
    ),
    counted: db.prepare("UPDATE issues SET comments = comments + 1, updated_at = ? WHERE id = ?"),
    touched: db.prepare("UPDATE issues SET updated_at = ? WHERE id = ?"),
    labeled: db.prepare("INSERT INTO issue_labels (issue_id, label_id) VALUES (?, ?)"),
    unlabeled: db.prepare("DELETE FROM issue_labels WHERE issue_id = ? AND label_id = ?"),
    generation: db.prepare(RAISE_GENERATION),
    logged: LOG_INGEST.map((sql) => db.prepare(sql)),
  };
  const bodies = Object.fromEntries(ACTION_KINDS.map((k) => [k, afterId(job.bodies[k])])) as Record<ActionKind, string>;
  const raise = (oldestEvent: number | null, oldestIssueEvent: number | null) => {
    s.generation.run();
    for (const statement of s.logged) statement.run({ oldestEvent, oldestIssueEvent });
  };
  const event = (type: string, kind: ActionKind, at: Date) => {
    const { id, seq } = s.nextEvent.get()!;
    s.event.run(id, type, ids.userId, ids.repoId, seconds(at), `{"id":"${id}"${bodies[kind]}`, seq);
    raise(seconds(at), null);
  };
  const issueEvent = (kind: ActionKind, issue: number, at: Date) => {
    const { id, seq } = s.nextIssueEvent.get()!;
    s.issueEvent.run(id, ids.repoId, ids.userId, seconds(at), `{"id":"${id}"${bodies[kind]}`, seq, issue);
    raise(null, seconds(at));
  };
  const write = db.transaction((kind: ActionKind, issue: number, text: string, at: Date) => {
    const iso = at.toISOString();
    const issueId = issues.get(issue)!;
    if (kind === "issue") {
      s.issue.run(ids.repoId, ids.repoId, ids.userId, text, iso, iso);
      event("IssuesEvent", kind, at);
    } else if (kind === "comment") {
      s.comment.run(ids.repoId, issueId, ids.userId, text, iso, iso);
      s.counted.run(iso, issueId);
      event("IssueCommentEvent", kind, at);
    } else {
      s[kind].run(issueId, ids.labelId);
      s.touched.run(iso, issueId);
      issueEvent(kind, issue, at);
    }
  });
  return (kind, issue, text, at) => write(kind, issue, text, at);
}

/** The rows of each action in one statement ($1 repo, $2 user, $3 time, $4 seconds, $5 body after its id, $6...). */
const GENERATION = (oldestEvent: string, oldestIssueEvent: string) => `
  g AS (UPDATE ingest_state SET generation = generation + 1 WHERE id = 1 RETURNING generation),
  l AS (INSERT INTO ingest_log (generation, oldest_event, oldest_issue_event)
    SELECT generation, ${oldestEvent}, ${oldestIssueEvent} FROM g)
  DELETE FROM ingest_log WHERE generation <= (SELECT generation FROM g) - ${INGEST_LOG_KEPT}`;
const EVENT = (type: string) => `
  n AS (SELECT coalesce(max(id), 0) + 1 AS id FROM events),
  e AS (INSERT INTO events (id, type, actor_id, repo_id, org_id, public, created_at, complete, body)
    SELECT n.id, '${type}', $2, $1, NULL, true, $4, true, '{"id":"' || n.id || '"' || $5 FROM n),
  ${GENERATION("$4", "NULL")}`;
const ISSUE_EVENT = `
  n AS (SELECT coalesce(max(id), 0) + 1 AS id FROM issue_events),
  ie AS (INSERT INTO issue_events (id, repo_id, actor_id, created_at, complete, body, issue_number)
    SELECT n.id, $1, $2, $4, true, '{"id":"' || n.id || '"' || $5, $7 FROM n),
  t AS (UPDATE issues SET updated_at = $3 WHERE id = $6),
  ${GENERATION("NULL", "$4")}`;
const POSTGRES_WRITES: Record<ActionKind, string> = {
  issue: `WITH i AS (INSERT INTO issues (repo_id, number, user_id, title, body, state, created_at, updated_at)
    SELECT $1, coalesce(max(number), 0) + 1, $2, $6, NULL, 'open', $3, $3 FROM issues WHERE repo_id = $1),
    ${EVENT("IssuesEvent")}`,
  comment: `WITH c AS (INSERT INTO issue_comments (repo_id, issue_id, user_id, body, created_at, updated_at)
    VALUES ($1, $6, $2, $7, $3, $3)),
    u AS (UPDATE issues SET comments = comments + 1, updated_at = $3 WHERE id = $6),
    ${EVENT("IssueCommentEvent")}`,
  labeled: `WITH a AS (INSERT INTO issue_labels (issue_id, label_id) VALUES ($6, $8)), ${ISSUE_EVENT}`,
  unlabeled: `WITH a AS (DELETE FROM issue_labels WHERE issue_id = $6 AND label_id = $8), ${ISSUE_EVENT}`,
};
/** The ingest's lock (postgres/ingest.ts), so that the highest id each write reads is its own to follow. */
const BEGIN = "BEGIN; SELECT pg_advisory_xact_lock(hashtext('feedgate:ingest'))";

async function postgresWriter(job: ActionCeilingJob): Promise<Write> {
  // feedgate's pool size (--db-pool-size's default).
  const pool = new pg.Pool({ connectionString: job.db, max: 10 });
  const [owner, name] = job.repo.split("/");
  const { rows } = await pool.query<{ repo_id: string; user_id: string; label_id: string }>(
    `SELECT r.id AS repo_id, (SELECT id FROM users WHERE login = $1) AS user_id,
       (SELECT id FROM labels WHERE repo_id = r.id AND lower(name) = lower($2)) AS label_id
     FROM repos r JOIN users o ON o.id = r.owner_id WHERE o.login = $3 AND r.name = $4`,
    [job.login, job.label, owner, name],
  );
  const ids = rows[0]!;
  const issues = new Map(
    (
      await pool.query<{ number: number; id: string }>("SELECT number, id FROM issues WHERE repo_id = $1", [
        ids.repo_id,
      ])
    ).rows.map((r) => [r.number, r.id]),
  );
  const bodies = Object.fromEntries(ACTION_KINDS.map((k) => [k, afterId(job.bodies[k])])) as Record<ActionKind, string>;
  return async (kind, issue, text, at) => {
    const client = await pool.connect();
    try {
      await client.query(BEGIN);
      const common = [ids.repo_id, ids.user_id, at, seconds(at), bodies[kind]];
      const values =
        kind === "issue"
          ? [...common, text]
          : kind === "comment"
            ? [...common, issues.get(issue), text]
            : [...common, issues.get(issue), issue, ids.label_id];
      await client.query({ name: kind, text: POSTGRES_WRITES[kind], values });
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const job = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as ActionCeilingJob;
  const write = job.driver === "sqlite" ? sqliteWriter(job) : await postgresWriter(job);
  const answers = Object.fromEntries(
    ACTION_KINDS.map((kind) => [kind, { ...job.answers[kind], bytes: Buffer.from(job.answers[kind].body) }]),
  ) as Record<ActionKind, CapturedAnswer & { bytes: Buffer }>;

  createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const action = actionOf(request.method!, request.url!);
      if (action === null) {
        response.writeHead(404).end();
        return;
      }
      try {
        await write(action.kind, action.issue, Buffer.concat(chunks).toString("utf8"), new Date());
      } catch (error) {
        process.stderr.write(`${(error as Error).stack}\n`);
        response.writeHead(500).end();
        return;
      }
      const answer = answers[action.kind];
      response.writeHead(answer.status, answer.headers);
      response.end(answer.bytes);
    });
  }).listen(0, "127.0.0.1");
}
