/**
 * An issue's timeline (`GET /repos/{o}/{r}/issues/{n}/timeline`, and its `/repositories/{id}/...` form): the issue
 * events the actions made on it and its comments as `commented` items, in the order they happened, paged with `Link`;
 * and the `mentioned` / `subscribed` issue events GitHub makes for an `@login` in an issue's body or a comment.
 * Items are checked against GitHub's published timeline-issue-events schema, on a server sending GitHub's integer ids.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { ALICE_TOKEN, BOB_TOKEN } from "../helpers/client-world.js";
import { assertSchema } from "../compat/schemas.js";
import { issueScene, ZOE_TOKEN, type IssueScene, type Json } from "../helpers/issue-scene.js";

const MINUTE = 60_000;

/** What a timeline item is, in a word: the event, with whom or what it names. */
const described = (item: Json) =>
  [
    item.event,
    item.label?.name ?? item.assignee?.login ?? item.milestone?.title ?? item.rename?.to ?? item.body ?? null,
    item.actor?.login,
  ] as const;

describe("an issue's timeline", () => {
  let s: IssueScene;
  let number: number;
  const timeline = async (query = "", base = "/repos/alice/hello") => {
    const res = await s.send("GET", `${base}/issues/${number}/timeline${query}`, null);
    assert.equal(res.statusCode, 200, res.body);
    return { res, items: res.json() as Json[] };
  };

  before(async () => {
    s = await issueScene({ numericIds: true });
    const { t } = s;
    const milestone = await s.send("POST", "/repos/alice/hello/milestones", ALICE_TOKEN, { title: "v1" });
    assert.equal(milestone.statusCode, 201, milestone.body);
    t.clock.advance(MINUTE);
    const opened = await s.send("POST", "/repos/alice/hello/issues", ALICE_TOKEN, {
      title: "Crash on start",
      body: "Seen by @bob and @zoe, not by @alice or @nobody-at-all (mail zoe@example.com)",
      labels: ["bug"],
      assignees: ["zoe"],
    });
    assert.equal(opened.statusCode, 201, opened.body);
    number = (opened.json() as Json).number;
    const path = `/repos/alice/hello/issues/${number}`;
    t.clock.advance(MINUTE);
    assert.equal((await s.send("POST", `${path}/comments`, BOB_TOKEN, { body: "Me too, @Alice" })).statusCode, 201);
    t.clock.advance(MINUTE);
    await s.send("PATCH", path, ZOE_TOKEN, { title: "Crash on start-up", milestone: 1 });
    t.clock.advance(MINUTE);
    await s.send("POST", `${path}/comments`, ZOE_TOKEN, { body: "Fixed." });
    await s.send("PATCH", path, ZOE_TOKEN, { state: "closed", labels: [], assignees: [], milestone: null });
    t.clock.advance(MINUTE);
    assert.equal((await s.send("PUT", `${path}/lock`, ALICE_TOKEN, { lock_reason: "resolved" })).statusCode, 204);
    t.clock.advance(MINUTE);
    assert.equal((await s.send("DELETE", `${path}/lock`, ALICE_TOKEN)).statusCode, 204);
  });
  after(() => s.close());

  test("lists the issue events and comments in the order they happened, valid against GitHub's schema", async () => {
    const { res, items } = await timeline("?per_page=100");
    assert.match(String(res.headers["content-type"]), /^application\/json/);
    assertSchema("timeline-issue-events", items, "timeline");
    assert.deepEqual(items.map(described), [
      ["labeled", "bug", "alice"],
      ["assigned", "zoe", "alice"],
      ["mentioned", null, "bob"],
      ["subscribed", null, "bob"],
      ["mentioned", null, "zoe"],
      ["subscribed", null, "zoe"],
      ["commented", "Me too, @Alice", "bob"],
      ["mentioned", null, "alice"],
      ["subscribed", null, "alice"],
      ["renamed", "Crash on start-up", "zoe"],
      ["milestoned", "v1", "zoe"],
      ["commented", "Fixed.", "zoe"],
      ["closed", null, "zoe"],
      ["unlabeled", "bug", "zoe"],
      ["unassigned", "zoe", "zoe"],
      ["demilestoned", "v1", "zoe"],
      ["locked", null, "alice"],
      ["unlocked", null, "alice"],
    ]);
    const times = items.map((i) => String(i.created_at));
    assert.deepEqual(times, [...times].sort(), "oldest first");
  });

  test("a commented item is the comment object with event and actor, as the comment's own URL answers it", async () => {
    const { items } = await timeline("?per_page=100");
    const item = items.find((i) => i.event === "commented")!;
    const { event, actor, ...comment } = item;
    assert.equal(actor.login, "bob");
    assert.deepEqual(actor, comment.user);
    const read = await s.send("GET", `/repos/alice/hello/issues/comments/${comment.id}`, null);
    assert.deepEqual(comment, read.json(), "the comment as GET .../comments/{id} answers it");
    assert.equal(typeof comment.id, "number");
    assert.equal(comment.author_association, "NONE");
  });

  test("an issue event is the item the issue's events list holds, without the issue", async () => {
    const { items } = await timeline("?per_page=100");
    const events = (await s.send("GET", `/repos/alice/hello/issues/${number}/events?per_page=100`, null)).json();
    assert.deepEqual(
      items.filter((i) => i.event !== "commented"),
      events,
      "the events list holds every one of them, mentioned and subscribed included",
    );
    assert.equal(items[0]!.issue, undefined);
  });

  test("pages with Link; the pages together are the whole timeline", async () => {
    const whole = (await timeline("?per_page=100")).items;
    const first = await timeline("?per_page=5");
    assert.equal(first.items.length, 5);
    const link = String(first.res.headers.link);
    assert.match(link, /<[^>]*\/repos\/alice\/hello\/issues\/\d+\/timeline\?per_page=5&page=2>; rel="next"/);
    assert.match(link, /page=4>; rel="last"/);
    const rest: Json[] = [];
    for (const page of [2, 3, 4]) rest.push(...(await timeline(`?per_page=5&page=${page}`)).items);
    assert.deepEqual([...first.items, ...rest], whole);
    assert.deepEqual((await timeline("?per_page=5&page=5")).items, []);
  });

  test("is served in GitHub's /repositories/{id}/... form, its Link on that path", async () => {
    const repo = (await s.send("GET", "/repos/alice/hello", null)).json() as Json;
    const byName = (await timeline("?per_page=100")).items;
    const byId = await timeline("?per_page=4", `/repositories/${repo.id}`);
    assert.deepEqual(byId.items, byName.slice(0, 4));
    assert.match(String(byId.res.headers.link), new RegExp(`/repositories/${repo.id}/issues/${number}/timeline\\?`));
  });

  test("answers the same with GitHub's old mockingbird preview Accept", async () => {
    const plain = await timeline("?per_page=100");
    const preview = await s.t.app.inject({
      method: "GET",
      url: `/repos/alice/hello/issues/${number}/timeline?per_page=100`,
      headers: { accept: "application/vnd.github.mockingbird-preview+json" },
    });
    assert.equal(preview.statusCode, 200, preview.body);
    assert.deepEqual(preview.json(), plain.items);
  });

  test("404 for an issue that does not exist, a repository not seen or not there; anonymous reads public ones", async () => {
    for (const [url, token] of [
      ["/repos/alice/hello/issues/999/timeline", ALICE_TOKEN],
      ["/repos/alice/secret/issues/1/timeline", BOB_TOKEN],
      ["/repos/alice/nothing/issues/1/timeline", ALICE_TOKEN],
      ["/repositories/999999/issues/1/timeline", ALICE_TOKEN],
    ] as const) {
      const res = await s.send("GET", url, token);
      assert.equal(res.statusCode, 404, `${url}: ${res.body}`);
      assert.equal((res.json() as Json).message, "Not Found");
    }
    assert.equal((await s.send("GET", `/repos/alice/hello/issues/${number}/timeline`, null)).statusCode, 200);
  });

  test("an issue with nothing on it has an empty timeline", async () => {
    const res = await s.send("POST", "/repos/alice/hello/issues", BOB_TOKEN, { title: "Quiet" });
    const quiet = (res.json() as Json).number;
    const items = await s.send("GET", `/repos/alice/hello/issues/${quiet}/timeline`, null);
    assert.deepEqual(items.json(), []);
  });
});

describe("mentions", () => {
  let s: IssueScene;
  before(async () => {
    s = await issueScene();
  });
  after(() => s.close());

  test("make no webhook and no Events API event; a refused comment makes no mention", async () => {
    const opened = await s.send("POST", "/repos/alice/hello/issues", ALICE_TOKEN, { title: "Ping", body: "@bob" });
    assert.equal(opened.statusCode, 201, opened.body);
    const number = (opened.json() as Json).number;
    const deliveries = await s.delivered(1);
    assert.deepEqual(
      deliveries.map((d) => [d.event, d.action]),
      [["issues", "opened"]],
    );
    const events = (await s.send("GET", "/repos/alice/hello/events", null)).json() as Json[];
    assert.equal(events.filter((e) => e.payload.action === "mentioned").length, 0);
    const before = await s.written();
    const blank = await s.send("POST", `/repos/alice/hello/issues/${number}/comments`, ZOE_TOKEN, { body: "" });
    assert.equal(blank.statusCode, 422, blank.body);
    assert.equal(await s.written(), before);
  });

  test("a private repository's issue mentions only those who may read it", async () => {
    const opened = await s.send("POST", "/repos/alice/secret/issues", ALICE_TOKEN, {
      title: "Hush",
      body: "@bob @zoe",
    });
    assert.equal(opened.statusCode, 201, opened.body);
    const number = (opened.json() as Json).number;
    const events = await s.send("GET", `/repos/alice/secret/issues/${number}/events`, ALICE_TOKEN);
    assert.deepEqual(events.json(), [], "neither bob nor zoe may read alice/secret");
  });

  test("in the default mode, issue event ids are strings and comment ids integers; a second's comment first", async () => {
    s.t.clock.advance(MINUTE);
    await s.send("POST", "/repos/alice/hello/issues/1/comments", ZOE_TOKEN, { body: "cc @bob" });
    const items = (await s.send("GET", "/repos/alice/hello/issues/1/timeline", null)).json() as Json[];
    assert.deepEqual(
      items.map((i) => [i.event, typeof i.id]),
      [
        ["mentioned", "string"],
        ["subscribed", "string"],
        ["commented", "number"],
        ["mentioned", "string"],
        ["subscribed", "string"],
      ],
    );
    // Within one second the store cannot order a comment against issue events (they keep whole seconds): comments
    // come first, so a comment is before the mentions it made, and, here, before those of the comment before it.
    await s.send("POST", "/repos/alice/hello/issues/1/comments", ALICE_TOKEN, { body: "and @zoe" });
    const last = (await s.send("GET", "/repos/alice/hello/issues/1/timeline", null)).json() as Json[];
    assert.deepEqual(
      last.slice(2).map((i) => [i.event, i.actor.login]),
      [
        ["commented", "zoe"],
        ["commented", "alice"],
        ["mentioned", "bob"],
        ["subscribed", "bob"],
        ["mentioned", "zoe"],
        ["subscribed", "zoe"],
      ],
    );
  });
});
