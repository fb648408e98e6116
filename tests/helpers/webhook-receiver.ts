/** A webhook receiver on a real socket: answers each request with `status()` and keeps what it received. */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { Store } from "../../src/server/store/store.js";

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  server: Server;
  received: Received[];
  /**
   * Resolves once `count` requests have arrived; rejects, saying what did arrive, when `ms` pass first (a delivery
   * that failed is retried by the app's clock, which a test's stands still: waiting longer would wait for ever).
   */
  until(count: number, ms?: number): Promise<void>;
  /** Listens on 127.0.0.1 (a free port, or `port`); resolves with the hook URL. */
  listen(port?: number): Promise<string>;
  close(): Promise<void>;
}

export function receiver(status: () => number = () => 200): Receiver {
  const received: Received[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  const arrived = () => received.map((r) => `${r.headers["x-github-event"]}`).join(", ") || "none";
  // Counted to tell, when a delivery never comes, whether it never connected or stopped part way.
  const seen = { connections: 0, requests: 0 };
  const server = createServer((request, response) => {
    seen.requests++;
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(status(), { "content-type": "text/plain" }).end("thanks");
      for (const w of waiting.filter((w) => received.length >= w.count)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
    });
  });
  server.on("connection", () => seen.connections++);
  return {
    server,
    received,
    until: (count, ms = 30_000) =>
      new Promise<void>((resolve, reject) => {
        if (received.length >= count) return resolve();
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(entry), 1);
          const so = `${seen.connections} connections, ${seen.requests} requests begun`;
          reject(
            new Error(`${count} deliveries did not arrive in ${ms} ms; ${received.length} did (${so}): ${arrived()}`),
          );
        }, ms);
        const entry = {
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
        waiting.push(entry);
      }),
    async listen(port = 0) {
      await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
      return `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// The console tests (tests/console) import it from here.
export { eventually } from "./wait.js";

/** A receiver listening, and an active repository hook of every event sending to it (JSON, no secret). */
export async function hookedReceiver(t: { store: Store; clock: { now(): Date } }, fullName: string): Promise<Receiver> {
  const hook = receiver();
  const [owner, name] = fullName.split("/") as [string, string];
  const repo = (await t.store.directory.findRepo(owner, name))!;
  const made = await t.store.hooks.create(
    {
      owner: { kind: "repo", repoId: repo.id },
      name: "web",
      active: true,
      events: ["*"],
      config: { url: await hook.listen(), contentType: "json", insecureSsl: "0", sealedSecret: null },
    },
    t.clock.now(),
  );
  const until = hook.until;
  // What the app recorded of its attempts and still has queued, said with a timeout: why a delivery never came.
  hook.until = (count, ms) =>
    until(count, ms).catch(async (error: Error) => {
      const attempts = await t.store.hooks.deliveries(made.id, 10, null);
      const queued = await t.store.hooks.queued(made.id);
      const said = attempts.map((a) => `${a.event} ${a.status}`).join("; ");
      throw new Error(`${error.message}; ${queued} still queued; the latest attempts: ${said || "none"}`);
    });
  return hook;
}
