/**
 * Review comments on a pull request's diff, over the app's real routes and store: placed on a line and side of the
 * diff from the merge base (GitHub's `position` and `diff_hunk`), replied to in their thread, listed, edited and
 * deleted, made with a review; PullRequestReviewCommentEvent and the `pull_request_review_comment` webhooks; the
 * comments GitHub cannot place refused with nothing written. Bodies against GitHub's published schemas.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { assertSchema, compileSchemas } from "../compat/schemas.js";
import { assertWebhook } from "../helpers/webhook-schemas.js";
import { issueScene, ZOE_TOKEN, type IssueScene, type Json } from "../helpers/issue-scene.js";

const REPO = "/repos/alice/hello";
const b64 = (text: string) => Buffer.from(text).toString("base64");

describe("review comments: placed in the diff, threaded, edited, deleted", () => {
  let s: IssueScene;
  let number = 0;
  const json = (res: { statusCode: number; body: string }, status: number): Json => {
    assert.equal(res.statusCode, status, res.body);
    return JSON.parse(res.body) as Json;
  };
  const call = async (
    method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
    path: string,
    body?: unknown,
    status = 200,
    token?: string,
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

  before(async () => {
    compileSchemas("pull-request-review-comment", "pull-request-review", "pull-request");
    s = await issueScene();
    await call("PUT", "/contents/app.txt", { message: "App", content: b64("one\ntwo\nthree\nfour\nfive\n") }, 201);
    const main = (await call("GET", "/git/ref/heads/main")).object.sha;
    await call("POST", "/git/refs", { ref: "refs/heads/topic", sha: main }, 201);
    const file = (await call("GET", "/contents/app.txt?ref=topic")).sha;
    const text = "one\nTWO\nthree\nfour\nfive\n";
    await call("PUT", "/contents/app.txt", { message: "Louder", content: b64(text), branch: "topic", sha: file });
    number = (await call("POST", "/pulls", { title: "Louder", head: "topic", base: "main" }, 201)).number;
  });
  after(async () => s.close());

  let first: Json;
  test("a comment on a new line: 201, position and diff hunk as GitHub's, event and webhook", async () => {
    const seen = s.deliveries();
    const res = await s.send("POST", `${REPO}/pulls/${number}/comments`, ZOE_TOKEN, {
      body: "Why so loud?",
      path: "app.txt",
      line: 2,
      side: "RIGHT",
    });
    first = json(res, 201);
    assertSchema("pull-request-review-comment", first);
    assert.deepEqual(
      [first.path, first.line, first.side, first.position, first.subject_type, first.user.login],
      ["app.txt", 2, "RIGHT", 3, "line", "zoe"],
    );
    assert.equal(first.diff_hunk, "@@ -1,5 +1,5 @@\n one\n-two\n+TWO");
    assert.equal(first.commit_id, (await call("GET", `/pulls/${number}`)).head.sha);
    assert.equal(res.headers.location, first.url);
    const [event] = (await call("GET", "/events?per_page=1")) as unknown as Json[];
    assert.deepEqual(
      [event!.type, event!.payload.action, event!.payload.comment.id],
      ["PullRequestReviewCommentEvent", "created", first.id],
    );
    const [created] = await deliveredAfter(seen, 1, (d) => d.event === "pull_request_review_comment");
    assertWebhook("pull_request_review_comment", "created", created!.body);
    assert.equal(created!.body.comment.id, first.id);
    assert.equal((await call("GET", `/pulls/${number}`)).review_comments, 1);
  });

  test("what cannot be placed is refused, nothing written", async () => {
    const before = await s.written();
    const comments = await call("GET", `/pulls/${number}/comments`);
    const refused = async (body: Json, field: string) => {
      const answer = json(await s.send("POST", `${REPO}/pulls/${number}/comments`, undefined, body), 422);
      assert.deepEqual(answer.errors, [
        { resource: "PullRequestReviewComment", code: "custom", field, message: "could not be resolved" },
      ]);
    };
    await refused({ body: "x", path: "app.txt", line: 40 }, "pull_request_review_thread.line");
    await refused({ body: "x", path: "README.md", line: 1 }, "pull_request_review_thread.path");
    assert.equal(await s.written(), before);
    assert.deepEqual(await call("GET", `/pulls/${number}/comments`), comments);
  });

  test("a reply joins the thread; listed, edited and deleted with their webhooks", async () => {
    const seen = s.deliveries();
    const reply = await call("POST", `/pulls/${number}/comments/${first.id}/replies`, { body: "It is a shout." }, 201);
    assert.deepEqual([reply.in_reply_to_id, reply.line, reply.path], [first.id, 2, "app.txt"]);
    const listed = (await call("GET", `/pulls/${number}/comments`)) as unknown as Json[];
    assert.deepEqual(
      listed.map((c) => c.id),
      [first.id, reply.id],
    );
    assert.deepEqual(
      (await call("GET", "/pulls/comments?direction=desc")).map((c: Json) => c.id),
      [reply.id, first.id],
    );
    const edited = await call("PATCH", `/pulls/comments/${reply.id}`, { body: "It is a SHOUT." });
    assert.equal(edited.body, "It is a SHOUT.");
    assert.equal(
      (
        await s.send("PATCH", `${REPO}/pulls/comments/${first.id}`, "b0b0000000000000000000000000000000000001", {
          body: "no",
        })
      ).statusCode,
      403,
    );
    assert.equal((await s.send("DELETE", `${REPO}/pulls/comments/${reply.id}`)).statusCode, 204);
    assert.equal((await s.send("GET", `${REPO}/pulls/comments/${reply.id}`)).statusCode, 404);
    const made = await deliveredAfter(seen, 3, (d) => d.event === "pull_request_review_comment");
    assert.deepEqual(
      made.map((d) => d.action),
      ["created", "edited", "deleted"],
    );
    assert.deepEqual(made[1]!.body.changes, { body: { from: "It is a shout." } });
    assertWebhook("pull_request_review_comment", "edited", made[1]!.body);
    assertWebhook("pull_request_review_comment", "deleted", made[2]!.body);
  });

  test("a review made with comments: each in the review, on its line", async () => {
    const review = json(
      await s.send("POST", `${REPO}/pulls/${number}/reviews`, ZOE_TOKEN, {
        event: "COMMENT",
        body: "Two notes",
        comments: [
          { path: "app.txt", line: 2, body: "Here" },
          { path: "app.txt", line: 2, side: "LEFT", body: "And the old line" },
        ],
      }),
      200,
    );
    const inReview = ((await call("GET", `/pulls/${number}/comments`)) as unknown as Json[]).filter(
      (c) => c.pull_request_review_id === review.id,
    );
    assert.deepEqual(
      inReview.map((c) => [c.body, c.side, c.position]),
      [
        ["Here", "RIGHT", 3],
        ["And the old line", "LEFT", 2],
      ],
    );
    const refused = json(
      await s.send("POST", `${REPO}/pulls/${number}/reviews`, ZOE_TOKEN, {
        event: "COMMENT",
        body: "Bad",
        comments: [{ path: "nowhere.txt", line: 1, body: "?" }],
      }),
      422,
    );
    assert.equal(refused.errors[0].field, "pull_request_review_thread.path");
    // Each single comment made a review of its own, as on GitHub: the two before, this one; the refused one is not.
    const reviews = (await call("GET", `/pulls/${number}/reviews`)) as unknown as Json[];
    assert.deepEqual(
      reviews.map((r) => [r.state, r.user.login]),
      [
        ["COMMENTED", "zoe"],
        ["COMMENTED", "alice"],
        ["COMMENTED", "zoe"],
      ],
    );
  });
});
