/**
 * `npm run bench:outage`: a real `feedgate serve` on PostgreSQL, under load, while the network to PostgreSQL is
 * cut for a while (a TCP proxy between them) and then restored. Reports the statuses seen each second (a 200 that
 * carries `Warning: 110` counted apart, as `200 stale`: `--stale-if-error`), what each kind of request got during the
 * outage and how fast, whether the process stayed up, and how many seconds after the restore the first request, and
 * then every request, was served again. `--mode blackhole` drops the traffic instead of resetting the connections (a
 * dead route rather than a restarted server); `--outage`, `--before`, `--after` are seconds; `--connections` the
 * concurrent clients; `--stale-if-error` is passed to the server (`0`: every request during the outage is 503).
 */
import { parseArgs } from "node:util";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { CLI, feedgate, startListening } from "./processes.js";
import { createScratchDatabase, probePostgres } from "./postgres.js";
import { TcpProxy, type CutMode } from "../tests/helpers/tcp-proxy.js";
import { percentile } from "./percentile.js";

const { values: options } = parseArgs({
  options: {
    outage: { type: "string", default: "10" },
    before: { type: "string", default: "3" },
    after: { type: "string", default: "5" },
    connections: { type: "string", default: "16" },
    mode: { type: "string", default: "reset" },
    "stale-if-error": { type: "string", default: "60s" },
  },
});
const seconds = (name: keyof typeof options) => Number(options[name]);

const probe = await probePostgres();
if ("unreachable" in probe) {
  process.stdout.write(`PostgreSQL is not reachable (${probe.unreachable}): nothing to measure\n`);
  process.exit(0);
}

const database = await createScratchDatabase();
const direct = new URL(database.url);
const proxy = new TcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
const viaProxy = new URL(database.url);
viaProxy.port = String(await proxy.start());

await feedgate(["migrate", "--db", database.url]);
await feedgate(["user", "add", "alice", "--password", "alice-password", "--db", database.url]);
const token = (await feedgate(["token", "add", "alice", "--scopes", "repo", "--db", database.url])).stdout.trim();
await feedgate(["import", "--db", database.url, "demo/2021-07-21-sample.ndjson.gz"]);

const logFile = join(tmpdir(), "feedgate-outage.log");
const server = await startListening(
  [
    CLI,
    "serve",
    "--port",
    "0",
    "--db",
    viaProxy.toString(),
    "--log-level",
    "warn",
    "--rate-limit-anonymous",
    "100000000",
    "--rate-limit-authenticated",
    "100000000",
    "--stale-if-error",
    options["stale-if-error"],
  ],
  logFile,
);
let exitedDuringRun = false;
server.child.once("exit", () => (exitedDuringRun = true));

/** What the clients ask, in turn: anonymous polls (which may be answered stale), a token's poll, a password login. */
const kinds: { name: string; path: string; headers: Record<string, string> }[] = [
  { name: "anonymous GET /events", path: "/events", headers: {} },
  { name: "anonymous GET /orgs/Lombiq/events", path: "/orgs/Lombiq/events", headers: {} },
  { name: "token GET /orgs/Lombiq/events", path: "/orgs/Lombiq/events", headers: { authorization: `token ${token}` } },
  {
    name: "Basic GET /authorizations",
    path: "/authorizations",
    headers: { authorization: `Basic ${Buffer.from("alice:alice-password").toString("base64")}` },
  },
];
const started = Date.now();
const end = started + (seconds("before") + seconds("outage") + seconds("after")) * 1000;
/** Per whole second since the start: status (or "network error") -> count. */
const timeline: Map<string, number>[] = [];
let cutAt = Infinity;
let restoredAt = 0;
let firstServedAfterRestore = 0;
let lastFailure = 0;
/** Requests sent and answered while the network was cut: kind -> status -> latencies (ms). */
const duringOutage = kinds.map(() => new Map<string, number[]>());
let oldestStaleAge = 0;

async function client(index: number) {
  for (let i = index; Date.now() < end; i++) {
    const which = i % kinds.length;
    const sent = Date.now();
    let status: string;
    try {
      const res = await fetch(`${server.url}${kinds[which]!.path}`, { headers: kinds[which]!.headers });
      await res.arrayBuffer();
      const stale = res.status === 200 && res.headers.has("warning");
      status = stale ? "200 stale" : String(res.status);
      if (stale) oldestStaleAge = Math.max(oldestStaleAge, Number(res.headers.get("age")));
    } catch {
      status = "network error";
    }
    const now = Date.now();
    const second = Math.floor((now - started) / 1000);
    const counts = (timeline[second] ??= new Map());
    counts.set(status, (counts.get(status) ?? 0) + 1);
    if (sent >= cutAt && !restoredAt) {
      const latencies = duringOutage[which]!;
      const list = latencies.get(status) ?? [];
      if (list.length === 0) latencies.set(status, list);
      list.push(now - sent);
    }
    if (status !== "200") lastFailure = now;
    if (restoredAt && !firstServedAfterRestore && status === "200") firstServedAfterRestore = now;
  }
}

const load = Promise.all(Array.from({ length: seconds("connections") }, (_, i) => client(i)));
await sleep(seconds("before") * 1000);
proxy.cut(options.mode as CutMode);
cutAt = Date.now();
await sleep(seconds("outage") * 1000);
proxy.restore();
restoredAt = Date.now();
await load;

const ready = await fetch(`${server.url}/readyz`).then(
  (res) => res.status,
  () => "network error",
);
const stayedUp = !exitedDuringRun;
await server.stop();
await proxy.close();
await database.drop();

const totals = new Map<string, number>();
for (const counts of timeline)
  for (const [status, n] of counts ?? []) totals.set(status, (totals.get(status) ?? 0) + n);
const statuses = [...totals.keys()].sort();
const ms = (values: number[] | undefined, p: number) =>
  values?.length
    ? String(
        percentile(
          [...values].sort((a, b) => a - b),
          p,
        ),
      )
    : "-";
const outageStatuses = [...new Set(duringOutage.flatMap((byStatus) => [...byStatus.keys()]))].sort();
const lines = [
  `# PostgreSQL outage under load (${options.mode}, ${seconds("outage")} s, ${seconds("connections")} connections, ` +
    `--stale-if-error ${options["stale-if-error"]})`,
  "",
  `| second | ${statuses.join(" | ")} |`,
  `|---:|${statuses.map(() => "---:").join("|")}|`,
  ...Array.from(timeline, (counts, second) => {
    const mark =
      second === Math.floor((cutAt - started) / 1000)
        ? " (cut)"
        : second === Math.floor((restoredAt - started) / 1000)
          ? " (restored)"
          : "";
    return `| ${second}${mark} | ${statuses.map((s) => counts?.get(s) ?? 0).join(" | ")} |`;
  }),
  "",
  "During the outage (requests sent while the network was cut), by request: answers, and latency p50 / p99 in ms.",
  "",
  `| request | ${outageStatuses.map((s) => `${s} | ${s} p50 / p99`).join(" | ")} |`,
  `|---|${outageStatuses.map(() => "---:|---:").join("|")}|`,
  ...kinds.map(
    (kind, i) =>
      `| ${kind.name} | ${outageStatuses
        .map((s) => {
          const latencies = duringOutage[i]!.get(s);
          return `${latencies?.length ?? 0} | ${ms(latencies, 0.5)} / ${ms(latencies, 0.99)}`;
        })
        .join(" | ")} |`,
  ),
  "",
  `- statuses seen: ${statuses.map((s) => `${s} x ${totals.get(s)}`).join(", ")}`,
  `- oldest stale page served: Age ${oldestStaleAge} s`,
  `- the server process ${stayedUp ? "stayed up" : "EXITED during the run"}; /readyz after the run: ${ready}`,
  `- first request served after the restore: ${((firstServedAfterRestore - restoredAt) / 1000).toFixed(2)} s`,
  `- every request served from: ${(Math.max(0, lastFailure - restoredAt) / 1000).toFixed(2)} s after the restore`,
];
process.stdout.write(`${lines.join("\n")}\n`);
