/**
 * Issue comments and reactions as actions: a comment writes its state, raises its issue's `comments` and
 * `updated_at`, and makes IssueCommentEvent and the `issue_comment` webhooks in one transaction; reactions make no
 * event and no webhook but show in the roll-ups. A refused write writes nothing. Answers are checked against GitHub's
 * published schemas (../shared/data/openapi/issue-comment.schema.json, reaction.schema.json, issue.schema.json).
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { until } from "../helpers/wait.js";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { ALICE_PUBLIC_TOKEN, ALICE_TOKEN, BOB_TOKEN, WORLD } from "../helpers/client-world.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { assertSchema } from "../compat/schemas.js";
import { receiver } from "../helpers/webhook-receiver.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read as asserted
type Json = Record<string, any>;
type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** The API's objects with the webhooks' base URL (where the app listens) in place of the injected request's. */
const sameBase = (value: unknown) => JSON.stringify(value).replaceAll("http://localhost:80/", "http://localhost/");
/** A time as GitHub writes it, to the second. */
const iso = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, "Z");

describe("issue comments and reactions", () => {
  let t: TestApp;
  let carol: string;
  let hookId: number;
  const hook = receiver();
  const deliveries = () =>
    hook.received.map((r) => {
      const body = JSON.parse(r.body) as Json;
      return { event: r.headers["x-github-event"], action: body.action as string, body };
    });
  /** The deliveries that match, once there are `count` of them (deliveries arrive after the answer). */
  const delivered = async (count: number, match: (d: ReturnType<typeof deliveries>[number]) => boolean) => {
    for (let waited = 0; waited < 5000; waited += 10) {
      const found = deliveries().filter(match);
      if (found.length >= count) return found;
      await sleep(10);
    }
    assert.fail(`fewer than ${count} matching deliveries in ${JSON.stringify(deliveries().map((d) => d.action))}`);
  };
  const send = (method: Method, url: string, token: string | null = ALICE_TOKEN, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: token === null ? {} : { authorization: `token ${token}` },
      ...(payload ? { payload } : {}),
    });
  const json = async (method: Method, url: string, token: string | null = ALICE_TOKEN, payload?: object) => {
    const res = await send(method, url, token, payload);
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as Json;
  };
  const openIssue = (title: string) => json("POST", "/repos/alice/hello/issues", ALICE_TOKEN, { title });
  const comment = (number: number, body: string, token = ALICE_TOKEN) =>
    json("POST", `/repos/alice/hello/issues/${number}/comments`, token, { body });
  const feedHead = async () => (await json("GET", "/repos/alice/hello/events", null))[0] as Json;
  /** What a write can leave behind: comments, issues, reactions, events, and the deliveries once all arrived. */
  const written = async () => {
    // Once what earlier writes queued has been delivered (and recorded), so that it is not counted as this write's.
    await until(async () => (await t.store.hooks.queued(hookId)) === 0, "the queued deliveries", { every: 10 });
    const repo = (await t.store.directory.findRepo("alice", "hello"))!;
    const window = { limit: 100, offset: 0 };
    const [comments, issues, feed] = await Promise.all([
      t.store.comments.page({ repoId: repo.id, sort: "created", direction: "asc" }, window),
      t.store.issues.page({ repoId: repo.id, state: "all", sort: "created", direction: "asc" }, window),
      json("GET", "/repos/alice/hello/events?per_page=100", null),
    ]);
    const reactions = await Promise.all([
      t.store.reactions.countsOf(
        "issue",
        issues.rows.map((i) => i.id),
      ),
      t.store.reactions.countsOf(
        "comment",
        comments.rows.map((c) => c.id),
      ),
    ]);
    return JSON.stringify([comments, issues, reactions.map((m) => [...m]), feed.length, hook.received.length]);
  };

  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
    const repo = (await t.store.directory.findRepo("alice", "hello"))!;
    const url = await hook.listen();
    ({ id: hookId } = await t.store.hooks.create(
      {
        owner: { kind: "repo", repoId: repo.id },
        name: "web",
        active: true,
        events: ["*"],
        config: { url, contentType: "json", insecureSsl: "0", sealedSecret: null },
      },
      t.clock.now(),
    ));
    carol = (await t.createToken(await t.createUser("carol", "carol-password"), ["repo"])).token;
  });
  after(async () => {
    await t.close();
    await hook.close();
  });

  test("commenting answers 201 with GitHub's comment and makes IssueCommentEvent and issue_comment.created", async () => {
    const issue = await openIssue("Commented on");
    t.clock.advance("5m");
    const res = await send("POST", `/repos/alice/hello/issues/${issue.number}/comments`, BOB_TOKEN, { body: "Me too" });
    assert.equal(res.statusCode, 201, res.body);
    const made = res.json() as Json;
    assertSchema("issue-comment", made);
    assert.deepEqual(Object.keys(made), [
      "id",
      "node_id",
      "url",
      "html_url",
      "body",
      "user",
      "created_at",
      "updated_at",
      "issue_url",
      "author_association",
      "reactions",
      "performed_via_github_app",
    ]);
    assert.equal(res.headers.location, made.url);
    assert.equal(made.url, `http://localhost:80/repos/alice/hello/issues/comments/${made.id}`);
    assert.equal(made.html_url, `http://localhost/alice/hello/issues/${issue.number}#issuecomment-${made.id}`);
    assert.equal(made.issue_url, issue.url);
    assert.deepEqual([made.body, made.user.login, made.author_association], ["Me too", "bob", "NONE"]);
    assert.equal(made.created_at, "2026-01-15T10:05:00Z");
    assert.equal(made.reactions.total_count, 0);

    const after = await json("GET", `/repos/alice/hello/issues/${issue.number}`, null);
    assertSchema("issue", after);
    assert.equal(after.comments, 1);
    assert.equal(after.updated_at, "2026-01-15T10:05:00Z", "a comment is activity on its issue");

    const event = await feedHead();
    assert.deepEqual([event.type, event.actor.login, event.payload.action], ["IssueCommentEvent", "bob", "created"]);
    assert.equal(event.payload.comment.id, made.id);
    assert.equal(event.payload.issue.number, issue.number);
    assert.equal(event.payload.issue.comments, 1);
    assert.equal(event.payload.issue.author_association, undefined, "the Events API no longer sends it");
    assertSchema("event", event);

    const [webhook] = await delivered(1, (d) => d.event === "issue_comment" && d.body.comment.id === made.id);
    assert.equal(webhook!.action, "created");
    assert.equal(
      sameBase(webhook!.body.comment),
      sameBase(made),
      "the webhook carries the comment as the API answers it",
    );
    assert.equal(webhook!.body.issue.comments, 1);
    // Each object shows its own author's association: the issue is the owner's, the comment bob's, who has no role.
    assert.deepEqual([webhook!.body.issue.user.login, webhook!.body.issue.author_association], ["alice", "OWNER"]);
    assert.equal(webhook!.body.repository.full_name, "alice/hello");
    assert.equal(webhook!.body.sender.login, "bob");

    const issueEvents = await json("GET", `/repos/alice/hello/issues/${issue.number}/events`, null);
    assert.deepEqual(issueEvents, [], "`commented` is the timeline's, not a stored issue event");
  });

  test("a comment's event and webhook show its issue as the API does: labels, assignees, reactions, pull request", async () => {
    const labelled = await json("POST", "/repos/alice/hello/issues", ALICE_TOKEN, {
      title: "Labelled, assigned and reacted to",
      labels: ["needs-comment"],
      assignees: ["alice"],
    });
    await json("POST", `/repos/alice/hello/issues/${labelled.number}/reactions`, BOB_TOKEN, { content: "rocket" });
    // A pull request is an issue too: a branch ahead of main, and a pull request from it.
    const b64 = (text: string) => Buffer.from(text).toString("base64");
    const put = (path: string, branch?: string) =>
      json("PUT", `/repos/alice/hello/contents/${path}`, ALICE_TOKEN, {
        message: `Write ${path}`,
        content: b64(path),
        ...(branch ? { branch } : {}),
      });
    const main = (await put("comments-base.txt")).commit.sha as string;
    const branch = `comments-${labelled.number}`;
    await json("POST", "/repos/alice/hello/git/refs", ALICE_TOKEN, { ref: `refs/heads/${branch}`, sha: main });
    await put("comments-head.txt", branch);
    const base = (await json("GET", "/repos/alice/hello", null)).default_branch as string;
    const pull = await json("POST", "/repos/alice/hello/pulls", ALICE_TOKEN, {
      title: "Commented",
      head: branch,
      base,
    });

    for (const number of [labelled.number, pull.number] as number[]) {
      const made = await comment(number, `On #${number}`, BOB_TOKEN);
      const read = await json("GET", `/repos/alice/hello/issues/${number}`, null);
      const shown = (issue: Json) => sameBase([issue.labels, issue.assignees, issue.reactions, issue.pull_request]);
      const event = await feedHead();
      assert.equal(event.payload.comment.id, made.id);
      assert.equal(shown(event.payload.issue), shown(read), `the event's issue #${number}`);
      const [webhook] = await delivered(1, (d) => d.event === "issue_comment" && d.body.comment.id === made.id);
      assert.equal(shown(webhook!.body.issue), shown(read), `the webhook's issue #${number}`);
    }
    const read = await json("GET", `/repos/alice/hello/issues/${labelled.number}`, null);
    assert.deepEqual(
      [read.labels.map((l: Json) => l.name), read.assignees.map((u: Json) => u.login), read.reactions.rocket],
      [["needs-comment"], ["alice"], 1],
      "what the comparison compared is there",
    );
    assert.ok((await json("GET", `/repos/alice/hello/issues/${pull.number}`, null)).pull_request);
    // The pushes' and the pull request's deliveries in too, so that the tests after count only their own.
    await until(async () => (await t.store.hooks.queued(hookId)) === 0, "the queued deliveries", { every: 10 });
  });

  test("an issue's comments list oldest first, page with Link and filter by since; 404 for no such issue", async () => {
    const issue = await openIssue("Busy");
    const ids: number[] = [];
    for (const body of ["one", "two", "three"]) {
      t.clock.advance("1m");
      ids.push((await comment(issue.number, body)).id);
    }
    const url = `/repos/alice/hello/issues/${issue.number}/comments`;
    const first = await send("GET", `${url}?per_page=2`, null);
    assert.equal(first.statusCode, 200);
    const page = first.json() as Json[];
    assertSchema("issue-comment", page);
    assert.deepEqual(
      page.map((c) => c.id),
      ids.slice(0, 2),
    );
    assert.match(String(first.headers.link), /page=2>; rel="next"/);
    const since = (await json("GET", `${url}?since=${encodeURIComponent(page[1]!.created_at)}`, null)) as Json[];
    assert.deepEqual(
      since.map((c) => c.body),
      ["two", "three"],
    );
    assert.equal((await send("GET", "/repos/alice/hello/issues/999/comments", null)).statusCode, 404);
    assert.equal((await send("GET", `${url}?since=yesterday`, null)).statusCode, 422);
  });

  test("the repository's comments list by id, or sorted by updated in either direction", async () => {
    const all = (await json("GET", "/repos/alice/hello/issues/comments?per_page=100", null)) as Json[];
    assertSchema("issue-comment", all);
    const ids = all.map((c) => c.id);
    assert.ok(ids.length >= 4);
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
      "ascending id by default",
    );
    const newest = (await json("GET", "/repos/alice/hello/issues/comments?sort=updated&per_page=100", null)) as Json[];
    assert.deepEqual(
      newest.map((c) => c.id),
      [...ids].reverse(),
      "a sort without a direction is newest first",
    );
    const oldest = (await json(
      "GET",
      "/repos/alice/hello/issues/comments?sort=updated&direction=asc&per_page=100",
      null,
    )) as Json[];
    assert.deepEqual(
      oldest.map((c) => c.id),
      ids,
    );
    assert.equal((await send("GET", "/repos/alice/hello/issues/comments?sort=comments", null)).statusCode, 422);
    const one = await send("GET", `/repos/alice/hello/issues/comments/${ids[0]}`, null);
    assert.equal(one.statusCode, 200);
    assert.deepEqual(one.json(), all[0]);
  });

  test("its author edits a comment: 200, issue_comment.edited with changes.body.from, and no event", async () => {
    const issue = await openIssue("Edited on");
    const made = await comment(issue.number, "Frist", BOB_TOKEN);
    const head = await feedHead();
    t.clock.advance("1m");
    const res = await send("PATCH", `/repos/alice/hello/issues/comments/${made.id}`, BOB_TOKEN, { body: "First" });
    assert.equal(res.statusCode, 200, res.body);
    const edited = res.json() as Json;
    assertSchema("issue-comment", edited);
    assert.deepEqual(
      [edited.body, edited.created_at, edited.updated_at],
      ["First", made.created_at, iso(t.clock.now())],
    );
    const [webhook] = await delivered(1, (d) => d.action === "edited" && d.body.comment?.id === made.id);
    assert.equal(webhook!.event, "issue_comment");
    assert.deepEqual(webhook!.body.changes, { body: { from: "Frist" } });
    assert.equal(sameBase(webhook!.body.comment), sameBase(edited));
    assert.equal((await feedHead()).id, head.id, "GitHub makes no event for an edit");

    // GitHub's POST in place of PATCH, by someone with push access on another's comment.
    const byOwner = await send("POST", `/repos/alice/hello/issues/comments/${made.id}`, ALICE_TOKEN, { body: "1st" });
    assert.equal(byOwner.statusCode, 200, byOwner.body);
    assert.equal((byOwner.json() as Json).body, "1st");
  });

  test("someone else without push access may not edit nor delete a comment: 403, and nothing is written", async () => {
    const issue = await openIssue("Guarded");
    const made = await comment(issue.number, "Mine", BOB_TOKEN);
    await delivered(1, (d) => d.body.comment?.id === made.id);
    const before = await written();
    const url = `/repos/alice/hello/issues/comments/${made.id}`;
    const edit = await send("PATCH", url, carol, { body: "Yours now" });
    assert.equal(edit.statusCode, 403, edit.body);
    assert.equal((edit.json() as Json).message, "Must have push access to repository");
    assert.equal((await send("DELETE", url, carol)).statusCode, 403);
    assert.equal(await written(), before);
  });

  test("deleting answers 204, makes issue_comment.deleted and lowers the issue's comments", async () => {
    const issue = await openIssue("Deleted on");
    const made = await comment(issue.number, "Oops", BOB_TOKEN);
    await comment(issue.number, "Stays");
    const head = await feedHead();
    t.clock.advance("1m");
    const res = await send("DELETE", `/repos/alice/hello/issues/comments/${made.id}`, BOB_TOKEN);
    assert.equal(res.statusCode, 204, res.body);
    assert.equal(res.body, "");
    assert.equal((await send("GET", `/repos/alice/hello/issues/comments/${made.id}`, null)).statusCode, 404);
    const after = await json("GET", `/repos/alice/hello/issues/${issue.number}`, null);
    assert.equal(after.comments, 1);
    assert.equal(after.updated_at, iso(t.clock.now()));
    const [webhook] = await delivered(1, (d) => d.action === "deleted" && d.body.comment?.id === made.id);
    assert.equal(webhook!.event, "issue_comment");
    assert.equal(webhook!.body.comment.body, "Oops");
    assert.equal(webhook!.body.issue.comments, 1);
    assert.equal((await feedHead()).id, head.id, "GitHub makes no event for a deletion");
    assert.equal((await send("DELETE", `/repos/alice/hello/issues/comments/${made.id}`, BOB_TOKEN)).statusCode, 404);
  });

  test("a locked issue takes comments only from those with push access; the others get GitHub's 403", async () => {
    const issue = await openIssue("Heated");
    assert.equal(
      (await send("PUT", `/repos/alice/hello/issues/${issue.number}/lock`, ALICE_TOKEN, { lock_reason: "too heated" }))
        .statusCode,
      204,
    );
    await delivered(1, (d) => d.action === "locked" && d.body.issue.number === issue.number);
    const before = await written();
    const refused = await send("POST", `/repos/alice/hello/issues/${issue.number}/comments`, BOB_TOKEN, {
      body: "But",
    });
    assert.equal(refused.statusCode, 403, refused.body);
    assert.equal((refused.json() as Json).message, "Unable to create comment because issue is locked.");
    assert.equal(await written(), before);
    const owner = await send("POST", `/repos/alice/hello/issues/${issue.number}/comments`, ALICE_TOKEN, { body: "Ok" });
    assert.equal(owner.statusCode, 201, owner.body);
  });

  test("bad input is GitHub's 422 and writes nothing; unknown issues and comments are 404", async () => {
    const issue = await openIssue("Validated");
    const made = await comment(issue.number, "Valid");
    await delivered(1, (d) => d.body.comment?.id === made.id);
    const before = await written();
    for (const [method, url, payload] of [
      ["POST", `/repos/alice/hello/issues/${issue.number}/comments`, {}],
      ["POST", `/repos/alice/hello/issues/${issue.number}/comments`, { body: "  " }],
      ["PATCH", `/repos/alice/hello/issues/comments/${made.id}`, {}],
      ["POST", `/repos/alice/hello/issues/${issue.number}/reactions`, { content: "thumbsup" }],
      ["POST", `/repos/alice/hello/issues/comments/${made.id}/reactions`, {}],
    ] as const) {
      const res = await send(method, url, ALICE_TOKEN, payload);
      assert.equal(res.statusCode, 422, `${method} ${url} ${JSON.stringify(payload)}: ${res.body}`);
      const error = res.json() as Json;
      assert.equal(error.message, "Validation Failed");
      if ("body" in payload || url.endsWith("/comments") || method === "PATCH")
        assert.equal(error.errors[0].code, "missing_field", res.body);
    }
    for (const [method, url] of [
      ["POST", "/repos/alice/hello/issues/999/comments"],
      ["PATCH", "/repos/alice/hello/issues/comments/999999"],
      ["DELETE", "/repos/alice/hello/issues/comments/999999"],
      // A comment is found under its own repository only.
      ["PATCH", `/repos/bob/tools/issues/comments/${made.id}`],
      ["POST", "/repos/alice/hello/issues/999/reactions"],
    ] as const) {
      const res = await send(
        method,
        url,
        ALICE_TOKEN,
        method === "DELETE" ? undefined : { body: "x", content: "eyes" },
      );
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
    }
    assert.equal((await send("GET", `/repos/bob/tools/issues/comments/${made.id}`, null)).statusCode, 404);
    // A missing issue is 404 before its comment's body is looked at; so is a number no issue can have.
    for (const [url, payload] of [
      ["/repos/alice/hello/issues/999/comments", { body: "  " }],
      ["/repos/alice/hello/issues/99999999999/comments", { body: "x" }],
    ] as const)
      assert.equal((await send("POST", url, ALICE_TOKEN, payload)).statusCode, 404, url);
    assert.equal(await written(), before);
  });

  test("reactions: 201 when new, 200 with the same one when given again, counted in the issue's roll-up", async () => {
    const issue = await openIssue("Reacted to");
    const url = `/repos/alice/hello/issues/${issue.number}/reactions`;
    const heart = await send("POST", url, BOB_TOKEN, { content: "heart" });
    assert.equal(heart.statusCode, 201, heart.body);
    const reaction = heart.json() as Json;
    assertSchema("reaction", reaction);
    assert.deepEqual(Object.keys(reaction), ["id", "node_id", "user", "content", "created_at"]);
    assert.deepEqual([reaction.content, reaction.user.login], ["heart", "bob"]);
    const again = await send("POST", url, BOB_TOKEN, { content: "heart" });
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(again.json(), reaction);
    await json("POST", url, ALICE_TOKEN, { content: "+1" });
    await json("POST", url, ALICE_TOKEN, { content: "heart" });

    const read = await json("GET", `/repos/alice/hello/issues/${issue.number}`, null);
    assertSchema("issue", read);
    assert.deepEqual(
      { ...read.reactions, url: undefined },
      {
        url: undefined,
        total_count: 3,
        "+1": 1,
        "-1": 0,
        laugh: 0,
        confused: 0,
        heart: 2,
        hooray: 0,
        eyes: 0,
        rocket: 0,
      },
    );
    assert.equal(read.reactions.url, `http://localhost:80${url}`);
    const listed = (await json("GET", url, null)) as Json[];
    assertSchema("reaction", listed);
    assert.equal(listed.length, 3);
    const hearts = (await json("GET", `${url}?content=heart`, null)) as Json[];
    assert.deepEqual(
      hearts.map((r) => r.user.login),
      ["bob", "alice"],
    );
    const paged = await send("GET", `${url}?per_page=1`, null);
    assert.match(String(paged.headers.link), /page=2>; rel="next"/);
    assert.equal((await send("GET", `${url}?content=sad`, null)).statusCode, 422);
  });

  test("reactions on a comment show in its roll-up, in lists too; taken back by the one who reacted only", async () => {
    const issue = await openIssue("Comment reactions");
    const made = await comment(issue.number, "React to me");
    const url = `/repos/alice/hello/issues/comments/${made.id}/reactions`;
    const rocket = (await json("POST", url, BOB_TOKEN, { content: "rocket" })) as Json;
    await json("POST", url, ALICE_TOKEN, { content: "rocket" });
    await json("POST", url, ALICE_TOKEN, { content: "eyes" });
    const read = await json("GET", `/repos/alice/hello/issues/comments/${made.id}`, null);
    assertSchema("issue-comment", read);
    assert.deepEqual([read.reactions.total_count, read.reactions.rocket, read.reactions.eyes], [3, 2, 1]);
    assert.equal(read.reactions.url, `http://localhost:80${url}`);
    const inList = ((await json("GET", `/repos/alice/hello/issues/${issue.number}/comments`, null)) as Json[])[0]!;
    assert.deepEqual(inList.reactions, read.reactions);

    const before = await written();
    assert.equal((await send("DELETE", `${url}/${rocket.id}`, ALICE_TOKEN)).statusCode, 404, "not alice's");
    assert.equal(
      (await send("DELETE", `/repos/alice/hello/issues/${issue.number}/reactions/${rocket.id}`, BOB_TOKEN)).statusCode,
      404,
      "not on the issue",
    );
    assert.equal(await written(), before);
    const removed = await send("DELETE", `${url}/${rocket.id}`, BOB_TOKEN);
    assert.equal(removed.statusCode, 204, removed.body);
    const after = await json("GET", `/repos/alice/hello/issues/comments/${made.id}`, null);
    assert.deepEqual([after.reactions.total_count, after.reactions.rocket], [2, 1]);
  });

  test("reactions make no event and no webhook", async () => {
    const issue = await openIssue("Quiet");
    await delivered(1, (d) => d.event === "issues" && d.action === "opened" && d.body.issue.number === issue.number);
    const head = await feedHead();
    const count = hook.received.length;
    await json("POST", `/repos/alice/hello/issues/${issue.number}/reactions`, BOB_TOKEN, { content: "laugh" });
    const [reaction] = (await json("GET", `/repos/alice/hello/issues/${issue.number}/reactions`, null)) as Json[];
    assert.equal(
      (await send("DELETE", `/repos/alice/hello/issues/${issue.number}/reactions/${reaction!.id}`, BOB_TOKEN))
        .statusCode,
      204,
    );
    // A comment afterwards: its delivery is the next one, nothing came between.
    const made = await comment(issue.number, "After the reactions");
    await delivered(1, (d) => d.body.comment?.id === made.id);
    assert.equal(hook.received.length, count + 1);
    const feed = (await json("GET", "/repos/alice/hello/events", null)) as Json[];
    assert.deepEqual([feed[0]!.type, feed[1]!.id], ["IssueCommentEvent", head.id]);
  });

  test("who may: anonymous 401, a token without public_repo 404, a private repository not seen 404", async () => {
    const issue = await openIssue("Access");
    const commentsUrl = `/repos/alice/hello/issues/${issue.number}/comments`;
    assert.equal((await send("POST", commentsUrl, null, { body: "x" })).statusCode, 401);
    assert.equal((await send("POST", commentsUrl, ALICE_PUBLIC_TOKEN, { body: "x" })).statusCode, 404);
    assert.equal(
      (await send("POST", `/repos/alice/hello/issues/${issue.number}/reactions`, null, { content: "eyes" })).statusCode,
      401,
    );
    const secret = await json("POST", "/repos/alice/secret/issues", ALICE_TOKEN, { title: "Hidden" });
    const made = await json("POST", `/repos/alice/secret/issues/${secret.number}/comments`, ALICE_TOKEN, {
      body: "Hidden too",
    });
    for (const url of [
      `/repos/alice/secret/issues/${secret.number}/comments`,
      "/repos/alice/secret/issues/comments",
      `/repos/alice/secret/issues/comments/${made.id}`,
      `/repos/alice/secret/issues/comments/${made.id}/reactions`,
    ])
      assert.equal((await send("GET", url, BOB_TOKEN)).statusCode, 404, url);
    assert.equal(
      (await send("POST", `/repos/alice/secret/issues/${secret.number}/comments`, BOB_TOKEN, { body: "x" })).statusCode,
      404,
    );
  });
});
