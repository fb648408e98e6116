/**
 * The action rows' own ceiling (issue "activity from actions"): bare node:http that, for each POST, reads the body
 * and writes the rows the action writes, with the same driver, in one transaction, then answers with the bytes
 * feedgate answered that action with (captured in the same run). For opening an issue: the issue, its IssuesEvent
 * (the captured event's text, with its next id and arrival number) and the generation with its ingest-log row; for a
 * comment: the comment, the issue's count, its IssueCommentEvent and the generation. Nothing is validated,
 * authenticated, rate-limited, converted or serialized: the least a server can do to make those rows and send those
 * bytes, so each row's CPU ratio is feedgate's cost over the bare cost of its own write.
 *
 *   node --import tsx bench/action-ceiling.ts <job.json>    (job: ActionCeilingJob)
 */
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";

export interface CapturedAnswer {
  status: number;
  headers: string[];
  body: string;
}

export interface ActionCeilingJob {
  /** A copy of the seeded database feedgate wrote to, for the ceiling to write to. */
  db: string;
  repoId: number;
  userId: number;
  /** The issue the comments go on. */
  issueId: number;
  answers: { issue: CapturedAnswer; comment: CapturedAnswer };
  /** The events feedgate made, their text as stored: written again with the next id. */
  events: { issue: string; comment: string };
}

const job = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as ActionCeilingJob;
const db = new Database(job.db);
db.pragma("journal_mode = WAL");

const statements = {
  nextEvent: db.prepare<[], { id: number; seq: number }>(
    "SELECT coalesce(max(id), 0) + 1 AS id, (SELECT coalesce(max(seq), 0) + 1 FROM events) AS seq FROM events",
  ),
  event: db.prepare(
    `INSERT INTO events (id, type, actor_id, repo_id, org_id, public, created_at, complete, body, seq)
     VALUES (?, ?, ?, ?, NULL, 1, ?, 1, ?, ?)`,
  ),
  issue: db.prepare(
    `INSERT INTO issues (repo_id, number, user_id, title, body, state, created_at, updated_at)
     VALUES (?, (SELECT coalesce(max(number), 0) + 1 FROM issues WHERE repo_id = ?), ?, ?, NULL, 'open', ?, ?)`,
  ),
  comment: db.prepare(
    "INSERT INTO issue_comments (repo_id, issue_id, user_id, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
  ),
  counted: db.prepare("UPDATE issues SET comments = comments + 1, updated_at = ? WHERE id = ?"),
  generation: db.prepare("UPDATE ingest_state SET generation = generation + 1 WHERE id = 1"),
  logged: db.prepare(
    `INSERT INTO ingest_log (generation, oldest_event, oldest_issue_event)
     VALUES ((SELECT generation FROM ingest_state WHERE id = 1), ?, NULL)`,
  ),
};

function made(type: string, text: string, at: string): void {
  const { id, seq } = statements.nextEvent.get()!;
  const seconds = Math.floor(Date.parse(at) / 1000);
  statements.event.run(id, type, job.userId, job.repoId, seconds, text.replace(/^\{"id":"\d+"/, `{"id":"${id}"`), seq);
  statements.generation.run();
  statements.logged.run(seconds);
}

const openIssue = db.transaction((title: string, at: string) => {
  statements.issue.run(job.repoId, job.repoId, job.userId, title, at, at);
  made("IssuesEvent", job.events.issue, at);
});
const comment = db.transaction((body: string, at: string) => {
  statements.comment.run(job.repoId, job.issueId, job.userId, body, at, at);
  statements.counted.run(at, job.issueId);
  made("IssueCommentEvent", job.events.comment, at);
});

const answers = Object.fromEntries(
  Object.entries(job.answers).map(([key, a]) => [key, { ...a, bytes: Buffer.from(a.body) }]),
) as Record<keyof ActionCeilingJob["answers"], CapturedAnswer & { bytes: Buffer }>;

createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const text = Buffer.concat(chunks).toString("utf8");
    const at = new Date().toISOString();
    const kind = request.url!.endsWith("/comments") ? "comment" : "issue";
    if (kind === "comment") comment(text, at);
    else openIssue(text, at);
    const answer = answers[kind];
    response.writeHead(answer.status, answer.headers);
    response.end(answer.bytes);
  });
}).listen(0, "127.0.0.1");
