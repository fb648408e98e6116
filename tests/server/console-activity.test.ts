/**
 * The console's Activity pages through app.inject() (SQLite and the PostgreSQL matrix): the sentence of every event
 * type, the feeds' visibility rules on the user, repository and organization pages, the type filter and paging, and
 * the JSON companions refusing a request without a session. The browser test (tests/console/activity.browser.test.ts)
 * covers the live stream as a user sees it.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { WORLD, HELLO_IDS } from "../helpers/client-world.js";
import { eventSentence, repoHref, sentenceText, type Segment } from "../../src/server/console/event-sentence.js";
import { relativeTime } from "../../src/server/console/activity-item.js";

const e = (type: string, payload: unknown, extra: Record<string, unknown> = {}) => ({
  type,
  actor: { login: "alice" },
  repo: { name: "bob/tools" },
  payload,
  ...extra,
});

const SENTENCES: [unknown, string][] = [
  [e("PushEvent", { size: 3 }), "alice pushed 3 commits to bob/tools"],
  [e("PushEvent", { size: 1 }), "alice pushed 1 commit to bob/tools"],
  [e("PushEvent", { commits: [{}, {}] }), "alice pushed 2 commits to bob/tools"],
  [e("PushEvent", {}), "alice pushed to bob/tools"],
  [e("WatchEvent", { action: "started" }), "alice starred bob/tools"],
  [e("IssuesEvent", { action: "opened", issue: { number: 12 } }), "alice opened issue #12 in bob/tools"],
  [e("IssuesEvent", { action: "closed", issue: {} }), "alice closed an issue in bob/tools"],
  [e("ForkEvent", { forkee: { full_name: "alice/tools" } }), "alice forked bob/tools"],
  [e("CreateEvent", { ref_type: "branch", ref: "x" }), "alice created branch x in bob/tools"],
  [e("CreateEvent", { ref_type: "repository", ref: null }), "alice created repository bob/tools"],
  [e("DeleteEvent", { ref_type: "tag", ref: "v1" }), "alice deleted tag v1 in bob/tools"],
  [e("IssueCommentEvent", { action: "created", issue: { number: 3 } }), "alice commented on issue #3 in bob/tools"],
  [
    e("IssueCommentEvent", { action: "created", issue: { number: 4, pull_request: {} } }),
    "alice commented on pull request #4 in bob/tools",
  ],
  [e("PullRequestEvent", { action: "opened", number: 5 }), "alice opened pull request #5 in bob/tools"],
  [
    e("PullRequestEvent", { action: "closed", number: 5, pull_request: { merged: true } }),
    "alice merged pull request #5 in bob/tools",
  ],
  [
    e("PullRequestEvent", { action: "synchronize", pull_request: { number: 6 } }),
    "alice updated pull request #6 in bob/tools",
  ],
  [
    e("PullRequestReviewEvent", { action: "created", pull_request: { number: 7 } }),
    "alice reviewed pull request #7 in bob/tools",
  ],
  [
    e("PullRequestReviewCommentEvent", { action: "created", pull_request: { number: 8 } }),
    "alice commented on the code of pull request #8 in bob/tools",
  ],
  [e("PublicEvent", {}), "alice made bob/tools public"],
  [
    e("ReleaseEvent", { action: "published", release: { tag_name: "v2.0" } }),
    "alice published release v2.0 in bob/tools",
  ],
  [
    e("CommitCommentEvent", { comment: { commit_id: "0123456789abcdef" } }),
    "alice commented on commit 0123456 in bob/tools",
  ],
  [e("GollumEvent", { pages: [{}, {}] }), "alice updated 2 wiki pages in bob/tools"],
  [
    e("MemberEvent", { action: "added", member: { login: "carol" } }),
    "alice added carol as a collaborator to bob/tools",
  ],
  [
    e("MemberEvent", { action: "removed", member: { login: "carol" } }),
    "alice removed carol as a collaborator from bob/tools",
  ],
  [e("SponsorshipEvent", { action: "created" }), "alice created a sponsorship in bob/tools"],
  [e("DiscussionEvent", { action: "created" }), "alice caused a DiscussionEvent in bob/tools"],
  [e("WatchEvent", {}, { repo: { name: "/" } }), "alice starred a repository"],
  [{ type: "PushEvent", payload: "not an object" }, "someone pushed to a repository"],
];

describe("console activity: sentences", () => {
  for (const [event, expected] of SENTENCES) {
    test(expected, () => assert.equal(sentenceText(eventSentence(event)), expected));
  }

  test("the actor, the repository and a member are links to their console pages; payload text stays text", () => {
    const segments = eventSentence(e("MemberEvent", { member: { login: "c/a<b>" } }, { actor: { login: "al ice" } }));
    const links = segments.filter((s): s is Exclude<Segment, string> => typeof s !== "string");
    assert.deepEqual(links, [
      { text: "al ice", href: "/console/users/al%20ice" },
      { text: "c/a<b>", href: "/console/users/c%2Fa%3Cb%3E" },
      { text: "bob/tools", href: "/console/repos/bob/tools" },
    ]);
    assert.equal(repoHref("nosla"), null);
  });

  test("relative times", () => {
    const now = new Date("2026-01-15T10:00:00Z");
    const ago = (seconds: number) => relativeTime(new Date(now.getTime() - seconds * 1000), now);
    assert.equal(ago(10), "just now");
    assert.equal(ago(-30), "just now");
    assert.equal(ago(180), "3 minutes ago");
    assert.equal(ago(3600), "1 hour ago");
    assert.equal(ago(2 * 86400), "2 days ago");
  });
});

describe("console activity pages", () => {
  let t: TestApp;
  const sessions: Record<string, string> = {};

  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
    for (const [login, password] of [
      ["alice", "alice-password"],
      ["bob", "bob-password"],
    ] as const) {
      const res = await t.app.inject({
        method: "POST",
        url: "/console/sign-in",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams({ login, password }).toString(),
      });
      sessions[login] = /feedgate_session=([^;]+)/.exec(String(res.headers["set-cookie"]))![1]!;
    }
  });
  after(() => t.close());

  const get = (url: string, login?: string) =>
    t.app.inject({ method: "GET", url, headers: login ? { cookie: `feedgate_session=${sessions[login]}` } : {} });
  const ids = (body: string) => [...body.matchAll(/<li data-id="([^"]+)"/g)].map((m) => m[1]);

  test("/console/ lands on Activity, the received feed as sentences with links", async () => {
    const landing = await get("/console/", "alice");
    assert.equal(landing.headers.location, "/console/activity");
    const res = await get("/console/activity", "alice");
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<h1>Activity<\/h1>/);
    assert.match(
      res.body,
      /<a href="\/console\/users\/bob">bob<\/a> created repository <a href="\/console\/repos\/bob\/tools">bob\/tools<\/a>/,
    );
    assert.match(res.body, /<time datetime="2026-01-14T00:53:00.000Z"[^>]*>1 day ago<\/time>/);
    assert.match(res.body, /data-stream="\/console\/activity\/stream"/);
  });

  test("a private repository's page: shown to its owner, 404 (the console's not-found page) to a stranger", async () => {
    const own = await get("/console/repos/alice/secret", "alice");
    assert.equal(own.statusCode, 200);
    assert.deepEqual(ids(own.body), ["3001"]);
    const stranger = await get("/console/repos/alice/secret", "bob");
    assert.equal(stranger.statusCode, 404);
    assert.match(stranger.body, /<title>[^<]*Not Found/);
    assert.doesNotMatch(stranger.body, /3001/);
    assert.equal((await get("/console/repos/alice/secret/items", "bob")).statusCode, 404);
    assert.equal((await get("/console/repos/nobody/nothing", "bob")).statusCode, 404);
  });

  test("a repository's page links to its Webhooks for those who may manage its hooks, and only for them", async () => {
    const link = /<a href="\/console\/repos\/alice\/hello\/hooks">Webhooks<\/a>/;
    assert.match((await get("/console/repos/alice/hello", "alice")).body, link, "the owner");
    assert.doesNotMatch(
      (await get("/console/repos/alice/hello", "bob")).body,
      link,
      "a stranger reading a public repository",
    );
  });

  test("user pages show the user's events, their private ones only to themselves; org pages only for organizations", async () => {
    assert.ok(ids((await get("/console/users/alice", "alice")).body).includes("3001"));
    assert.ok(!ids((await get("/console/users/alice", "bob")).body).includes("3001"));
    const org = await get("/console/orgs/acme", "bob");
    assert.equal(org.statusCode, 200);
    assert.deepEqual(ids(org.body), ["4001"]);
    assert.match(org.body, / · in <a href="\/console\/orgs\/acme">acme<\/a>/);
    assert.equal((await get("/console/orgs/alice", "bob")).statusCode, 404);
    assert.equal((await get("/console/users/nobody-here", "bob")).statusCode, 404);
  });

  test("paging: ?page=N without script, JSON items for Load more", async () => {
    const first = await get("/console/repos/alice/hello", "bob");
    assert.deepEqual(ids(first.body), HELLO_IDS.slice(0, 30));
    assert.match(first.body, /<a class="button" id="load-more" href="\/console\/repos\/alice\/hello\?page=2"/);
    const second = await get("/console/repos/alice/hello?page=2", "bob");
    assert.deepEqual(ids(second.body), HELLO_IDS.slice(30));
    assert.doesNotMatch(second.body, /Load more/);
    const items = JSON.parse((await get("/console/repos/alice/hello/items?page=2", "bob")).body) as {
      items: { id: string }[];
      next: unknown;
    };
    assert.deepEqual(
      items.items.map((i) => i.id),
      HELLO_IDS.slice(30),
    );
    assert.equal(items.next, null);
  });

  test("the type filter", async () => {
    const forks = await get("/console/repos/alice/hello?type=ForkEvent", "bob");
    assert.deepEqual(ids(forks.body), ["2001"]);
    assert.match(forks.body, /<option value="ForkEvent" selected>/);
    const pushes = await get("/console/repos/alice/hello?type=PushEvent&page=2", "bob");
    assert.deepEqual(ids(pushes.body), HELLO_IDS.slice(31));
    const unknown = await get("/console/repos/alice/hello?type=%3Cscript%3E", "bob");
    assert.deepEqual(ids(unknown.body), HELLO_IDS.slice(0, 30), "an unknown type is no filter");
  });

  test("the pages need a session; the stream and items refuse without one (401), not a redirect", async () => {
    assert.equal((await get("/console/activity")).statusCode, 303);
    for (const url of ["/console/activity/stream", "/console/activity/items", "/console/repos/alice/hello/stream"]) {
      const res = await get(url);
      assert.equal(res.statusCode, 401, url);
      assert.doesNotMatch(String(res.headers["content-type"]), /event-stream/);
    }
    const forged = await t.app.inject({
      method: "GET",
      url: "/console/activity/stream",
      headers: { cookie: "feedgate_session=forged" },
    });
    assert.equal(forged.statusCode, 401);
  });
});
