/**
 * The action rows (issue "activity from actions"), on SQLite and on PostgreSQL: opening an issue, commenting, and
 * adding a label to an issue, each through a real `feedgate serve` and against its own ceiling
 * (bench/action-ceiling.ts: bare node:http writing the same rows with the same driver in one transaction, answering
 * the bytes feedgate answered), measured the way every HTTP row is (bench/load.ts: requests/s, p50/p99, server CPU
 * per request; on PostgreSQL also its backends' CPU). The world has no hook while the rows run, so no delivery is
 * queued on either side; the ceiling writes no webhook row either.
 *
 * The label row writes on every request, as GitHub does: each connection has an issue of its own and alternates
 * `POST .../issues/:n/labels` (`{"labels":["bug"]}`: the label, a `labeled` issue event) with
 * `DELETE .../issues/:n/labels/bug` (an `unlabeled` one); a label added to an issue that has it writes nothing.
 *
 * Before the rows, each action is sent once to feedgate and once to its ceiling, and the rows each database gained
 * (and its generation) are compared: a ceiling that writes otherwise than feedgate gets no ratio, and the report
 * says why. Then, with a hook and a live stream on the repository, issues are opened below capacity and timed to
 * their delivery and their frame (bench/action-arrivals.ts).
 *
 * `npm run bench -- --only actions` runs these rows alone; `npm run bench:actions` too, without the rest.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type autocannon from "autocannon";
import { ACTION_KINDS, type ActionCeilingJob, type ActionKind, type CapturedAnswer } from "./action-ceiling.js";
import { measureArrivals, type ArrivalMeasurement } from "./action-arrivals.js";
import {
  backendCpu,
  countsMoved,
  databaseCounts,
  prepareDatabases,
  storedBodies,
  type Driver,
} from "./action-databases.js";
import { measure, type LoadSettings, type Measurement, type Scenario } from "./load.js";
import { probePostgres, redact } from "./postgres.js";
import { CLI, ROOT, startListening } from "./processes.js";

const TOKEN = "ac710000000000000000000000000000000000b1";
/** Makes the arrival phase's hook: a token of its own, so that the rows' answers carry the scopes they always did. */
const HOOK_TOKEN = "ac710000000000000000000000000000000000b2";
const REPO = "octocat/hello";
const LABEL = "bug";
/** The label row's issues: one per connection, from this number on; issue 1 holds the comments. */
const FIRST_LABEL_ISSUE = 2;

function world(connections: number) {
  return {
    users: [{ login: "octocat" }],
    repos: [{ full_name: REPO }],
    tokens: [
      { user: "octocat", token: TOKEN, scopes: ["repo"], note: "bench" },
      { user: "octocat", token: HOOK_TOKEN, scopes: ["admin:repo_hook"], note: "bench hooks" },
    ],
    issues: [
      // Labelled, so that the label exists, and so that the captures can remove it and add it again.
      { repo: REPO, number: 1, user: "octocat", title: "Where the comments go", labels: [LABEL] },
      ...Array.from({ length: connections }, (_, i) => ({
        repo: REPO,
        number: FIRST_LABEL_ISSUE + i,
        user: "octocat",
        title: `Labelled by connection ${i}`,
      })),
    ],
  };
}

/** The CPU ratio each row aims at: the ceiling's CPU per write over feedgate's. */
export const ACTION_GOAL = 0.5;
/** Issue 43's goals below capacity, on the p99 from the POST sent. */
export const WEBHOOK_GOAL_MS = 100;
export const STREAM_GOAL_MS = 50;
/** The arrival phase's rate: at most this, and at most half the issue row's measured capacity. */
const ARRIVAL_RATE = 50;

const AUTH = { Authorization: `token ${TOKEN}`, Accept: "application/vnd.github+json" };
const HEADERS = { ...AUTH, "Content-Type": "application/json" };
const PATH = `/repos/${REPO}`;

/** One request of each action, as the captures and the checks send it (on issue 1: remove the label, add it back). */
const ONCE: Record<ActionKind, { method: "POST" | "DELETE"; path: string; body?: object }> = {
  issue: { method: "POST", path: `${PATH}/issues`, body: { title: "Bench" } },
  comment: { method: "POST", path: `${PATH}/issues/1/comments`, body: { body: "Bench comment" } },
  unlabeled: { method: "DELETE", path: `${PATH}/issues/1/labels/${LABEL}` },
  labeled: { method: "POST", path: `${PATH}/issues/1/labels`, body: { labels: [LABEL] } },
};

const labelRequests = (connection: number): autocannon.Request[] => {
  const issue = `${PATH}/issues/${FIRST_LABEL_ISSUE + connection}/labels`;
  return [
    { method: "POST", path: issue, headers: HEADERS, body: JSON.stringify({ labels: [LABEL] }) },
    { method: "DELETE", path: `${issue}/${LABEL}`, headers: AUTH },
  ];
};

const ROWS: {
  key: string;
  label: string;
  kinds: ActionKind[];
  scenario: Omit<Scenario, "target" | "key" | "label">;
}[] = [
  {
    key: "issue",
    label: "POST /repos/:o/:r/issues (open an issue)",
    kinds: ["issue"],
    scenario: { method: "POST", path: ONCE.issue.path, headers: HEADERS, body: '{"title":"Bench"}', expect: 201 },
  },
  {
    key: "comment",
    label: "POST /repos/:o/:r/issues/:n/comments",
    kinds: ["comment"],
    scenario: {
      method: "POST",
      path: ONCE.comment.path,
      headers: HEADERS,
      body: '{"body":"Bench comment"}',
      expect: 201,
    },
  },
  {
    key: "label",
    label: "POST /repos/:o/:r/issues/:n/labels, alternating with DELETE .../labels/:name",
    kinds: ["labeled", "unlabeled"],
    scenario: { method: "POST", path: ONCE.labeled.path, headers: AUTH, expect: 200, perConnection: labelRequests },
  },
];

export interface ActionRow {
  key: string;
  label: string;
  feedgate: Measurement;
  ceiling: Measurement;
  /** Ceiling CPU per write over feedgate's; null when the ceiling did not write what feedgate wrote (`why`). */
  ratio: number | null;
  why?: string;
}

export interface DriverActions {
  driver: Driver;
  rows: ActionRow[];
  arrivals: ArrivalMeasurement | null;
}

export interface ActionsReport {
  drivers: DriverActions[];
  /** Rows not measured and why (no PostgreSQL server), a phase that failed. */
  notes: string[];
}

/** One answer as the ceiling replays it: status, flat header list, body. */
async function captured(response: Response): Promise<CapturedAnswer> {
  const headers: string[] = [];
  response.headers.forEach((value, name) => {
    headers.push(name, value);
  });
  return { status: response.status, headers, body: await response.text() };
}

const send = (url: string, kind: ActionKind) =>
  fetch(`${url}${ONCE[kind].path}`, {
    method: ONCE[kind].method,
    headers: ONCE[kind].body ? HEADERS : AUTH,
    ...(ONCE[kind].body ? { body: JSON.stringify(ONCE[kind].body) } : {}),
  });

/** Sends each action once, in ACTION_KINDS' order, and says what each made its database gain. */
async function writesOf(
  driver: Driver,
  db: string,
  url: string,
  each?: (kind: ActionKind, response: Response) => Promise<void>,
): Promise<Record<ActionKind, string>> {
  const moved = {} as Record<ActionKind, string>;
  for (const kind of ACTION_KINDS) {
    const before = await databaseCounts(driver, db);
    const response = await send(url, kind);
    if (each) await each(kind, response);
    else await response.arrayBuffer();
    moved[kind] = countsMoved(before, await databaseCounts(driver, db)).join(", ");
  }
  return moved;
}

const serveArgs = (db: string, logLevel: string) => [
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
];

async function measureDriver(
  driver: Driver,
  settings: LoadSettings,
  dir: string,
  logLevel: string,
  adminUrl: string,
): Promise<DriverActions> {
  const worldFile = join(dir, "actions-world.json");
  writeFileSync(worldFile, JSON.stringify(world(settings.connections)));
  const dbs = await prepareDatabases(driver, worldFile, dir, adminUrl);
  let server: Awaited<ReturnType<typeof startListening>> | undefined;
  let ceiling: Awaited<ReturnType<typeof startListening>> | undefined;
  try {
    server = await startListening(serveArgs(dbs.feedgate, logLevel), join(dir, `actions-server-${driver}.log`));
    const answers = {} as Record<ActionKind, CapturedAnswer>;
    const made = await writesOf(driver, dbs.feedgate, server.url, async (kind, response) => {
      answers[kind] = await captured(response);
    });
    for (const [kind, answer] of Object.entries(answers))
      if (answer.status !== (kind === "issue" || kind === "comment" ? 201 : 200))
        throw new Error(`${kind}: feedgate answered ${answer.status} ${answer.body.slice(0, 300)}`);
    const stored = await storedBodies(
      driver,
      dbs.feedgate,
      ["IssuesEvent", "IssueCommentEvent"],
      ["labeled", "unlabeled"],
    );
    const job: ActionCeilingJob = {
      driver,
      db: dbs.ceiling,
      repo: REPO,
      login: "octocat",
      label: LABEL,
      answers,
      bodies: {
        issue: stored.get("IssuesEvent")!,
        comment: stored.get("IssueCommentEvent")!,
        labeled: stored.get("labeled")!,
        unlabeled: stored.get("unlabeled")!,
      },
    };
    const jobFile = join(dir, `actions-ceiling-job-${driver}.json`);
    writeFileSync(jobFile, JSON.stringify(job));
    ceiling = await startListening(
      ["--import", "tsx", `${ROOT}bench/action-ceiling.ts`, jobFile],
      join(dir, `actions-ceiling-${driver}.log`),
    );
    const ceilingMade = await writesOf(driver, dbs.ceiling, ceiling.url);
    const differs = (kinds: ActionKind[]) =>
      kinds
        .filter((k) => made[k] !== ceilingMade[k])
        .map((k) => `${k}: feedgate wrote ${made[k] || "nothing"}, the ceiling ${ceilingMade[k] || "nothing"}`)
        .join("; ");

    const databaseCpu = (db: string) => (driver === "postgres" ? { databaseCpu: backendCpu(db) } : {});
    const rows: ActionRow[] = [];
    for (const row of ROWS) {
      const scenario = (target: Scenario["target"]): Scenario => ({
        key: `action-${row.key}`,
        label: row.label,
        target,
        ...row.scenario,
      });
      const measured = await measure(
        server.url,
        scenario("feedgate"),
        settings,
        server.pid,
        null,
        databaseCpu(dbs.feedgate),
      );
      const bare = await measure(
        ceiling.url,
        scenario("ceiling"),
        settings,
        ceiling.pid,
        null,
        databaseCpu(dbs.ceiling),
      );
      const why = differs(row.kinds);
      rows.push({
        key: row.key,
        label: row.label,
        feedgate: measured,
        ceiling: bare,
        ratio: why ? null : bare.cpuMsPerRequest / measured.cpuMsPerRequest,
        ...(why ? { why } : {}),
      });
    }
    await ceiling.stop();
    ceiling = undefined;
    const capacity = rows[0]!.feedgate.rps;
    const rate = Math.max(1, Math.min(ARRIVAL_RATE, Math.floor(capacity / 2)));
    const arrivals = await measureArrivals(
      server.url,
      server.pid,
      { repo: REPO, token: TOKEN, hookToken: HOOK_TOKEN },
      rate,
      settings.durationSeconds,
    );
    return { driver, rows, arrivals };
  } finally {
    await ceiling?.stop();
    await server?.stop();
    await dbs.drop();
  }
}

/**
 * The rows on SQLite, then on PostgreSQL when `postgres` names a server (its administrative URL: two scratch
 * databases are made on it and dropped after) that answers; a driver that fails is a note, the other still measured.
 */
export async function measureActions(
  settings: LoadSettings,
  dir: string,
  logLevel: string,
  postgres: string | null,
): Promise<ActionsReport> {
  mkdirSync(dir, { recursive: true });
  const report: ActionsReport = { drivers: [], notes: [] };
  const drivers: Driver[] = ["sqlite"];
  if (postgres === null) report.notes.push("PostgreSQL rows: not measured (--skip-postgres)");
  else {
    const probe = await probePostgres(postgres);
    if ("unreachable" in probe) report.notes.push(`PostgreSQL rows: skipped: ${probe.unreachable}`);
    else drivers.push("postgres");
  }
  for (const driver of drivers) {
    try {
      report.drivers.push(await measureDriver(driver, settings, dir, logLevel, postgres ?? ""));
    } catch (error) {
      report.notes.push(`${DRIVER_NAMES[driver]} rows: failed: ${(error as Error).message.split("\n")[0]}`);
    }
  }
  if (postgres !== null && drivers.includes("postgres"))
    report.notes.push(`PostgreSQL: scratch databases on ${redact(postgres)}, dropped after`);
  return report;
}

const DRIVER_NAMES: Record<Driver, string> = { sqlite: "SQLite", postgres: "PostgreSQL" };
const ms = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? "-" : n.toFixed(3));
const held = (ok: boolean) => (ok ? "held" : "missed");

export function renderActions(report: ActionsReport): string {
  const lines = [
    "## Actions: writes against their own ceiling",
    "",
    "Each row: feedgate's `serve` writing the action (state, event or issue event, generation in one transaction)",
    "against bare node:http writing the same rows with the same driver in one transaction and answering the same",
    "bytes. CPU is the server process's; on PostgreSQL the database's backends are a column of their own.",
    "",
    "| driver | row | feedgate req/s | p50 ms | p99 ms | CPU ms/write | db CPU ms/write | ceiling req/s | ceiling CPU ms/write | ceiling db CPU ms/write | CPU ratio | goal |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
  ];
  for (const { driver, rows } of report.drivers) {
    for (const r of rows) {
      const errors = r.feedgate.errors + r.ceiling.errors;
      const goal =
        r.ratio === null
          ? `no ratio: ${r.why}`
          : `>= ${ACTION_GOAL} ${held(r.ratio >= ACTION_GOAL)}${errors > 0 ? ` (errors: ${r.feedgate.errors} / ${r.ceiling.errors})` : ""}`;
      lines.push(
        `| ${DRIVER_NAMES[driver]} | ${r.label} | ${r.feedgate.rps.toFixed(0)} | ${ms(r.feedgate.p50)} | ${ms(r.feedgate.p99)} | ` +
          `${ms(r.feedgate.cpuMsPerRequest)} | ${ms(r.feedgate.databaseCpuMsPerRequest)} | ${r.ceiling.rps.toFixed(0)} | ` +
          `${ms(r.ceiling.cpuMsPerRequest)} | ${ms(r.ceiling.databaseCpuMsPerRequest)} | ` +
          `${r.ratio === null ? "-" : r.ratio.toFixed(2)} | ${goal} |`,
      );
    }
  }
  const timed = report.drivers.filter((d) => d.arrivals !== null);
  if (timed.length) {
    lines.push(
      "",
      "Below capacity: issues opened at a steady rate (each POST sent on schedule) with a hook (`issues`) to a local",
      "receiver and a live stream of the repository's events open; each delivery and frame timed from its POST's sending.",
      "",
      "| driver | from the POST sent to | rate/s | of capacity | arrived | p50 ms | p99 ms | max ms | goal |",
      "|---|---|---:|---:|---:|---:|---:|---:|---|",
    );
    for (const { driver, rows, arrivals: a } of timed) {
      const share = `${((a!.rate / rows[0]!.feedgate.rps) * 100).toFixed(0)}%`;
      const line = (what: string, x: ArrivalMeasurement["webhook"], goal: string) =>
        `| ${DRIVER_NAMES[driver]} | ${what} | ${a!.rate} | ${share} | ${x.arrived} of ${a!.opened} | ` +
        `${x.p50Ms.toFixed(1)} | ${x.p99Ms.toFixed(1)} | ${x.maxMs.toFixed(1)} | ${goal} |`;
      lines.push(
        line("its answer (201)", a!.answers, "-"),
        line(
          "the webhook's arrival",
          a!.webhook,
          `p99 <= ${WEBHOOK_GOAL_MS} ${held(a!.webhook.p99Ms <= WEBHOOK_GOAL_MS && a!.webhook.arrived === a!.opened)}`,
        ),
        line(
          "the stream frame",
          a!.stream,
          `p99 <= ${STREAM_GOAL_MS} ${held(a!.stream.p99Ms <= STREAM_GOAL_MS && a!.stream.arrived === a!.opened)}`,
        ),
      );
    }
    lines.push(
      "",
      ...timed.map(
        ({ driver, arrivals: a }) =>
          `${DRIVER_NAMES[driver]}: server CPU ${a!.cpuMsPerWrite.toFixed(3)} ms per issue opened at ${a!.rate}/s, its delivery and frame included.`,
      ),
    );
  }
  if (report.notes.length) lines.push("", ...report.notes.map((n) => `- ${n}`));
  return `${lines.join("\n")}\n`;
}

// `npm run bench:actions [-- --duration S --connections N --postgres-db URL --skip-postgres]`: these rows alone, from
// the built CLI (npm run build). `--postgres-db` names the PostgreSQL server the scratch databases are made on.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { parseOptions } = await import("./options.js");
  const { POSTGRES_ADMIN_URL } = await import("./postgres.js");
  const options = parseOptions();
  const postgres = options.postgres ? (options.postgresDb ?? POSTGRES_ADMIN_URL) : null;
  process.stdout.write(renderActions(await measureActions(options, options.dataDir, options.logLevel, postgres)));
}
