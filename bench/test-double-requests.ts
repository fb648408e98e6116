/**
 * The test double's CPU per request (issue 47, item 3): a `feedgate/testing` double with one user, its token and one
 * public repository holding 1,000 events, asked `GET /repos/o/r` with the token and a feed page of 30 events
 * (`GET /repos/o/r/events`, the same request again and again, as a poller sends it) over 32 keep-alive sockets by a
 * child process, so that only the server's CPU is counted (process.cpuUsage of this process). Each request is
 * measured against its own bare ceiling in the same run: a node:http server in this process sending the bytes the
 * double sent (status, the same headers in the same order, body). `npm run bench:test-double-requests`.
 *
 * Run with `--client` it is the load driver: it reads jobs from its parent over IPC.
 */
import { fork } from "node:child_process";
import { Agent, createServer, request as httpRequest, type OutgoingHttpHeader, type Server } from "node:http";
import { startFeedgate } from "../src/testing/index.js";

const SOCKETS = 32;
const WARM_UP = 3000;
const REQUESTS = Number(process.env.FEEDGATE_BENCH_REQUESTS ?? 20_000);
const ROUNDS = Number(process.env.FEEDGATE_BENCH_ROUNDS ?? 3);
const WORLD_EVENTS = 1000;

interface Job {
  url: string;
  headers: Record<string, string>;
  requests: number;
}

/** The child: sends each job's requests over SOCKETS keep-alive sockets, SOCKETS at a time, and says when done. */
async function client(): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: SOCKETS });
  const once = (job: Job) =>
    new Promise<number>((resolve, reject) => {
      const sent = httpRequest(job.url, { agent, headers: job.headers }, (response) => {
        response.on("data", () => undefined);
        response.on("end", () => resolve(response.statusCode ?? 0));
      });
      sent.on("error", reject);
      sent.end();
    });
  process.on("message", async (job: Job) => {
    let left = job.requests;
    let failed = 0;
    await Promise.all(
      Array.from({ length: SOCKETS }, async () => {
        while (left-- > 0) if ((await once(job)) !== 200) failed++;
      }),
    );
    process.send!({ failed });
  });
  process.on("disconnect", () => process.exit(0));
}

/** A driver in a child process; `run` sends a job and resolves when its requests are answered. */
function driver() {
  const child = fork(new URL(import.meta.url).pathname, ["--client"], {
    execArgv: ["--import", "tsx"],
    stdio: "inherit",
  });
  const run = (job: Job) =>
    new Promise<void>((resolve, reject) => {
      child.once("message", (message: { failed: number }) =>
        message.failed === 0 ? resolve() : reject(new Error(`${message.failed} requests were not answered 200`)),
      );
      child.send(job);
    });
  return { run, close: () => child.disconnect() };
}

interface Answer {
  status: number;
  headers: OutgoingHttpHeader[];
  body: Buffer;
}

/** The answer to one request, as it left: status, the raw header list and the body. */
function answerOf(url: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.rawHeaders, body: Buffer.concat(chunks) }),
      );
    });
    sent.on("error", reject);
    sent.end();
  });
}

/** The ceiling: a node:http server sending `answer` as it is, for every request. */
async function bare(answer: Answer): Promise<{ url: string; server: Server }> {
  // Node writes its own Date, Connection and Keep-Alive; the answer's own are left to it, counted the same.
  const own = new Set(["date", "connection", "keep-alive"]);
  const headers: OutgoingHttpHeader[] = [];
  for (let i = 0; i < answer.headers.length; i += 2)
    if (!own.has(String(answer.headers[i]).toLowerCase())) headers.push(answer.headers[i]!, answer.headers[i + 1]!);
  const server = createServer((request, response) => {
    request.resume();
    response.writeHead(answer.status, headers);
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, server };
}

/** Server CPU of this process per request, in microseconds, for `job` driven by the child. */
async function cpuPerRequest(run: (job: Job) => Promise<void>, job: Job): Promise<number> {
  await run({ ...job, requests: WARM_UP });
  const before = process.cpuUsage();
  await run(job);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / job.requests;
}

export interface RequestRow {
  name: string;
  bytes: number;
  headers: number;
  doubleUs: number;
  ceilingUs: number;
}

export interface RequestMeasurement {
  logLevel: string;
  rows: RequestRow[];
}

export async function measureTestDoubleRequests(): Promise<RequestMeasurement> {
  const fg = await startFeedgate({
    world: {
      users: [{ login: "o" }],
      repos: [{ full_name: "o/r" }],
      events: Array.from({ length: WORLD_EVENTS }, (_, i) => ({
        id: String(i + 1),
        type: "PushEvent",
        actor: { login: "o" },
        repo: { name: "o/r" },
        payload: { size: 1, commits: [{ sha: `${i}`.padStart(40, "0"), message: `commit ${i}` }] },
        created_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString().replace(/\.000Z$/, "Z"),
      })),
    },
    now: "2026-02-01T00:00:00Z",
    // The double's own limit of 5,000 an hour would refuse the run: the clock stands still.
    settings: { rateLimitAuthenticated: 10_000_000, rateLimitAnonymous: 10_000_000 },
  });
  const load = driver();
  try {
    const token = await fg.token("o");
    const headers = { authorization: `token ${token}`, accept: "application/vnd.github+json" };
    const requests = [
      { name: "`GET /repos/o/r` with a token", path: "/repos/o/r" },
      { name: "`GET /repos/o/r/events`, a page of 30 events, with a token", path: "/repos/o/r/events" },
    ];
    const rows: RequestRow[] = [];
    // FEEDGATE_BENCH_ONLY=/repos/o/r measures that request alone, and FEEDGATE_BENCH_CEILING=0 skips the ceilings
    // (for a profile of the double alone: node --cpu-prof).
    const only = process.env.FEEDGATE_BENCH_ONLY;
    const withCeiling = process.env.FEEDGATE_BENCH_CEILING !== "0";
    for (const { name, path } of requests.filter((r) => only === undefined || r.path === only)) {
      const answer = await answerOf(`${fg.url}${path}`, headers);
      if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}`);
      const ceiling = await bare(answer);
      try {
        const doubles: number[] = [];
        const ceilings: number[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          doubles.push(await cpuPerRequest(load.run, { url: `${fg.url}${path}`, headers, requests: REQUESTS }));
          if (withCeiling)
            ceilings.push(await cpuPerRequest(load.run, { url: `${ceiling.url}${path}`, headers, requests: REQUESTS }));
        }
        rows.push({
          name,
          bytes: answer.body.length,
          headers: answer.headers.length / 2,
          doubleUs: Math.min(...doubles),
          ceilingUs: withCeiling ? Math.min(...ceilings) : Number.NaN,
        });
      } finally {
        await new Promise((resolve) => ceiling.server.close(resolve));
      }
    }
    return { logLevel: fg.app.log.level, rows };
  } finally {
    load.close();
    await fg.close();
  }
}

export function renderTestDoubleRequests(m: RequestMeasurement): string {
  return [
    "## The test double's requests (feedgate/testing)",
    "",
    `Server CPU per request (the double's process; the client is a child process on ${SOCKETS} keep-alive sockets), ` +
      `the least of ${ROUNDS} rounds of ${REQUESTS} requests; the ceiling is a bare node:http server sending the same ` +
      `status, headers and body. The double logs at \`${m.logLevel}\`.`,
    "",
    "| request | body | headers | double | ceiling | ratio | goal |",
    "|---|---:|---:|---:|---:|---:|---|",
    ...m.rows.map(
      (r) =>
        `| ${r.name} | ${r.bytes} B | ${r.headers} | ${r.doubleUs.toFixed(1)} µs | ${r.ceilingUs.toFixed(1)} µs | ` +
        `${(r.doubleUs / r.ceilingUs).toFixed(2)} | < 113 µs: ${r.doubleUs < 113 ? "held" : "missed"} |`,
    ),
    "",
  ].join("\n");
}

if (process.argv.includes("--client")) await client();
else if (import.meta.url === `file://${process.argv[1]}`)
  process.stdout.write(renderTestDoubleRequests(await measureTestDoubleRequests()));
