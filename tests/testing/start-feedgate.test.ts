/**
 * feedgate/testing, as a test suite uses it: in process, its clock, faults, receiver, snapshots and interception,
 * each proved through real requests (a socket, or the in-process fetch) and real clients.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Octokit } from "octokit-rest-latest";
import { startFeedgate, type Feedgate } from "../../src/testing/index.js";
import { event } from "../helpers/events.js";

const WORLD = {
  users: [{ login: "octocat" }, { login: "hubot" }],
  orgs: [{ login: "acme", members: ["octocat"] }],
  repos: [{ full_name: "octocat/hello" }, { full_name: "octocat/secret", private: true }],
  events: [event(1, "PushEvent", "octocat", "octocat/hello", { created_at: "2026-01-01T10:00:00Z" })],
};
const NOW = "2026-01-02T00:00:00Z";

describe("feedgate/testing", () => {
  let fg: Feedgate;
  before(async () => {
    fg = await startFeedgate({ world: WORLD, now: NOW });
  });
  after(() => fg.close());

  it("serves the world on a real socket, and the same bytes through the in-process fetch without opening one", async () => {
    let connections = 0;
    fg.app.server.on("connection", () => connections++);
    const inProcess = await fg.fetch(`${fg.url}/repos/octocat/hello/events`);
    assert.equal(connections, 0);
    const overSocket = await fetch(`${fg.url}/repos/octocat/hello/events`);
    assert.equal(connections, 1);
    assert.equal(inProcess.status, 200);
    assert.equal(inProcess.headers.get("etag"), overSocket.headers.get("etag"));
    assert.deepEqual(await inProcess.json(), await overSocket.json());
  });

  it("answers Octokit through fg.fetch, with a token made for a user it creates", async () => {
    const octokit = new Octokit({ baseUrl: fg.url, auth: await fg.token("newcomer"), request: { fetch: fg.fetch } });
    const { data: me } = await octokit.rest.users.getAuthenticated();
    assert.equal(me.login, "newcomer");
    const { data: events } = await octokit.rest.activity.listRepoEvents({ owner: "octocat", repo: "hello" });
    assert.deepEqual(
      events.map((e) => e.id),
      ["1"],
    );
  });

  it("makes fine-grained tokens: limited to the repositories and permissions asked for, expiring by the double's clock", async () => {
    const hooks = await fg.fineGrainedToken("octocat", {
      repositories: ["octocat/secret"],
      permissions: { repository_hooks: "write" },
      expiresAt: "2026-01-03T00:00:00Z",
    });
    const octokit = new Octokit({ baseUrl: fg.url, auth: hooks, request: { fetch: fg.fetch } });
    const created = await octokit.rest.repos.createWebhook({
      owner: "octocat",
      repo: "secret",
      config: { url: "https://example.com/" },
      active: false,
    });
    assert.equal(created.status, 201);
    assert.equal(created.headers["x-accepted-github-permissions"], "repository_hooks=write");
    const publicOnly = await fg.fineGrainedToken("octocat");
    assert.equal(
      (await fg.fetch(`${fg.url}/repos/octocat/secret`, { headers: { authorization: `Bearer ${publicOnly}` } })).status,
      404,
    );
    await assert.rejects(
      fg.fineGrainedToken("octocat", { permissions: { secrets: "read" } as never }),
      /not a permission feedgate knows/,
    );
    await assert.rejects(fg.fineGrainedToken("nobody"), /no user "nobody"/);
    fg.clock.advance("1d");
    assert.equal((await fg.fetch(`${fg.url}/user`, { headers: { authorization: `Bearer ${hooks}` } })).status, 401);
    await fg.reset();
  });

  it("reads one clock: the Date header, the rate-limit reset, and event times", async () => {
    const first = await fg.fetch(`${fg.url}/users/octocat`);
    assert.equal(first.headers.get("date"), new Date(NOW).toUTCString());
    assert.equal(first.headers.get("x-ratelimit-reset"), String(Date.parse(NOW) / 1000 + 3600));
    fg.clock.advance("90m");
    const later = await fg.fetch(`${fg.url}/users/octocat`);
    assert.equal(later.headers.get("date"), new Date(Date.parse(NOW) + 90 * 60_000).toUTCString());
    assert.equal(
      later.headers.get("x-ratelimit-reset"),
      String(Date.parse(NOW) / 1000 + 90 * 60 + 3600),
      "the old window ended",
    );
    assert.throws(() => fg.clock.set(new Date("not a time")), /valid time/);
    assert.throws(() => fg.clock.advance("soon"), /duration/);
    await fg.reset();
    assert.equal(fg.clock.now().toISOString(), new Date(NOW).toISOString(), "a reset puts the clock back");
  });

  it("makes requests fail as GitHub does, for as many times as asked, and refuses a malformed fault whole", async () => {
    fg.faults.unavailable({ path: "/repos/{owner}/{repo}/events", times: 1 });
    const failed = await fg.fetch(`${fg.url}/api/v3/repos/octocat/hello/events?page=1`);
    assert.equal(failed.status, 502);
    assert.deepEqual(await failed.json(), { message: "Server Error" });
    assert.equal((await fg.fetch(`${fg.url}/repos/octocat/hello/events`)).status, 200, "times: 1 answered once");

    fg.faults.secondaryRateLimit({ path: "/user", method: "GET", retryAfter: 30 });
    const limited = await fg.fetch(`${fg.url}/user`);
    assert.equal(limited.status, 403);
    assert.equal(limited.headers.get("retry-after"), "30");
    const body = (await limited.json()) as { message: string };
    assert.match(body.message, /^You have exceeded a secondary rate limit\..* request ID [0-9A-F:]+\.$/);
    assert.equal(
      (await fg.fetch(`${fg.url}/user`, { method: "POST" })).status,
      404,
      "another method is not the fault's",
    );

    assert.throws(() => fg.faults.add({ method: "FETCH", path: "/user", status: 500 }), /method/);
    assert.throws(() => fg.faults.add({ path: "/repos/:owner/x{y}", status: 500 }), /malformed segment/);
    assert.throws(() => fg.faults.add({ path: "user", status: 500 }), /starting with/);
    assert.equal(fg.faults.list().length, 1, "nothing was added by the refused faults");
    fg.faults.clear();
    assert.equal((await fg.fetch(`${fg.url}/user`)).status, 401);
  });

  it("delivers webhooks into a receiver, signed; a failed delivery's retry is sent as soon as the clock passes it", async () => {
    const inbox = await fg.receiver({ secret: "s3cret" });
    const octokit = new Octokit({ baseUrl: fg.url, auth: await fg.token("octocat"), request: { fetch: fg.fetch } });
    await octokit.rest.repos.createWebhook({
      owner: "octocat",
      repo: "hello",
      config: { url: inbox.url, content_type: "json", secret: "s3cret" },
    });
    const ping = await inbox.next({ event: "ping" });
    assert.equal(ping.verified, true);

    inbox.respondWith(500);
    await fg.ingest([event(2, "PushEvent", "octocat", "octocat/hello", { created_at: NOW })]);
    await until(() => inbox.received.some((d) => d.event === "push"));
    inbox.respondWith(200);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // longer than the first retry's delay, in real time
    assert.equal(inbox.received.filter((d) => d.event === "push").length, 1, "the clock stood still: no retry yet");
    fg.clock.advance("1m");
    const push = await inbox.next({ event: "push" }, 2000);
    assert.equal(push.verified, true);
    assert.equal((push.body as { repository: { full_name: string } }).repository.full_name, "octocat/hello");
    assert.equal(
      push.headers["x-github-delivery"],
      inbox.received.find((d) => d.event === "push")!.guid,
      "the retry is the same delivery",
    );
  });

  it("takes snapshots and restores them; a reset returns to the world; a snapshot of another double is refused", async () => {
    await fg.reset();
    const token = await fg.token("hubot");
    const snapshot = await fg.snapshot();
    await fg.ingest([event(3, "WatchEvent", "hubot", "octocat/hello", { created_at: NOW })]);
    const ids = async () =>
      ((await (await fg.fetch(`${fg.url}/repos/octocat/hello/events`)).json()) as { id: string }[]).map((e) => e.id);
    assert.deepEqual(await ids(), ["3", "1"]);
    await fg.restore(snapshot);
    assert.deepEqual(await ids(), ["1"]);
    assert.equal((await fg.fetch(`${fg.url}/user`, { headers: { authorization: `token ${token}` } })).status, 200);
    await fg.reset();
    assert.equal(
      (await fg.fetch(`${fg.url}/user`, { headers: { authorization: `token ${token}` } })).status,
      401,
      "the token came after the world",
    );

    const other = await startFeedgate();
    try {
      await assert.rejects(other.restore(snapshot), /not taken by this feedgate/);
      assert.equal((await other.fetch(`${other.url}/users/octocat`)).status, 404, "instances share nothing");
    } finally {
      await other[Symbol.asyncDispose]();
    }
  });

  it("answers the global fetch's requests to GitHub's origin until restored, following its own Link headers", async () => {
    const interception = fg.intercept("https://api.github.com");
    try {
      const octokit = new Octokit({ auth: await fg.token("octocat") }); // no baseUrl: api.github.com
      const { data } = await octokit.rest.users.getByUsername({ username: "hubot" });
      assert.equal(data.login, "hubot");
      const all = await octokit.paginate(octokit.rest.activity.listRepoEvents, {
        owner: "octocat",
        repo: "hello",
        per_page: 1,
      });
      assert.ok(all.length >= 1);
    } finally {
      interception.restore();
    }
    await assert.rejects(fetch("https://api.github.com/users/hubot"), "no network here: the request left the process");
  });
});

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
