/**
 * The action rows (issue "activity from actions"): opening an issue and commenting, each through a real
 * `feedgate serve` on a SQLite file and against its own ceiling (bench/action-ceiling.ts: bare node:http writing the
 * same rows with the same driver in one transaction, answering the bytes feedgate answered), measured the way every
 * HTTP row is (bench/load.ts: requests/s, p50/p99, server CPU per request). The world has no hook, so no delivery
 * is queued on either side; the ceiling writes no webhook row either.
 *
 * `npm run bench -- --only actions` runs these rows alone.
 */
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { ActionCeilingJob, CapturedAnswer } from "./action-ceiling.js";
import { measure, type LoadSettings, type Measurement, type Scenario } from "./load.js";
import { CLI, feedgate, ROOT, startListening } from "./processes.js";

const TOKEN = "ac710000000000000000000000000000000000b1";
const WORLD = {
  users: [{ login: "octocat" }],
  repos: [{ full_name: "octocat/hello" }],
  tokens: [{ user: "octocat", token: TOKEN, scopes: ["repo"], note: "bench" }],
  issues: [{ repo: "octocat/hello", number: 1, user: "octocat", title: "Where the comments go" }],
};
/** The CPU ratio each row aims at: the ceiling's CPU per write over feedgate's. */
export const ACTION_GOAL = 0.5;

const HEADERS = {
  Authorization: `token ${TOKEN}`,
  Accept: "application/vnd.github+json",
  "Content-Type": "application/json",
};
const ROWS = [
  {
    key: "issue",
    label: "POST /repos/:o/:r/issues (open an issue)",
    path: "/repos/octocat/hello/issues",
    body: { title: "Bench" },
  },
  {
    key: "comment",
    label: "POST /repos/:o/:r/issues/:n/comments",
    path: "/repos/octocat/hello/issues/1/comments",
    body: { body: "Bench comment" },
  },
] as const;

export interface ActionRow {
  key: string;
  label: string;
  feedgate: Measurement;
  ceiling: Measurement;
  /** Ceiling CPU per write over feedgate's. */
  ratio: number;
}

/** One answer as the ceiling replays it: status, flat header list, body. */
async function captured(response: Response): Promise<CapturedAnswer> {
  const headers: string[] = [];
  response.headers.forEach((value, name) => {
    headers.push(name, value);
  });
  return { status: response.status, headers, body: await response.text() };
}

export async function measureActions(settings: LoadSettings, dir: string, logLevel: string): Promise<ActionRow[]> {
  mkdirSync(dir, { recursive: true });
  const world = join(dir, "actions-world.json");
  writeFileSync(world, JSON.stringify(WORLD));
  const db = join(dir, `actions-${process.pid}.db`);
  const ceilingDb = join(dir, `actions-ceiling-${process.pid}.db`);
  await feedgate(["seed", world, "--db", db]);
  copyFileSync(db, ceilingDb); // seeding's connection is closed: the file holds everything (WAL checkpointed on close)

  const server = await startListening(
    [
      CLI,
      "serve",
      "--db",
      db,
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--log-level",
      logLevel,
      "--rate-limit-authenticated",
      "1000000000",
    ],
    join(dir, "actions-server.log"),
  );
  let ceiling: Awaited<ReturnType<typeof startListening>> | undefined;
  try {
    const post = (path: string, body: object) =>
      fetch(`${server.url}${path}`, { method: "POST", headers: HEADERS, body: JSON.stringify(body) });
    const answers = { issue: await captured(await post(ROWS[0].path, ROWS[0].body)) } as ActionCeilingJob["answers"];
    answers.comment = await captured(await post(ROWS[1].path, ROWS[1].body));
    for (const [key, answer] of Object.entries(answers))
      if (answer.status !== 201)
        throw new Error(`${key}: feedgate answered ${answer.status} ${answer.body.slice(0, 300)}`);
    const feed = (await (
      await fetch(`${server.url}/repos/octocat/hello/events?per_page=2`, { headers: HEADERS })
    ).json()) as {
      type: string;
    }[];
    const text = (type: string) => JSON.stringify(feed.find((e) => e.type === type));

    const seeded = new Database(ceilingDb, { readonly: true });
    const ids = seeded
      .prepare<[], { repoId: number; userId: number; issueId: number }>(
        `SELECT (SELECT id FROM repos) AS repoId, (SELECT id FROM users WHERE login = 'octocat') AS userId,
           (SELECT id FROM issues WHERE number = 1) AS issueId`,
      )
      .get()!;
    seeded.close();
    const job: ActionCeilingJob = {
      db: ceilingDb,
      ...ids,
      answers,
      events: { issue: text("IssuesEvent"), comment: text("IssueCommentEvent") },
    };
    const jobFile = join(dir, "actions-ceiling-job.json");
    writeFileSync(jobFile, JSON.stringify(job));
    ceiling = await startListening(
      ["--import", "tsx", `${ROOT}bench/action-ceiling.ts`, jobFile],
      join(dir, "actions-ceiling.log"),
    );

    const rows: ActionRow[] = [];
    for (const row of ROWS) {
      const scenario = (target: Scenario["target"]): Scenario => ({
        key: `action-${row.key}`,
        label: row.label,
        target,
        method: "POST",
        path: row.path,
        headers: HEADERS,
        body: JSON.stringify(row.body),
        expect: 201,
      });
      const measured = await measure(server.url, scenario("feedgate"), settings, server.pid, null);
      const bare = await measure(ceiling.url, scenario("ceiling"), settings, ceiling.pid, null);
      rows.push({
        key: row.key,
        label: row.label,
        feedgate: measured,
        ceiling: bare,
        ratio: bare.cpuMsPerRequest / measured.cpuMsPerRequest,
      });
    }
    return rows;
  } finally {
    await ceiling?.stop();
    await server.stop();
  }
}

const ms = (n: number) => n.toFixed(3);

export function renderActions(rows: ActionRow[]): string {
  const lines = [
    "## Actions (SQLite): writes against their own ceiling",
    "",
    "Each row: feedgate's `serve` writing the action (state, event, issue events, outbox, generation in one transaction)",
    "against bare node:http writing the same rows with better-sqlite3 in one transaction and answering the same bytes.",
    "",
    "| row | feedgate req/s | p50 ms | p99 ms | CPU ms/write | ceiling req/s | ceiling CPU ms/write | CPU ratio | goal |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---|",
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.label} | ${r.feedgate.rps.toFixed(0)} | ${ms(r.feedgate.p50)} | ${ms(r.feedgate.p99)} | ` +
        `${ms(r.feedgate.cpuMsPerRequest)} | ${r.ceiling.rps.toFixed(0)} | ${ms(r.ceiling.cpuMsPerRequest)} | ` +
        `${r.ratio.toFixed(2)} | >= ${ACTION_GOAL} ${r.ratio >= ACTION_GOAL ? "held" : "missed"}` +
        `${r.feedgate.errors + r.ceiling.errors > 0 ? ` (errors: ${r.feedgate.errors} / ${r.ceiling.errors})` : ""} |`,
    );
  }
  return `${lines.join("\n")}\n`;
}

// `npm run bench:actions [-- --duration S --connections N]`: these rows alone, from the built CLI (npm run build).
if (import.meta.url === `file://${process.argv[1]}`) {
  const { parseOptions } = await import("./options.js");
  const options = parseOptions();
  process.stdout.write(renderActions(await measureActions(options, options.dataDir, options.logLevel)));
}
