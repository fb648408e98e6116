/**
 * Webhook delivery throughput: hooks on several repositories, created through the hooks API, subscribed to every
 * event; events posted through `POST /admin/events`; a receiver in this process answering 204. Each event carries a
 * sequence number in its payload (stored and delivered verbatim), so each delivery's latency is measured from the
 * moment the ingest that stored it was acknowledged. The ceiling: this process POSTing the same bodies to the same
 * receiver, one connection a request as the dispatcher does, with as many requests in flight as there are hooks.
 */
import { createServer, request, type Server } from "node:http";
import { cpuSecondsOf } from "./processes.js";
import { WEBHOOK_EVENT_NAMES } from "../src/api/webhook-events.js";
import { percentile } from "./percentile.js";

export interface DeliveryMeasurement {
  hooks: number;
  deliveries: number;
  seconds: number;
  rate: number;
  p50Ms: number;
  p99Ms: number;
  /** Server CPU per delivery: building, signing, sending and recording it (the ingest that queued it included). */
  cpuMsPerDelivery: number;
  /** The same bodies POSTed by this process alone. */
  ceilingRate: number;
  ceilingCpuMsPerPost: number;
}

const BATCH = 200;

/** The `count` repositories the templates name most often: they exist in the served database. */
export function busiestRepos(templates: Record<string, unknown>[], count: number): string[] {
  const seen = new Map<string, number>();
  for (const t of templates) {
    const name = (t.repo as { name?: string } | undefined)?.name;
    if (name?.includes("/")) seen.set(name, (seen.get(name) ?? 0) + 1);
  }
  return [...seen.entries()].sort((a, b) => b[1] - a[1]).slice(0, count).map(([name]) => name);
}

/** A receiver answering 204; `arrived(seq)` is told of each delivery's sequence number. */
async function startReceiver(arrived: (body: string) => void): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      arrived(Buffer.concat(chunks).toString("utf8"));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook` };
}

function post(url: string, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", agent: false, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
      (res) => res.resume().on("end", resolve));
    req.on("error", reject);
    req.end(body);
  });
}

export async function measureDeliveries(serverUrl: string, serverPid: number, admin: { login: string; password: string; token: string },
  repos: string[], templates: Record<string, unknown>[], firstId: number, count: number): Promise<DeliveryMeasurement> {
  const usable = templates.filter((t) => typeof t.type === "string" && t.type in WEBHOOK_EVENT_NAMES);
  const ackedAt = new Map<number, number>();
  const latencies: number[] = [];
  let received = 0;
  let allArrived: () => void = () => undefined;
  const done = new Promise<void>((resolve) => { allArrived = resolve; });
  const { server, url } = await startReceiver((body) => {
    const seq = (JSON.parse(body) as { feedgate_bench_seq?: number }).feedgate_bench_seq;
    if (seq === undefined) return; // a ping
    latencies.push(performance.now() - (ackedAt.get(Math.floor(seq / BATCH)) ?? performance.now()));
    if (++received === count) allArrived();
  });
  try {
    const basic = `Basic ${Buffer.from(`${admin.login}:${admin.password}`).toString("base64")}`;
    for (const repo of repos) {
      const created = await fetch(`${serverUrl}/repos/${repo}/hooks`, {
        method: "POST", headers: { authorization: basic, "content-type": "application/json" },
        body: JSON.stringify({ name: "web", config: { url, content_type: "json" }, events: ["*"] }),
      });
      if (created.status !== 201) throw new Error(`creating a hook on ${repo}: ${created.status} ${await created.text()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500)); // the pings go out first
    const cpuBefore = cpuSecondsOf(serverPid);
    const started = performance.now();
    const bodies: string[] = [];
    for (let batch = 0; batch * BATCH < count; batch++) {
      const lines: string[] = [];
      for (let i = batch * BATCH; i < Math.min(count, (batch + 1) * BATCH); i++) {
        const template = usable[i % usable.length]!;
        const payload = { ...(template.payload as object), feedgate_bench_seq: i };
        lines.push(JSON.stringify({ ...template, id: String(firstId + i), repo: { name: repos[i % repos.length] }, payload,
          created_at: new Date().toISOString() }));
        bodies.push(JSON.stringify(payload));
      }
      const response = await fetch(`${serverUrl}/admin/events`, {
        method: "POST", headers: { authorization: `token ${admin.token}`, "content-type": "application/x-ndjson" }, body: lines.join("\n"),
      });
      if (response.status !== 200) throw new Error(`POST /admin/events: ${response.status} ${await response.text()}`);
      ackedAt.set(batch, performance.now());
    }
    await done;
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuSecondsOf(serverPid) - cpuBefore;

    // The ceiling: the same number of POSTs of bodies of the same size, `repos.length` in flight.
    const ceilingCpu = process.cpuUsage();
    const ceilingStarted = performance.now();
    let next = 0;
    await Promise.all(repos.map(async () => {
      while (next < bodies.length) await post(url, bodies[next++]!);
    }));
    const ceilingSeconds = (performance.now() - ceilingStarted) / 1000;
    const used = process.cpuUsage(ceilingCpu);
    latencies.sort((a, b) => a - b);
    return {
      hooks: repos.length, deliveries: count, seconds, rate: count / seconds, p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99), cpuMsPerDelivery: (cpu * 1000) / count,
      ceilingRate: bodies.length / ceilingSeconds, ceilingCpuMsPerPost: (used.user + used.system) / 1000 / bodies.length,
    };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
