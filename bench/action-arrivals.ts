/**
 * What an action makes, timed from the action (issue "activity from actions"): issues opened through
 * `POST /repos/:o/:r/issues` at a steady rate below capacity, each sent on schedule whether or not the one before was
 * answered, while a hook on the repository (subscribed to `issues`) delivers to a receiver in this process
 * (bench/webhooks.ts's) and a live stream of the repository's events (`Accept: text/event-stream`) is read here too.
 * Each issue's title is its own, so its `issues.opened` delivery and its IssuesEvent frame are matched to the moment
 * its POST was sent: action to webhook arrival, action to stream frame (p50, p99, max; issue 43's goals are on the
 * p99s). One clock, this process's, for all three.
 */
import { request, type ClientRequest } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { percentile } from "./percentile.js";
import { cpuSecondsOf } from "./processes.js";
import { startReceiver } from "./webhooks.js";

export interface Arrivals {
  /** How many arrived of those opened, and when after the POST was sent. */
  arrived: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface ArrivalMeasurement {
  /** Issues opened per second, and for how long. */
  rate: number;
  seconds: number;
  opened: number;
  /** The POSTs' own answers (201), their latency. */
  answers: Arrivals;
  webhook: Arrivals;
  stream: Arrivals;
  /** Server CPU per issue opened at that rate, its delivery and its frame included. */
  cpuMsPerWrite: number;
}

/** How long deliveries and frames may take after the last POST before they count as missing. */
const ARRIVAL_LIMIT_MS = 10_000;

function arrivals(sent: Map<string, number>, arrived: Map<string, number>): Arrivals {
  const latencies = [...sent].flatMap(([title, at]) => {
    const t = arrived.get(title);
    return t === undefined ? [] : [t - at];
  });
  latencies.sort((a, b) => a - b);
  return {
    arrived: latencies.length,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    maxMs: latencies.at(-1) ?? Number.NaN,
  };
}

/** A live stream of `path`, telling `frame` of each event's data as it arrives; resolves once it answered 200. */
function openStream(
  url: string,
  token: string,
  frame: (data: Record<string, unknown>) => void,
): Promise<ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Accept: "text/event-stream", Authorization: `token ${token}` } }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`stream ${url}: ${res.statusCode}`));
        res.resume();
        return;
      }
      res.setEncoding("utf8");
      let pending = "";
      res.on("data", (chunk: string) => {
        pending += chunk;
        let end = pending.indexOf("\n\n");
        while (end >= 0) {
          for (const line of pending.slice(0, end).split("\n"))
            if (line.startsWith("data: ")) frame(JSON.parse(line.slice(6)) as Record<string, unknown>);
          pending = pending.slice(end + 2);
          end = pending.indexOf("\n\n");
        }
      });
      resolve(req);
    });
    req.on("error", reject);
    req.end();
  });
}

export async function measureArrivals(
  serverUrl: string,
  serverPid: number,
  names: { repo: string; token: string; hookToken: string },
  rate: number,
  seconds: number,
): Promise<ArrivalMeasurement> {
  const sent = new Map<string, number>();
  const answered = new Map<string, number>();
  const delivered = new Map<string, number>();
  const framed = new Map<string, number>();
  const opened = Math.max(1, Math.round(rate * seconds));
  let waiting: (() => void) | undefined;
  const check = () => {
    if (delivered.size >= opened && framed.size >= opened) waiting?.();
  };
  const titleOf = (issue: unknown) => (issue as { title?: string } | undefined)?.title;

  const receiver = await startReceiver((body) => {
    const now = performance.now();
    const hook = JSON.parse(body) as { action?: string; issue?: unknown };
    const title = titleOf(hook.issue);
    if (hook.action === "opened" && title !== undefined) delivered.set(title, now);
    check();
  });
  const auth = (token: string) => ({ Authorization: `token ${token}`, "Content-Type": "application/json" });
  let hook: string | undefined;
  let stream: ClientRequest | undefined;
  try {
    const made = await fetch(`${serverUrl}/repos/${names.repo}/hooks`, {
      method: "POST",
      headers: auth(names.hookToken),
      body: JSON.stringify({ config: { url: receiver.url, content_type: "json" }, events: ["issues"] }),
    });
    if (made.status !== 201) throw new Error(`creating the hook: ${made.status} ${await made.text()}`);
    hook = `${serverUrl}/repos/${names.repo}/hooks/${((await made.json()) as { id: number }).id}`;
    stream = await openStream(`${serverUrl}/repos/${names.repo}/events`, names.token, (event) => {
      const now = performance.now();
      const payload = event.payload as { action?: string; issue?: unknown } | undefined;
      const title = titleOf(payload?.issue);
      if (event.type === "IssuesEvent" && payload?.action === "opened" && title !== undefined) framed.set(title, now);
      check();
    });
    await sleep(500); // the hook's ping goes out first

    const cpuBefore = cpuSecondsOf(serverPid);
    const started = performance.now();
    const posts: Promise<void>[] = [];
    for (let i = 0; i < opened; i++) {
      const wait = started + (i * 1000) / rate - performance.now();
      if (wait > 0) await sleep(wait);
      const title = `Arrival ${i}`;
      sent.set(title, performance.now());
      posts.push(
        fetch(`${serverUrl}/repos/${names.repo}/issues`, {
          method: "POST",
          headers: auth(names.token),
          body: JSON.stringify({ title }),
        }).then(async (response) => {
          await response.arrayBuffer();
          if (response.status === 201) answered.set(title, performance.now());
        }),
      );
    }
    await Promise.all(posts);
    const postedFor = (performance.now() - started) / 1000;
    await Promise.race([
      new Promise<void>((resolve) => {
        waiting = resolve;
        check();
      }),
      sleep(ARRIVAL_LIMIT_MS),
    ]);
    const cpu = cpuSecondsOf(serverPid) - cpuBefore;
    return {
      rate,
      seconds: postedFor,
      opened,
      answers: arrivals(sent, answered),
      webhook: arrivals(sent, delivered),
      stream: arrivals(sent, framed),
      cpuMsPerWrite: (cpu * 1000) / opened,
    };
  } finally {
    stream?.destroy();
    if (hook) await fetch(hook, { method: "DELETE", headers: auth(names.hookToken) }).catch(() => undefined);
    receiver.server.closeAllConnections();
    receiver.server.close();
  }
}
