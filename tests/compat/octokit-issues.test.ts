/**
 * A bot's main loop through the latest @octokit/rest (22.x), unmodified, against a live feedgate: it opens an issue,
 * labels and assigns it, renames and closes it, reopens it, locks and unlocks it, pages the repository's issues,
 * and reads the issue's events; the resulting feed events are checked in the same test, and every webhook the
 * actions made is verified with @octokit/webhooks (the signature GitHub's secret makes, the payload's shape).
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { Octokit } from "octokit-rest-latest";
import { Webhooks } from "@octokit/webhooks";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { ALICE_TOKEN, BOB_TOKEN } from "../helpers/client-world.js";
import { receiver } from "../helpers/webhook-receiver.js";
import { assertSchema } from "./schemas.js";

const SECRET = "bot-secret";

describe("@octokit/rest 22 acting on issues, its webhooks verified by @octokit/webhooks", () => {
  let t: ListeningApp;
  const hook = receiver();
  const octokit = () => new Octokit({ baseUrl: t.url, auth: ALICE_TOKEN });

  before(async () => {
    t = await startListeningApp();
    const url = await hook.listen();
    await octokit().repos.createWebhook({
      owner: "alice",
      repo: "hello",
      config: { url, content_type: "json", secret: SECRET },
      events: ["issues"],
    });
  });
  after(async () => {
    await t.close();
    await hook.close();
  });

  test("open, label, assign, rename, close, reopen, lock, unlock: each answered as GitHub answers", async () => {
    const client = octokit();
    const opened = await client.issues.create({
      owner: "alice",
      repo: "hello",
      title: "The bot's issue",
      body: "Found by a bot",
      labels: ["triage"],
      assignees: ["alice"],
    });
    assert.equal(opened.status, 201);
    assertSchema("issue", opened.data);
    const issue_number = opened.data.number;
    assert.deepEqual(
      opened.data.labels.map((l) => (typeof l === "string" ? l : l.name)),
      ["triage"],
    );
    assert.equal(opened.data.assignee?.login, "alice");

    const closed = await client.issues.update({
      owner: "alice",
      repo: "hello",
      issue_number,
      title: "The bot's issue, renamed",
      state: "closed",
      state_reason: "not_planned",
    });
    assert.deepEqual(
      [closed.data.state, closed.data.state_reason, closed.data.closed_by?.login],
      ["closed", "not_planned", "alice"],
    );
    const reopened = await client.issues.update({ owner: "alice", repo: "hello", issue_number, state: "open" });
    assert.deepEqual(
      [reopened.data.state, reopened.data.state_reason, reopened.data.closed_at],
      ["open", "reopened", null],
    );

    assert.equal(
      (await client.issues.lock({ owner: "alice", repo: "hello", issue_number, lock_reason: "resolved" })).status,
      204,
    );
    assert.equal((await client.issues.get({ owner: "alice", repo: "hello", issue_number })).data.locked, true);
    assert.equal((await client.issues.unlock({ owner: "alice", repo: "hello", issue_number })).status, 204);

    const events = await client.issues.listEvents({ owner: "alice", repo: "hello", issue_number });
    assert.deepEqual(
      events.data.map((e) => e.event),
      ["labeled", "assigned", "renamed", "closed", "reopened", "locked", "unlocked"],
    );
    const feed = await client.activity.listRepoEvents({ owner: "alice", repo: "hello", per_page: 3 });
    assert.deepEqual(
      feed.data.map((e) => [e.type, (e.payload as { action?: string }).action]),
      [
        ["IssuesEvent", "reopened"],
        ["IssuesEvent", "closed"],
        ["IssuesEvent", "opened"],
      ],
    );

    // Every webhook: GitHub's signature with the hook's secret, and the payload @octokit/webhooks types and routes.
    const webhooks = new Webhooks({ secret: SECRET });
    const seen: string[] = [];
    webhooks.on("issues", ({ payload }) => {
      seen.push(payload.action);
      assert.equal(payload.issue.number, issue_number);
      assert.equal(payload.repository.full_name, "alice/hello");
    });
    await hook.until(9); // the hook's ping, then the eight actions'
    for (const delivery of hook.received.filter((d) => d.headers["x-github-event"] === "issues")) {
      const signature = String(delivery.headers["x-hub-signature-256"]);
      assert.ok(await webhooks.verify(delivery.body, signature), "signed with the hook's secret");
      await webhooks.receive({
        id: String(delivery.headers["x-github-delivery"]),
        name: "issues",
        payload: JSON.parse(delivery.body),
      });
    }
    assert.deepEqual(seen, ["opened", "labeled", "assigned", "edited", "closed", "reopened", "locked", "unlocked"]);
  });

  test("paginate walks the repository's issues by Link; a bot without push access gets GitHub's 403 on lock", async () => {
    const client = octokit();
    for (const n of [1, 2, 3]) await client.issues.create({ owner: "alice", repo: "hello", title: `Page ${n}` });
    const titles: string[] = [];
    for await (const page of client.paginate.iterator(client.issues.listForRepo, {
      owner: "alice",
      repo: "hello",
      per_page: 2,
      direction: "asc",
    }))
      titles.push(...page.data.map((i) => i.title));
    assert.deepEqual(titles, ["The bot's issue, renamed", "Page 1", "Page 2", "Page 3"]);
    const bob = new Octokit({ baseUrl: t.url, auth: BOB_TOKEN });
    await assert.rejects(bob.issues.lock({ owner: "alice", repo: "hello", issue_number: 2 }), { status: 403 });
  });
});
