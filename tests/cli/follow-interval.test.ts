/**
 * `feedgate events --follow --interval S` against real listening servers: someone else's server that asks for a
 * longer X-Poll-Interval gets it, unless --force-interval; a server on this machine may be polled at any pace. The
 * servers are proxies in front of a listening feedgate that set X-Poll-Interval and note when each poll came; the
 * "remote" one listens on 127.0.0.2, a loopback address that is not one of the local names (127.0.0.1, localhost,
 * ::1), so it stands for another machine.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { once } from "node:events";
import { feedgate as spawnCli, runCli } from "../helpers/cli.js";
import { until } from "../helpers/wait.js";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";

/** The server's X-Poll-Interval, in seconds. */
const SERVER_INTERVAL = 2;

interface PollingProxy {
  url: string;
  /** When each poll arrived, ms since the epoch. */
  polls: number[];
  close(): void;
}

async function pollingProxy(upstream: string, host: string): Promise<PollingProxy> {
  const polls: number[] = [];
  const server: Server = createServer(async (request, response) => {
    // Passes no live streams (the Accept header is not forwarded): --follow's stream request gets a page, and is no poll.
    if (request.headers.accept !== "text/event-stream") polls.push(Date.now());
    const upstreamResponse = await fetch(`${upstream}${request.url}`, {
      headers: request.headers["if-none-match"] ? { "if-none-match": request.headers["if-none-match"] } : {},
    });
    const body = Buffer.from(await upstreamResponse.arrayBuffer());
    response.writeHead(upstreamResponse.status, {
      "content-type": upstreamResponse.headers.get("content-type") ?? "application/json",
      ...(upstreamResponse.headers.get("etag") ? { etag: upstreamResponse.headers.get("etag")! } : {}),
      "x-poll-interval": String(SERVER_INTERVAL),
    });
    response.end(body);
  });
  server.listen(0, host);
  await once(server, "listening");
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    polls,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

const gaps = (polls: number[]) => polls.slice(1).map((at, i) => (at - polls[i]!) / 1000);

describe("feedgate events --follow --interval", () => {
  let t: ListeningApp;
  let remote: PollingProxy;
  let local: PollingProxy;
  before(async () => {
    t = await startListeningApp();
    remote = await pollingProxy(t.url, "127.0.0.2");
    local = await pollingProxy(t.url, "127.0.0.1");
  });
  after(async () => {
    remote.close();
    local.close();
    await t.close();
  });

  /** Follows `url` with `flags` until `count` polls reached `proxy`; returns the gaps between them and stderr. */
  async function follow(proxy: PollingProxy, flags: string[], count: number) {
    proxy.polls.length = 0;
    const run = spawnCli(["events", "get", "--url", proxy.url, "--per-page", "1", "--follow", ...flags]);
    try {
      await until(() => proxy.polls.length >= count, `${count} polls`, { every: 25 });
      return { gaps: gaps(proxy.polls.slice(0, count)), stderr: run.stderr };
    } finally {
      run.child.kill("SIGTERM");
      await run.done;
    }
  }

  test("someone else's server asking for longer gets its interval, and the poller is told once", async () => {
    const { gaps, stderr } = await follow(remote, ["--interval", "0.2"], 3);
    assert.ok(
      gaps.every((gap) => gap >= SERVER_INTERVAL - 0.05),
      `gaps ${gaps}`,
    );
    assert.equal(
      stderr,
      `feedgate: the server asks for ${SERVER_INTERVAL} s between polls; polling every ${SERVER_INTERVAL} s, ` +
        "not 0.2 s (--force-interval to insist)\n",
    );
  });

  test("--force-interval polls at the asked interval anyway", async () => {
    const { gaps, stderr } = await follow(remote, ["--interval", "0.2", "--force-interval"], 4);
    assert.ok(
      gaps.every((gap) => gap >= 0.15 && gap < 1),
      `gaps ${gaps}`,
    );
    assert.equal(stderr, "");
  });

  test("a server on this machine (127.0.0.1) is polled at the asked interval without --force-interval", async () => {
    const { gaps, stderr } = await follow(local, ["--interval", "0.2"], 4);
    assert.ok(
      gaps.every((gap) => gap >= 0.15 && gap < 1),
      `gaps ${gaps}`,
    );
    assert.equal(stderr, "");
  });

  test("an asked interval longer than the server's is kept", async () => {
    const { gaps } = await follow(local, ["--interval", "2.5"], 2);
    assert.ok(
      gaps.every((gap) => gap >= 2.45),
      `gaps ${gaps}`,
    );
  });

  test("--interval needs --follow and a positive number; --force-interval needs --interval", async () => {
    for (const [args, message] of [
      [["--interval", "5"], "--interval sets how often --follow polls; add --follow"],
      [["--follow", "--interval", "0"], '--interval must be a number of seconds above 0, got "0"'],
      [["--follow", "--interval", "soon"], '--interval must be a number of seconds above 0, got "soon"'],
      [["--follow", "--force-interval"], "--force-interval needs --interval"],
    ] as const) {
      const result = await runCli(["events", "get", "--url", t.url, ...args]);
      assert.deepEqual([result.code, result.stderr], [1, `feedgate: ${message}\n`]);
    }
  });
});
