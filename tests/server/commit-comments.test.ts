/**
 * Comments on a repository's commits, over the app's real routes and store: made on a commit or a file of it (by its
 * SHA-1 or a branch), listed for the commit and for the repository (paged with Link), read, edited and deleted by
 * their authors or those with push access, reacted to; CommitCommentEvent in the feeds and the `commit_comment` webhook
 * (its only action `created`); GitHub's refusals with nothing written. Bodies against GitHub's published schemas.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { assertSchema, compileSchemas } from "../compat/schemas.js";
import { assertWebhook } from "../helpers/webhook-schemas.js";
import { issueScene, ZOE_TOKEN, type IssueScene, type Json } from "../helpers/issue-scene.js";
import { BOB_TOKEN } from "../helpers/client-world.js";

const REPO = "/repos/alice/hello";
const b64 = (text: string) => Buffer.from(text).toString("base64");

describe("commit comments: made, listed, edited and deleted, with their event and webhook", () => {
  let s: IssueScene;
  let first = "";
  let second = "";
  const json = (res: { statusCode: number; body: string }, status: number): Json => {
    assert.equal(res.statusCode, status, res.body);
    return JSON.parse(res.body) as Json;
  };
  const call = async (
    method: "GET" | "POST" | "PATCH" | "DELETE" | "PUT",
    path: string,
    body?: unknown,
    status = 200,
    token?: string | null,
  ) => json(await s.send(method, `${REPO}${path}`, token, body), status);
  /** The deliveries after the first `seen` that match, once there are `count` of them. */
  const deliveredAfter = async (seen: number, count: number, match: (d: Json) => boolean) => {
    let found: Json[] = [];
    for (let tries = 0; found.length < count && tries < 100; tries++) {
      found = (await s.delivered(s.deliveries())).slice(seen).filter(match);
      if (found.length < count) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return found;
  };
  /** What a write can leave behind (the hook's deliveries aside: earlier webhooks may still be arriving). */
  const written = async () => JSON.stringify((JSON.parse(await s.written()) as unknown[]).slice(0, -1));
  /** What the comments of the repository are now, for a refused write to leave as they were. */
  const comments = async () => JSON.stringify(await call("GET", "/comments?per_page=100"));

  before(async () => {
    compileSchemas("commit-comment");
    s = await issueScene();
    first = (await call("PUT", "/contents/app.txt", { message: "App", content: b64("one\ntwo\n") }, 201)).commit.sha;
    const file = (await call("GET", "/contents/app.txt")).sha;
    const update = { message: "Louder", content: b64("one\nTWO\n"), sha: file };
    second = (await call("PUT", "/contents/app.txt", update)).commit.sha;
  });
  after(async () => s.close());

  let made: Json;
  test("a comment on a commit: 201 with its Location, GitHub's shape, CommitCommentEvent and the webhook", async () => {
    const seen = s.deliveries();
    const res = await s.send("POST", `${REPO}/commits/${first}/comments`, ZOE_TOKEN, { body: "Nice start" });
    made = json(res, 201);
    assertSchema("commit-comment", made);
    assert.equal(res.headers.location, made.url);
    assert.deepEqual(
      [made.body, made.commit_id, made.path, made.position, made.line, made.user.login, made.author_association],
      ["Nice start", first, null, null, null, "zoe", "COLLABORATOR"],
    );
    assert.match(made.url, new RegExp(`/repos/alice/hello/comments/${made.id}$`));
    assert.match(made.html_url, new RegExp(`/alice/hello/commit/${first}#commitcomment-${made.id}$`));
    assert.equal(made.reactions.total_count, 0);
    const [event] = (await call("GET", "/events?per_page=1")) as unknown as Json[];
    assert.equal(event!.type, "CommitCommentEvent");
    // GH Archive's payload: the comment alone, without `author_association` since 2025 (CL25), and no `action`.
    assert.deepEqual(Object.keys(event!.payload), ["comment"]);
    assert.equal(event!.payload.comment.id, made.id);
    assert.equal(event!.payload.comment.author_association, undefined);
    const [created] = await deliveredAfter(seen, 1, (d) => d.event === "commit_comment");
    assertWebhook("commit_comment", "created", created!.body);
    assert.deepEqual([created!.body.action, created!.body.comment.id], ["created", made.id]);
    assert.equal(created!.body.comment.author_association, "COLLABORATOR");
  });

  test("on a file at a position, by a branch's name; listed for the commit and for the repository, paged", async () => {
    const onFile = await call(
      "POST",
      "/commits/main/comments",
      { body: "Why shout?", path: "app.txt", position: 3, line: 2 },
      201,
    );
    assert.deepEqual([onFile.commit_id, onFile.path, onFile.position, onFile.line], [second, "app.txt", 3, 2]);
    assert.equal(onFile.author_association, "OWNER");
    const ofFirst = (await call("GET", `/commits/${first}/comments`)) as unknown as Json[];
    assert.deepEqual(
      ofFirst.map((c) => c.id),
      [made.id],
    );
    assertSchema("commit-comment", ofFirst);
    assert.deepEqual(
      ((await call("GET", "/commits/main/comments")) as unknown as Json[]).map((c) => c.id),
      [onFile.id],
    );
    const page = await s.send("GET", `${REPO}/comments?per_page=1`);
    assert.deepEqual(
      (json(page, 200) as unknown as Json[]).map((c) => c.id),
      [made.id],
    );
    assert.match(String(page.headers.link), /page=2>; rel="next"/);
    assert.deepEqual(
      ((await call("GET", "/comments?per_page=1&page=2")) as unknown as Json[]).map((c) => c.id),
      [onFile.id],
    );
    assert.equal((await call("GET", `/comments/${onFile.id}`, undefined, 200, null)).body, "Why shout?");
    // The commits API counts each commit's comments.
    assert.equal((await call("GET", `/commits/${first}`)).commit.comment_count, 1);
    const history = (await call("GET", "/commits")) as unknown as Json[];
    assert.deepEqual(
      history.map((c) => [c.sha, c.commit.comment_count]),
      [
        [second, 1],
        [first, 1],
      ],
    );
  });

  test("anyone who sees the repository comments; its author or push access edits and deletes, with no webhook", async () => {
    const bobs = await call("POST", `/commits/${second}/comments`, { body: "From a reader" }, 201, BOB_TOKEN);
    assert.equal(bobs.author_association, "NONE");
    // zoe (push access) edits bob's; bob edits his own; bob may not touch zoe's (403, nothing written).
    const byZoe = await call("PATCH", `/comments/${bobs.id}`, { body: "From a reader, edited" }, 200, ZOE_TOKEN);
    assert.equal(byZoe.body, "From a reader, edited");
    assert.ok(new Date(byZoe.updated_at) >= new Date(bobs.updated_at));
    const byBob = await call("POST", `/comments/${bobs.id}`, { body: "Mine again" }, 200, BOB_TOKEN);
    assert.equal(byBob.body, "Mine again");
    const before = await comments();
    const refused = json(await s.send("PATCH", `${REPO}/comments/${made.id}`, BOB_TOKEN, { body: "no" }), 403);
    assert.equal(refused.message, "Must have push access to repository");
    assert.equal((await s.send("DELETE", `${REPO}/comments/${made.id}`, BOB_TOKEN)).statusCode, 403);
    assert.equal(await comments(), before);
    assert.equal((await s.send("DELETE", `${REPO}/comments/${bobs.id}`, BOB_TOKEN)).statusCode, 204);
    assert.equal((await s.send("GET", `${REPO}/comments/${bobs.id}`)).statusCode, 404);
    // Editing and deleting make no webhook: GitHub's commit_comment has `created` alone. A comment after them does,
    // and is the next of the hook's commit_comment deliveries after the three comments made before.
    await call("POST", `/commits/${second}/comments`, { body: "After" }, 201);
    const all = await deliveredAfter(0, 4, (d) => d.event === "commit_comment");
    assert.deepEqual(
      all.map((d) => [d.action, d.body.comment.body]),
      [
        ["created", "Nice start"],
        ["created", "Why shout?"],
        ["created", "From a reader"],
        ["created", "After"],
      ],
    );
  });

  test("reactions on a comment: made (201, then 200 for the same), rolled up, listed, taken back by their giver", async () => {
    const path = `/comments/${made.id}/reactions`;
    const rocket = await call("POST", path, { content: "rocket" }, 201, BOB_TOKEN);
    assert.equal((await call("POST", path, { content: "rocket" }, 200, BOB_TOKEN)).id, rocket.id);
    await call("POST", path, { content: "+1" }, 201);
    const rollup = (await call("GET", `/comments/${made.id}`)).reactions;
    assert.deepEqual([rollup.total_count, rollup.rocket, rollup["+1"]], [2, 1, 1]);
    assert.match(rollup.url, new RegExp(`/repos/alice/hello/comments/${made.id}/reactions$`));
    const listed = (await call("GET", `${path}?content=rocket`)) as unknown as Json[];
    assert.deepEqual(
      listed.map((r) => [r.content, r.user.login]),
      [["rocket", "bob"]],
    );
    // An issue comment's reactions are another subject's, though ids are numbered alike.
    const issue = await call("POST", "/issues", { title: "Reactions apart" }, 201);
    const onIssue = await call("POST", `/issues/${issue.number}/comments`, { body: "Here" }, 201);
    assert.deepEqual((await call("GET", `/issues/comments/${onIssue.id}/reactions`)) as unknown as Json[], []);
    assert.equal((await s.send("DELETE", `${REPO}${path}/${rocket.id}`)).statusCode, 404, "not alice's to take");
    assert.equal((await s.send("DELETE", `${REPO}${path}/${rocket.id}`, BOB_TOKEN)).statusCode, 204);
    assert.equal((await call("GET", `/comments/${made.id}`)).reactions.total_count, 1);
    assert.equal(
      json(await s.send("POST", `${REPO}${path}`, undefined, { content: "smile" }), 422).errors[0].field,
      "content",
    );
    assert.equal((await s.send("GET", `${REPO}/comments/999999/reactions`)).statusCode, 404);
  });

  test("refused with GitHub's answers, nothing written", async () => {
    const before = await comments();
    const state = await written();
    const unknown = "0123456789abcdef0123456789abcdef01234567";
    assert.equal(
      (await s.send("POST", `${REPO}/commits/${unknown}/comments`, undefined, { body: "x" })).statusCode,
      404,
    );
    assert.equal((await s.send("GET", `${REPO}/commits/${unknown}/comments`)).statusCode, 404);
    const noRef = json(await s.send("POST", `${REPO}/commits/nothing/comments`, undefined, { body: "x" }), 422);
    assert.equal(noRef.message, "No commit found for SHA: nothing");
    const blank = json(await s.send("POST", `${REPO}/commits/${first}/comments`, undefined, { body: "  " }), 422);
    assert.deepEqual(
      [blank.message, blank.errors[0].resource, blank.errors[0].field, blank.errors[0].code],
      ["Validation Failed", "CommitComment", "body", "missing_field"],
    );
    const none = json(await s.send("POST", `${REPO}/commits/${first}/comments`, undefined, { path: "app.txt" }), 422);
    assert.equal(none.message, 'Invalid request.\n\n"body" wasn\'t supplied.');
    const badPosition = { body: "x", path: "app.txt", position: "third" };
    assert.equal((await s.send("POST", `${REPO}/commits/${first}/comments`, undefined, badPosition)).statusCode, 422);
    assert.equal((await s.send("POST", `${REPO}/commits/${first}/comments`, null, { body: "x" })).statusCode, 401);
    assert.equal((await s.send("PATCH", `${REPO}/comments/${made.id}`, undefined, { body: "" })).statusCode, 422);
    assert.equal((await s.send("GET", `${REPO}/comments/999999`)).statusCode, 404);
    assert.equal((await s.send("GET", "/repos/alice/secret/comments", null)).statusCode, 404);
    assert.equal(await comments(), before);
    assert.equal(await written(), state);
  });
});
