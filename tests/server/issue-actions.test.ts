/**
 * Issues as actions: opening, editing, closing, labelling, assigning and locking an issue writes its state, the
 * issue events, the Events API event GitHub makes and the webhooks, in one transaction; a refused write writes none.
 * Answers are checked against GitHub's published issue schema (../shared/data/openapi/issue.schema.json).
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { ALICE_PUBLIC_TOKEN, ALICE_TOKEN, BOB_TOKEN, WORLD } from "../helpers/client-world.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { assertSchema } from "../compat/schemas.js";
import { hookedReceiver, type Receiver } from "../helpers/webhook-receiver.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read as asserted
type Json = Record<string, any>;

describe("issue actions", () => {
  let t: TestApp;
  let hook: Receiver;
  /** The deliveries the hook received, once there are `count` of them: [event, action, body]. */
  const delivered = async (count: number) => {
    await hook.until(count);
    return hook.received.map((r) => {
      const body = JSON.parse(r.body) as Json;
      return { event: r.headers["x-github-event"], action: body.action, body };
    });
  };
  const send = (
    method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
    url: string,
    token = ALICE_TOKEN,
    payload?: object,
  ) => t.app.inject({ method, url, headers: { authorization: `token ${token}` }, ...(payload ? { payload } : {}) });
  /** What a write can leave behind: the issues, the issue events, the events and the queued deliveries. */
  const written = async () => {
    const repo = (await t.store.directory.findRepo("alice", "hello"))!;
    const [issues, events, feed] = await Promise.all([
      t.store.issues.page(
        { repoId: repo.id, state: "all", sort: "created", direction: "asc" },
        { limit: 100, offset: 0 },
      ),
      t.store.events.issueFeed(repo.id, { limit: 100, offset: 0, notBefore: null }),
      t.app.inject({ method: "GET", url: "/repos/alice/hello/events?per_page=100" }),
    ]);
    return JSON.stringify([issues, events.total, JSON.parse(feed.body).length, hook.received.length]);
  };

  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
    hook = await hookedReceiver(t, "alice/hello");
  });
  after(async () => {
    await t.close();
    await hook.close();
  });

  test("opening an issue answers 201 with GitHub's issue, and makes IssuesEvent and the issues.opened webhook", async () => {
    const res = await send("POST", "/repos/alice/hello/issues", ALICE_TOKEN, {
      title: "Found a bug",
      body: "It breaks @bob",
      labels: ["bug"],
    });
    assert.equal(res.statusCode, 201, res.body);
    const issue = res.json() as Json;
    assertSchema("issue", issue);
    assert.equal(issue.number, 1);
    assert.equal(issue.state, "open");
    assert.equal(issue.user.login, "alice");
    assert.equal(issue.author_association, "OWNER");
    assert.deepEqual(
      issue.labels.map((l: Json) => [l.name, l.color]),
      [["bug", "ededed"]],
    );
    assert.equal(res.headers.location, "http://localhost:80/repos/alice/hello/issues/1");

    const feed = (await t.app.inject({ method: "GET", url: "/repos/alice/hello/events" })).json() as Json[];
    assert.equal(feed[0]!.type, "IssuesEvent");
    assert.equal(feed[0]!.payload.action, "opened");
    assert.equal(feed[0]!.payload.issue.number, 1);
    assert.equal(feed[0]!.payload.issue.author_association, undefined, "the Events API no longer sends it");
    assert.ok(BigInt(feed[0]!.id) > 5001n, "made ids continue after the highest stored");

    const deliveries = await delivered(2);
    assert.deepEqual(
      deliveries.map((d) => [d.event, d.action]),
      [
        ["issues", "opened"],
        ["issues", "labeled"],
      ],
    );
    const opened = deliveries[0]!.body;
    // As the API answers it, with the webhooks' base URL (where the app listens) in place of the injected request's.
    const sameBase = (value: unknown) => JSON.stringify(value).replaceAll("http://localhost:80/", "http://localhost/");
    assert.equal(sameBase(opened.issue), sameBase(issue), "the webhook carries the issue as the API answers it");
    assert.equal(deliveries[1]!.body.label.name, "bug");
    assert.equal(opened.repository.full_name, "alice/hello");
    const shown = (await t.app.inject({ method: "GET", url: "/repos/alice/hello" })).json() as Json;
    assert.equal(sameBase(opened.repository.owner), sameBase(shown.owner), "its owner as GET /repos shows it");
    // GitHub's bodies count what the action did (../shared/data/webhooks/examples/issues.json: opened, 1 open).
    assert.deepEqual([opened.repository.open_issues_count, opened.repository.open_issues], [1, 1]);
    assert.equal(opened.sender.login, "alice");
  });

  test("a second issue takes the next number; reading it answers the same object", async () => {
    const created = (
      await send("POST", "/repos/alice/hello/issues", BOB_TOKEN, { title: "Second", labels: ["x"] })
    ).json() as Json;
    assert.equal(created.number, 2);
    assert.deepEqual(created.labels, [], "labels from someone without push access are dropped, as GitHub drops them");
    assert.equal(created.author_association, "NONE");
    const read = await t.app.inject({ method: "GET", url: "/repos/alice/hello/issues/2" });
    assert.equal(read.statusCode, 200);
    assert.deepEqual(read.json(), created);
  });

  test("closing makes the closed issue event, IssuesEvent closed, and sets closed_at and closed_by", async () => {
    const res = await send("PATCH", "/repos/alice/hello/issues/1", ALICE_TOKEN, { state: "closed", title: "A bug" });
    assert.equal(res.statusCode, 200, res.body);
    const issue = res.json() as Json;
    assert.equal(issue.state, "closed");
    assert.equal(issue.state_reason, "completed");
    assert.equal(issue.closed_by.login, "alice");
    assert.equal(issue.closed_at, "2026-01-15T10:00:00Z");
    const events = (await t.app.inject({ method: "GET", url: "/repos/alice/hello/issues/1/events" })).json() as Json[];
    assert.deepEqual(
      events.map((e) => e.event),
      // The body's "@bob" made the mentioned and subscribed pair as the issue was opened.
      ["labeled", "mentioned", "subscribed", "renamed", "closed"],
    );
    assert.deepEqual([events[1]!.actor.login, events[2]!.actor.login], ["bob", "bob"]);
    assert.deepEqual(events[3]!.rename, { from: "Found a bug", to: "A bug" });
    assert.equal(events[0]!.issue, undefined, "the per-issue list carries no issue");
    const repoWide = (await t.app.inject({ method: "GET", url: "/repos/alice/hello/issues/events" })).json() as Json[];
    assert.equal(repoWide[0]!.event, "closed");
    assert.equal(repoWide[0]!.issue.number, 1);
    const feed = (await t.app.inject({ method: "GET", url: "/repos/alice/hello/events" })).json() as Json[];
    assert.deepEqual([feed[0]!.type, feed[0]!.payload.action], ["IssuesEvent", "closed"]);
    // Issue 2 (bob's, no push access): opened only. Then the edit and the close of issue 1.
    const deliveries = await delivered(5);
    assert.deepEqual(
      deliveries.slice(2).map((d) => [d.event, d.action]),
      [
        ["issues", "opened"],
        ["issues", "edited"],
        ["issues", "closed"],
      ],
    );
    assert.deepEqual(deliveries[3]!.body.changes, { title: { from: "Found a bug" } });
    assert.deepEqual(
      deliveries.slice(2).map((d) => d.body.repository.open_issues_count),
      [2, 1, 1],
      "each body counts the open issues as its action left them (the edit and the close are one PATCH)",
    );
  });

  test("lists filter by state and labels and page with Link", async () => {
    const open = (await t.app.inject({ method: "GET", url: "/repos/alice/hello/issues" })).json() as Json[];
    assert.deepEqual(
      open.map((i) => i.number),
      [2],
    );
    const all = await t.app.inject({
      method: "GET",
      url: "/repos/alice/hello/issues?state=all&per_page=1&direction=asc",
    });
    assert.deepEqual(
      (all.json() as Json[]).map((i) => i.number),
      [1],
    );
    assert.match(String(all.headers.link), /page=2>; rel="next"/);
    const bugs = (
      await t.app.inject({ method: "GET", url: "/repos/alice/hello/issues?state=all&labels=BUG" })
    ).json() as Json[];
    assert.deepEqual(
      bugs.map((i) => i.number),
      [1],
    );
  });

  test("locking needs push access; the author without it gets 403 and nothing is written", async () => {
    await delivered(5);
    const before = await written();
    const refused = await send("PUT", "/repos/alice/hello/issues/2/lock", BOB_TOKEN, { lock_reason: "spam" });
    assert.equal(refused.statusCode, 403);
    assert.equal(await written(), before);
    const locked = await send("PUT", "/repos/alice/hello/issues/2/lock", ALICE_TOKEN, { lock_reason: "resolved" });
    assert.equal(locked.statusCode, 204);
    const issue = (await t.app.inject({ method: "GET", url: "/repos/alice/hello/issues/2" })).json() as Json;
    assert.deepEqual([issue.locked, issue.active_lock_reason], [true, "resolved"]);
  });

  test("bad input is GitHub's 422 and writes nothing", async () => {
    await delivered(6); // the lock's
    const before = await written();
    for (const [url, method, payload] of [
      ["/repos/alice/hello/issues", "POST", { title: "" }],
      ["/repos/alice/hello/issues/1", "PATCH", { state: "shut" }],
      ["/repos/alice/hello/issues/1", "PATCH", { state: "closed", state_reason: "reopened" }],
      ["/repos/alice/hello/issues", "POST", { title: "t", assignees: ["nobody-at-all"] }],
      ["/repos/alice/hello/issues/1/lock", "PUT", { lock_reason: "bored" }],
    ] as const) {
      const res = await send(method, url, ALICE_TOKEN, payload);
      assert.equal(res.statusCode, 422, `${method} ${url} ${JSON.stringify(payload)}: ${res.body}`);
      assert.equal((res.json() as Json).message, "Validation Failed");
    }
    assert.equal(await written(), before);
  });

  test("an issue without a title is GitHub's `Invalid request.` naming it, and writes nothing", async () => {
    const before = await written();
    for (const payload of [{ body: "no title" }, {}, { labels: ["bug"], assignees: ["alice"] }]) {
      const res = await send("POST", "/repos/alice/hello/issues", ALICE_TOKEN, payload);
      assert.equal(res.statusCode, 422, `${JSON.stringify(payload)}: ${res.body}`);
      assert.deepEqual(res.json(), {
        message: 'Invalid request.\n\n"title" wasn\'t supplied.',
        documentation_url: "https://docs.github.com/rest/issues/issues#create-an-issue",
      });
    }
    const blank = await send("POST", "/repos/alice/hello/issues", ALICE_TOKEN, { title: " " });
    assert.deepEqual((blank.json() as Json).errors, [
      { resource: "Issue", field: "title", code: "missing_field", message: "title must not be blank" },
    ]);
    assert.equal(await written(), before);
  });

  test("who may: anonymous 401, a token without public_repo 404, a private repository not seen 404", async () => {
    const anonymous = await t.app.inject({ method: "POST", url: "/repos/alice/hello/issues", payload: { title: "x" } });
    assert.equal(anonymous.statusCode, 401);
    assert.equal((await send("POST", "/repos/alice/hello/issues", ALICE_PUBLIC_TOKEN, { title: "x" })).statusCode, 404);
    assert.equal((await send("POST", "/repos/alice/secret/issues", BOB_TOKEN, { title: "x" })).statusCode, 404);
    assert.equal((await send("GET", "/repos/alice/hello/issues/99")).statusCode, 404);
    assert.equal((await send("GET", "/repos/alice/secret/issues", BOB_TOKEN)).statusCode, 404);
  });

  test("each action raises the generation once and logs how far back it reached, for the feed totals kept", async () => {
    const { generation } = await t.store.events.version();
    const at = Math.floor(t.clock.now().getTime() / 1000);
    // An issue event and no Events API event (a label added), then an event and no issue event (a comment).
    assert.equal(
      (await send("POST", "/repos/alice/hello/issues/1/labels", ALICE_TOKEN, { labels: ["later"] })).statusCode,
      200,
    );
    assert.equal((await t.store.events.version()).generation, generation + 1);
    assert.deepEqual(await t.store.events.ingestedSince(generation, generation + 1), {
      oldestEvent: null,
      oldestIssueEvent: at,
    });
    assert.equal(
      (await send("POST", "/repos/alice/hello/issues/1/comments", ALICE_TOKEN, { body: "Noted" })).statusCode,
      201,
    );
    assert.deepEqual(await t.store.events.ingestedSince(generation + 1, generation + 2), {
      oldestEvent: at,
      oldestIssueEvent: null,
    });
    const [labeled] = (
      await t.app.inject({ method: "GET", url: "/repos/alice/hello/issues/1/events" })
    ).json() as Json[];
    assert.ok(labeled, "the per-issue list has the made issue event: its issue number was written");
  });

  test("actions at once, an ingest among them, each take ids of their own after the highest stored", async () => {
    const AT_ONCE = 8;
    const ingested = { id: "9000000001", type: "WatchEvent", actor: { login: "bob" }, repo: { name: "alice/hello" } };
    const answers = await Promise.all([
      ...Array.from({ length: AT_ONCE }, (_, i) =>
        send("POST", "/repos/alice/hello/issues", ALICE_TOKEN, { title: `At once ${i}`, labels: ["bug"] }),
      ),
      ...Array.from({ length: AT_ONCE }, () =>
        send("POST", "/repos/alice/hello/issues/1/comments", ALICE_TOKEN, { body: "At once" }),
      ),
      new IngestService(t.store, t.clock.now).ingestEvents([
        { ...ingested, payload: { action: "started" }, public: true, created_at: "2026-01-14T00:00:00Z" },
      ]),
    ]);
    for (const res of answers.slice(0, -1) as Awaited<ReturnType<typeof send>>[])
      assert.equal(res.statusCode, 201, res.body);
    const events = (
      await t.app.inject({ method: "GET", url: "/repos/alice/hello/events?per_page=100" })
    ).json() as Json[];
    const ids = events.map((e) => e.id as string);
    assert.equal(new Set(ids).size, ids.length, "no two events share an id");
    const made = events.filter(
      (e) =>
        (e.type === "IssuesEvent" && String(e.payload.issue.title).startsWith("At once")) ||
        (e.type === "IssueCommentEvent" && e.payload.comment.body === "At once"),
    );
    assert.equal(made.length, 2 * AT_ONCE, "every action's event is stored");
    assert.ok(ids.includes(ingested.id), "and the ingested one");
    const issueEvents = (
      await t.app.inject({ method: "GET", url: "/repos/alice/hello/issues/events?per_page=100" })
    ).json() as Json[];
    const issueEventIds = issueEvents.map((e) => e.id as number);
    assert.equal(new Set(issueEventIds).size, issueEventIds.length, "no two issue events share an id");
    assert.equal(
      issueEvents.filter((e) => e.event === "labeled" && String(e.issue.title).startsWith("At once")).length,
      AT_ONCE,
    );
  });
});
