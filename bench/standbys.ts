/**
 * `npm run bench:standbys`: feeds polled from hot standbys while events are ingested on the primary (issue "past one
 * database"). Real clusters of the bench's own (tests/helpers/pg-cluster.ts: a primary and two streaming standbys), a
 * generated world imported into the primary, then one feedgate server per row, polled over 32 keep-alive connections
 * while the live feeder posts 1,000 events/s: with no standby, one and two. Each row reports polls/s, p99, the
 * feedgate server's CPU per poll, the primary's share of a core (its postmaster and backends), the standbys', and the
 * replication lag's p99 (pg_stat_replication.replay_lag, sampled every 100 ms). Last, the failover row: a feedgate on
 * `--db primary,standby` with the standby synchronous, writers posting events, the primary killed with SIGKILL and
 * the standby promoted: the time from the kill to the first write answered, and the acknowledged events found after.
 *
 *   npm run bench:standbys -- [--events 100000] [--seconds 10]
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ClusterSet, type Cluster } from "../tests/helpers/pg-cluster.js";
import { FIRST_EVENT_ID, generate } from "./generate.js";
import { LiveFeeder, readTemplates, writeAdminWorld } from "./live.js";
import { measure, type Measurement } from "./load.js";
import { CLI, feedgate, startListening, type Listening } from "./processes.js";
import { percentile } from "./percentile.js";

const argument = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const EVENTS = argument("events", 100_000);
const SECONDS = argument("seconds", 10);
const CLOCK_TICKS = 100; // USER_HZ on Linux

const say = (line: string) => process.stderr.write(`${line}\n`);

/** CPU seconds of a cluster: its postmaster and every backend and helper process under it. */
function clusterCpuSeconds(cluster: Cluster): number {
  const postmaster = Number(readFileSync(join(cluster.dir, "postmaster.pid"), "utf8").split("\n")[0]);
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const parent = Number(fields[1]);
      if (Number(entry) === postmaster || parent === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // a backend that ended meanwhile
    }
  }
  return ticks / CLOCK_TICKS;
}

interface Row {
  label: string;
  measurement: Measurement;
  primaryCores: number;
  standbyCores: number[];
  lagP99Ms: number | null;
  events: number;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "feedgate-bench-standbys-"));
  const clusters = new ClusterSet();
  const servers: Listening[] = [];
  try {
    say(`generating ${EVENTS.toLocaleString("en-US")} events`);
    const events = join(dir, "events.ndjson");
    const world = join(dir, "world.json");
    const manifest = await generate({ events: EVENTS, seed: 1, out: events, world, gzip: false });
    say("clusters: a primary and two streaming standbys");
    const primary = await clusters.primary();
    const standbys = [await clusters.standby(primary), await clusters.standby(primary)];
    say("feedgate import + seed -> primary");
    await feedgate(["import", events, "--db", primary.url]);
    await feedgate(["seed", world, "--db", primary.url]);
    const adminToken = writeAdminWorld(join(dir, "admin-world.json"), 1);
    await feedgate(["seed", join(dir, "admin-world.json"), "--db", primary.url]);
    const templates = await readTemplates(events, 20_000);
    let nextId = FIRST_EVENT_ID + EVENTS + 1_000_000;

    const rows: Row[] = [];
    for (const count of [0, 1, 2]) {
      const replicas = standbys.slice(0, count).flatMap((s) => ["--db-replica", s.url]);
      const server = await startListening(
        [
          CLI,
          "serve",
          "--db",
          primary.url,
          ...replicas,
          "--host",
          "127.0.0.1",
          "--port",
          "0",
          "--log-level",
          "warn",
          "--rate-limit-authenticated",
          "1000000000",
          "--rate-limit-anonymous",
          "1000000000",
        ],
        join(dir, `server-${count}.log`),
      );
      servers.push(server);
      const feeder = new LiveFeeder(server.url, adminToken, templates, nextId);
      const lags: number[] = [];
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          const rows = await primary
            .query<{ lag: number | null }>(
              "SELECT extract(epoch FROM replay_lag) * 1000 AS lag FROM pg_stat_replication",
            )
            .catch(() => []);
          for (const row of rows.slice(0, count)) lags.push(Number(row.lag ?? 0));
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
      const cpuBefore = [primary, ...standbys].map(clusterCpuSeconds);
      const started = performance.now();
      const measurement = await measure(
        server.url,
        {
          key: `standbys-${count}`,
          label: `GET /repos/:o/:r/events (token) while 1,000 events/s are ingested, ${count} standby(s)`,
          target: "feedgate",
          method: "GET",
          path: `/repos/${manifest.topRepo}/events`,
          headers: { Authorization: `token ${manifest.reader.token}` },
          expect: 200,
        },
        { connections: 32, warmupSeconds: 3, durationSeconds: SECONDS },
        server.pid,
        null,
        { settledThen: () => feeder.start() },
      );
      const seconds = (performance.now() - started) / 1000;
      const fed = await feeder.stop();
      nextId += fed.events + 100_000;
      sampling = false;
      await sampler;
      const cpu = [primary, ...standbys].map((c, i) => (clusterCpuSeconds(c) - cpuBefore[i]!) / seconds);
      lags.sort((a, b) => a - b);
      rows.push({
        label: `${count} standby${count === 1 ? "" : "s"}`,
        measurement,
        primaryCores: cpu[0]!,
        standbyCores: cpu.slice(1, 1 + count),
        lagP99Ms: lags.length ? percentile(lags, 0.99) : null,
        events: fed.events,
      });
      await server.stop();
      servers.pop();
    }

    say("failover: --db primary,standby 1 (synchronous), writers, SIGKILL, promote");
    await primary.query("ALTER SYSTEM SET synchronous_standby_names = '*'");
    await primary.query("SELECT pg_reload_conf()");
    await standbys[1]!.stop(); // one synchronous standby: the one promoted
    const multi = `postgres://postgres@127.0.0.1:${primary.port},127.0.0.1:${standbys[0]!.port}/postgres`;
    const server = await startListening(
      [CLI, "serve", "--db", multi, "--host", "127.0.0.1", "--port", "0", "--log-level", "warn"],
      join(dir, "server-failover.log"),
    );
    servers.push(server);
    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    let killedAt = 0;
    let firstAfter = 0;
    let stop = false;
    const writer = async () => {
      while (!stop) {
        const id = String(nextId++);
        const body = JSON.stringify({
          ...templates[nextId % templates.length],
          id,
          created_at: new Date().toISOString(),
        });
        const res = await fetch(`${server.url}/admin/events`, {
          method: "POST",
          headers: { Authorization: `token ${adminToken}`, "Content-Type": "application/x-ndjson" },
          body,
        }).catch(() => undefined);
        const status = res?.status ?? 0;
        await res?.text();
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status === 200 || status === 201) {
          acknowledged.push(id);
          if (killedAt && !firstAfter) firstAfter = performance.now();
        } else await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const writers = Array.from({ length: 4 }, writer);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await primary.kill();
    killedAt = performance.now();
    await standbys[0]!.promote();
    while (!firstAfter && performance.now() - killedAt < 30_000) await new Promise((r) => setTimeout(r, 20));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    stop = true;
    await Promise.all(writers);
    const found = await standbys[0]!.query<{ n: string }>(
      `SELECT count(*) AS n FROM events WHERE id = ANY(ARRAY[${acknowledged.join(",") || "0"}]::bigint[])`,
    );
    const failover = {
      seconds: firstAfter ? (firstAfter - killedAt) / 1000 : null,
      acknowledged: acknowledged.length,
      found: Number(found[0]!.n),
      statuses: Object.fromEntries(statuses),
    };

    const lines = [
      `# Standbys: ${EVENTS.toLocaleString("en-US")} events, ${SECONDS} s windows, 32 connections, 1,000 events/s ingested`,
      "",
      "| standbys | polls/s | p99 ms | feedgate CPU ms/poll | primary cores | standbys' cores | lag p99 ms | events ingested |",
      "|---|---:|---:|---:|---:|---:|---:|---:|",
      ...rows.map(
        (r) =>
          `| ${r.label} | ${Math.round(r.measurement.rps)} | ${r.measurement.p99.toFixed(2)} | ` +
          `${r.measurement.cpuMsPerRequest.toFixed(3)} | ${r.primaryCores.toFixed(2)} | ` +
          `${r.standbyCores.map((c) => c.toFixed(2)).join(" + ") || "-"} | ${r.lagP99Ms === null ? "-" : r.lagP99Ms.toFixed(1)} | ${r.events} |`,
      ),
      "",
      `Failover (synchronous standby promoted after SIGKILL of the primary): first write answered ` +
        `${failover.seconds?.toFixed(2) ?? "never"} s after the kill; ${failover.acknowledged} acknowledged, ` +
        `${failover.found} found on the new primary; statuses ${JSON.stringify(failover.statuses)}`,
    ];
    const report = `${lines.join("\n")}\n`;
    process.stdout.write(report);
    writeFileSync(join(process.cwd(), "bench/results", `standbys-${new Date().toISOString().slice(0, 10)}.md`), report);
  } finally {
    for (const server of servers) await server.stop().catch(() => undefined);
    await clusters.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
