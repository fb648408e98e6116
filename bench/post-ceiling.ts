/**
 * The webhook deliveries' own ceiling, in its own process: bare node:http POSTing the bodies feedgate delivered in
 * the flood, with the headers of feedgate's first delivery, to the same receiver, over keep-alive connections
 * pooled as the dispatcher pools them (src/server/webhooks/send.ts), with as many in flight as there are hooks.
 * Its CPU is its own, counted around the POSTs only (not Node's start or reading the file): a sender's cost for the
 * same bytes, without building, signing or recording them.
 *
 *   node --import tsx bench/post-ceiling.ts <job.json>  ->  {"posts":..,"seconds":..,"cpuMs":..,"bytes":..,"errors":..}
 */
import { Agent, request } from "node:http";
import { readFileSync } from "node:fs";

interface Job {
  url: string;
  headers: Record<string, string>;
  bodies: string[];
  inFlight: number;
}

const job = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Job;
const bodies = job.bodies.map((b) => Buffer.from(b));
const agent = new Agent({ keepAlive: true, timeout: 4000, maxFreeSockets: 4 });
let errors = 0;

function post(body: Buffer): Promise<void> {
  return new Promise((resolve) => {
    const req = request(
      job.url,
      { method: "POST", agent, headers: { ...job.headers, "content-length": String(body.length) } },
      (res) => {
        if (res.statusCode !== 204) errors++;
        res.resume().on("end", resolve);
      },
    );
    req.on("error", () => {
      errors++;
      resolve();
    });
    req.end(body);
  });
}

const cpu = process.cpuUsage();
const started = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: job.inFlight }, async () => {
    while (next < bodies.length) await post(bodies[next++]!);
  }),
);
const seconds = (performance.now() - started) / 1000;
const used = process.cpuUsage(cpu);
agent.destroy();
process.stdout.write(
  `${JSON.stringify({
    posts: bodies.length,
    seconds,
    cpuMs: (used.user + used.system) / 1000,
    bytes: bodies.reduce((sum, b) => sum + b.length, 0),
    errors,
  })}\n`,
);
