/**
 * `npm run bench:outage`: a real `feedgate serve` on PostgreSQL, under load, while the network to PostgreSQL is
 * cut for a while (a TCP proxy between them) and then restored. Reports the statuses seen each second, whether
 * the process stayed up, and how many seconds after the restore the first request, and then every request, was
 * served again. `--mode blackhole` drops the traffic instead of resetting the connections (a dead route rather than a
 * restarted server); `--outage`, `--before`, `--after` are seconds; `--connections` the concurrent clients.
 */
import { parseArgs } from "node:util";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { CLI, feedgate, startListening } from "./processes.js";
import { createScratchDatabase, probePostgres } from "./postgres.js";
import { TcpProxy, type CutMode } from "../tests/helpers/tcp-proxy.js";

const { values: options } = parseArgs({
  options: {
    outage: { type: "string", default: "10" },
    before: { type: "string", default: "3" },
    after: { type: "string", default: "5" },
    connections: { type: "string", default: "16" },
    mode: { type: "string", default: "reset" },
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
const server = await startListening([CLI, "serve", "--port", "0", "--db", viaProxy.toString(), "--log-level", "warn",
  "--rate-limit-anonymous", "100000000", "--rate-limit-authenticated", "100000000"], logFile);
let exitedDuringRun = false;
server.child.once("exit", () => (exitedDuringRun = true));

const paths = ["/events", "/orgs/Lombiq/events", "/authorizations"];
const headers: Record<string, string>[] = [{}, { authorization: `token ${token}` }, { authorization: `Basic ${Buffer.from("alice:alice-password").toString("base64")}` }];
const started = Date.now();
const end = started + (seconds("before") + seconds("outage") + seconds("after")) * 1000;
/** Per whole second since the start: status (or "network error") -> count. */
const timeline: Map<string, number>[] = [];
let restoredAt = 0;
let firstServedAfterRestore = 0;
let lastFailure = 0;

async function client(index: number) {
  for (let i = index; Date.now() < end; i++) {
    const which = i % paths.length;
    let status: string;
    try {
      const res = await fetch(`${server.url}${paths[which]}`, { headers: headers[which]! });
      await res.arrayBuffer();
      status = String(res.status);
    } catch {
      status = "network error";
    }
    const now = Date.now();
    const second = Math.floor((now - started) / 1000);
    const counts = (timeline[second] ??= new Map());
    counts.set(status, (counts.get(status) ?? 0) + 1);
    if (status !== "200") lastFailure = now;
    if (restoredAt && !firstServedAfterRestore && status === "200") firstServedAfterRestore = now;
  }
}

const load = Promise.all(Array.from({ length: seconds("connections") }, (_, i) => client(i)));
await sleep(seconds("before") * 1000);
proxy.cut(options.mode as CutMode);
const cutAt = Date.now();
await sleep(seconds("outage") * 1000);
proxy.restore();
restoredAt = Date.now();
await load;

const ready = await fetch(`${server.url}/readyz`).then((res) => res.status, () => "network error");
const stayedUp = !exitedDuringRun;
await server.stop();
await proxy.close();
await database.drop();

const totals = new Map<string, number>();
for (const counts of timeline) for (const [status, n] of counts ?? []) totals.set(status, (totals.get(status) ?? 0) + n);
const statuses = [...totals.keys()].sort();
const lines = [
  `# PostgreSQL outage under load (${options.mode}, ${seconds("outage")} s, ${seconds("connections")} connections)`,
  "",
  `| second | ${statuses.join(" | ")} |`,
  `|---:|${statuses.map(() => "---:").join("|")}|`,
  ...Array.from(timeline, (counts, second) => {
    const mark = second === Math.floor((cutAt - started) / 1000) ? " (cut)" : second === Math.floor((restoredAt - started) / 1000) ? " (restored)" : "";
    return `| ${second}${mark} | ${statuses.map((s) => counts?.get(s) ?? 0).join(" | ")} |`;
  }),
  "",
  `- statuses seen: ${statuses.map((s) => `${s} x ${totals.get(s)}`).join(", ")}`,
  `- the server process ${stayedUp ? "stayed up" : "EXITED during the run"}; /readyz after the run: ${ready}`,
  `- first request served after the restore: ${((firstServedAfterRestore - restoredAt) / 1000).toFixed(2)} s`,
  `- every request served from: ${(Math.max(0, lastFailure - restoredAt) / 1000).toFixed(2)} s after the restore`,
];
process.stdout.write(`${lines.join("\n")}\n`);
