/**
 * What arrives over a real socket before any route: requests without a usable Host, clients that stall while
 * sending, and proxies in front (X-Forwarded-*, trusted only when configured). Raw bytes through node:net,
 * because Node's HTTP parser and its timeouts are what is under test.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { connect } from "node:net";
import { once } from "node:events";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { event } from "../helpers/events.js";
import { links as parseLinks } from "../helpers/assertions.js";

/**
 * Writes `bytes` and collects everything the server sends until it closes. The socket is not half-closed: Node
 * aborts a request whose client ended its side before the answer was ready.
 */
async function exchange(port: number, bytes: string): Promise<{ answer: string; ms: number }> {
  const started = Date.now();
  const socket = connect(port, "127.0.0.1");
  let answer = "";
  socket.on("data", (chunk) => (answer += chunk));
  socket.on("error", () => undefined);
  socket.write(bytes);
  await once(socket, "close");
  return { answer, ms: Date.now() - started };
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1]);
const headerOf = (answer: string, name: string) =>
  new RegExp(`\r\n${name}: ([^\r]*)`, "i").exec(answer.split("\r\n\r\n")[0]!)?.[1];

async function seedEvents(t: TestApp) {
  const events = ["1", "2", "3"].map((id) => event(id, "WatchEvent", "alice", "alice/tools"));
  await new IngestService(t.store, t.clock.now).ingestEvents(events);
}

describe("requests without a usable Host header", () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await startTestApp({ rateLimitAnonymous: 1000 });
    await seedEvents(t);
    port = Number(new URL(await t.app.listen({ port: 0, host: "127.0.0.1" })).port);
  });
  after(() => t.close());

  for (const [name, request] of [
    ["HTTP/1.0 without Host", "GET /events?per_page=1 HTTP/1.0\r\n\r\n"],
    ["an empty Host", "GET /events?per_page=1 HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n"],
  ]) {
    test(`${name} is served, with absolute URLs on the address the request arrived at`, async () => {
      const { answer } = await exchange(port, request!);
      assert.equal(statusOf(answer), 200, answer);
      const links = parseLinks(headerOf(answer, "link") ?? "");
      assert.equal(new URL(links.next!).origin, `http://127.0.0.1:${port}`);
      assert.equal(new URL(links.next!).searchParams.get("page"), "2");
    });
  }

  test("a Host that is no host is 400 in GitHub's shape", async () => {
    for (const host of ["a b", "exa/mple", "[::1", "x:port", "h\u00e9"]) {
      const { answer } = await exchange(port, `GET /events HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      assert.equal(statusOf(answer), 400, `${host}: ${answer}`);
      assert.match(answer, /"documentation_url"/);
    }
  });
});

describe("timeouts for clients that stall", () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await startTestApp({
      requestTimeout: "1500ms",
      headersTimeout: "700ms",
      keepAliveTimeout: "400ms",
      rateLimitAnonymous: 1000,
    });
    await t.createUser("alice", "alice-password");
    port = Number(new URL(await t.app.listen({ port: 0, host: "127.0.0.1" })).port);
  });
  after(() => t.close());

  // Authenticated, so the server goes on to read the body rather than refusing at the headers.
  const alice = `Authorization: ${basic("alice", "alice-password")}\r\n`;
  const stalls: [string, string, number][] = [
    ["headers that never end", "GET /events HTTP/1.1\r\nHost: x\r\nX-Slow: ", 700],
    [
      "a chunked body that never ends",
      `POST /authorizations HTTP/1.1\r\nHost: x\r\n${alice}Transfer-Encoding: chunked\r\n\r\n5\r\n{"not`,
      1500,
    ],
    [
      "a Content-Length longer than what is sent",
      `POST /authorizations HTTP/1.1\r\nHost: x\r\n${alice}Content-Length: 100\r\n\r\n{"note":`,
      1500,
    ],
  ];
  for (const [name, bytes, limit] of stalls) {
    test(`${name}: 408 in GitHub's shape after the timeout, and the socket is closed`, async () => {
      const { answer, ms } = await exchange(port, bytes);
      assert.equal(statusOf(answer), 408, answer);
      assert.match(
        answer,
        /\{"message":"Request Timeout","documentation_url":"https:\/\/developer\.github\.com\/v3"\}$/,
      );
      // Node checks the timeouts once a second: the answer comes after the limit and within about a second of it.
      assert.ok(ms >= limit - 50 && ms < limit + 2500, `answered after ${ms} ms`);
    });
  }

  test("an idle keep-alive connection is closed after the keep-alive timeout", async () => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk));
    socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    const started = Date.now();
    await once(socket, "close");
    assert.equal(statusOf(answer), 200);
    assert.ok(Date.now() - started < 3000, "the idle connection was closed by the server");
  });
});

describe("--trust-proxy: X-Forwarded-For, -Proto and -Host count only from trusted peers", () => {
  const apps: TestApp[] = [];
  after(async () => {
    for (const t of apps) await t.close();
  });

  async function appTrusting(trustProxy?: string) {
    const t = await startTestApp({ rateLimitAnonymous: 100, ...(trustProxy === undefined ? {} : { trustProxy }) });
    await seedEvents(t);
    apps.push(t);
    return t;
  }

  /** One anonymous feed request from `peer`, forwarded for `client` over HTTPS to api.example.com. */
  const forwarded = (t: TestApp, peer: string, client: string) =>
    t.app.inject({
      url: "/events?per_page=1",
      remoteAddress: peer,
      headers: {
        "x-forwarded-for": client,
        "x-forwarded-proto": "https",
        "x-forwarded-host": "api.example.com",
        host: "lb.internal",
      },
    });
  const remaining = (res: { headers: Record<string, unknown> }) => Number(res.headers["x-ratelimit-remaining"]);
  const nextLink = (res: { headers: Record<string, unknown> }) => new URL(parseLinks(String(res.headers.link)).next!);

  test("off (the default): a spoofed X-Forwarded-For changes nothing, every client behind the peer shares its window", async () => {
    const t = await appTrusting();
    const first = await forwarded(t, "10.0.0.5", "1.1.1.1");
    const second = await forwarded(t, "10.0.0.5", "2.2.2.2");
    assert.equal(remaining(second), remaining(first) - 1);
    assert.equal(nextLink(first).origin, "http://lb.internal");
  });

  for (const trust of ["true", "10.0.0.0/8", "10.0.0.5", "1"]) {
    test(`--trust-proxy ${trust}: the forwarded client gets its own window, and URLs use the forwarded scheme and host`, async () => {
      const t = await appTrusting(trust);
      const first = await forwarded(t, "10.0.0.5", "1.1.1.1");
      const second = await forwarded(t, "10.0.0.5", "2.2.2.2");
      const again = await forwarded(t, "10.0.0.5", "1.1.1.1");
      assert.equal(remaining(first), 99);
      assert.equal(remaining(second), 99);
      assert.equal(remaining(again), 98);
      assert.equal(nextLink(first).origin, "https://api.example.com");
    });
  }

  test("a list of addresses: a peer outside it is not believed", async () => {
    const t = await appTrusting("10.0.0.0/8,192.168.1.1");
    const first = await forwarded(t, "172.16.0.9", "1.1.1.1");
    const second = await forwarded(t, "172.16.0.9", "2.2.2.2");
    assert.equal(remaining(second), remaining(first) - 1);
    assert.equal(nextLink(first).origin, "http://lb.internal");
  });

  test("a hop count trusts only that many proxies: the client is the address the last trusted one saw", async () => {
    const t = await appTrusting("1");
    // The client claims 9.9.9.9; the one proxy in front appended the address it really saw, 3.3.3.3.
    const spoofed = await forwarded(t, "10.0.0.5", "9.9.9.9, 3.3.3.3");
    const real = await forwarded(t, "10.0.0.5", "3.3.3.3");
    assert.equal(remaining(real), remaining(spoofed) - 1);
  });

  test("a forwarded scheme other than http or https builds http URLs", async () => {
    const t = await appTrusting("true");
    const res = await t.app.inject({
      url: "/events?per_page=1",
      headers: { "x-forwarded-proto": "javascript", host: "h.example" },
    });
    assert.equal(nextLink(res).origin, "http://h.example");
  });
});
