/**
 * octokit.rb 4.20 (Debian's ruby-octokit), unmodified, acting on issues against a live feedgate: create with labels
 * given as its comma-separated string, close_issue, reopen_issue, update_issue, lock_issue and unlock_issue, the
 * issue's events, and list_issues auto-paginated (per_page 2) by its own Link handling; then add_comment,
 * add_assignees and remove_assignees, star and unstar, fork (into acme, and bob's fork again) and search_issues. The
 * cases are tests/compat/scripts/octokit_rb_issue_cases.rb; the feed events the actions made are read back here, and
 * the webhooks they made are verified with @octokit/webhooks.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { inRepository } from "../helpers/repository.js";
import { ALICE_TOKEN } from "../helpers/client-world.js";
import type { Receiver } from "../helpers/webhook-receiver.js";
import { runCases, skipUnlessClient } from "./debian-clients.js";
import { hookedWithSecret, named, verifiedDeliveries } from "./verified-webhooks.js";

const SCRIPT = inRepository("tests/compat/scripts/octokit_rb_issue_cases.rb");
const skip = skipUnlessClient("octokitRb");
const SECRET = "octokit-rb-secret";

describe("octokit.rb 4.20 acting on issues", { skip }, () => {
  let t: ListeningApp;
  let result: Awaited<ReturnType<typeof runCases>>;
  let hook: Receiver;

  before(async () => {
    t = await startListeningApp();
    const events = ["issues", "issue_comment", "star", "watch", "fork"];
    hook = await hookedWithSecret(t, "alice/hello", ALICE_TOKEN, events, SECRET);
    result = await runCases("ruby", SCRIPT, t);
  });
  after(async () => {
    await t.close();
    await hook.close();
  });

  test("create_issue with labels as a string", () => {
    assert.deepEqual(result("create"), {
      number: 1,
      state: "open",
      labels: ["bug", "help wanted"],
      user: "alice",
      created_at: "Time",
    });
  });

  test("close_issue, reopen_issue, update_issue, lock_issue and unlock_issue", () => {
    assert.deepEqual(result("close-and-reopen"), {
      closed: "closed",
      closed_by: "alice",
      reopened: "open",
      title: "From octokit.rb, renamed",
    });
    assert.deepEqual(result("lock"), { locked: true, reason: "off-topic", unlocked: true });
  });

  test("issue_events lists what the actions made, oldest first", () => {
    assert.deepEqual(result("events"), ["labeled", "labeled", "closed", "reopened", "renamed", "locked", "unlocked"]);
  });

  test("list_issues auto-paginates; labels filter", () => {
    assert.deepEqual(result("list"), { all: [1, 2, 3], labelled: [1] });
  });

  test("add_comment and issue_comments; the issue counts its comments", () => {
    assert.deepEqual(result("comment"), {
      body: "Seen by octokit.rb",
      user: "alice",
      created_at: "Time",
      listed: ["Seen by octokit.rb", "And again"],
      comments: 2,
    });
  });

  test("add_assignees and remove_assignees answer the issue; each is an issue event", () => {
    assert.deepEqual(result("assign"), { added: ["alice"], removed: [], events: ["assigned", "unassigned"] });
  });

  test("star, starred?, stargazers and unstar", () => {
    assert.deepEqual(result("star"), {
      star: true,
      starred: true,
      stargazers: ["alice"],
      stargazers_count: 1,
      unstar: true,
      unstarred: true,
      after: [],
    });
  });

  test("fork into an organization reads back with fork, parent and source; bob's again answers his", () => {
    assert.deepEqual(result("fork"), {
      made: "acme/hello",
      fork: true,
      parent: "alice/hello",
      source: "alice/hello",
      owner: "acme",
      again: ["bob/hello", true],
      forks: ["acme/hello", "bob/hello"],
      forks_count: 2,
    });
  });

  test("search_issues: total_count and the items, auto-paginated over pages of two", () => {
    assert.deepEqual(result("search"), {
      bugs: 1,
      bug_numbers: [1],
      open: 3,
      numbers: [1, 2, 3],
      repository_url: "/repos/alice/hello",
    });
  });

  test("the feed holds the events the actions made, newest first", async () => {
    const feed = (await (await fetch(`${t.url}/repos/alice/hello/events?per_page=9`)).json()) as {
      type: string;
      actor: { login: string };
      payload: {
        action?: string;
        issue?: { number: number };
        comment?: { body: string };
        forkee?: { full_name: string };
      };
    }[];
    assert.deepEqual(
      feed.map((e) => [e.type, e.actor.login, e.payload.action, e.payload.issue?.number]),
      [
        ["ForkEvent", "alice", undefined, undefined],
        ["WatchEvent", "alice", "started", undefined],
        ["IssueCommentEvent", "alice", "created", 1],
        ["IssueCommentEvent", "alice", "created", 1],
        ["IssuesEvent", "alice", "opened", 3],
        ["IssuesEvent", "alice", "opened", 2],
        ["IssuesEvent", "alice", "reopened", 1],
        ["IssuesEvent", "alice", "closed", 1],
        ["IssuesEvent", "alice", "opened", 1],
      ],
    );
    assert.equal(feed[0]?.payload.forkee?.full_name, "acme/hello");
    assert.equal(feed[3]?.payload.comment?.body, "Seen by octokit.rb");
  });

  test("the webhooks, verified by @octokit/webhooks and valid by GitHub's schemas, one per action in order", async () => {
    const deliveries = await verifiedDeliveries(hook, 18, SECRET);
    assert.deepEqual(deliveries.map(named), [
      "issues.opened",
      "issues.labeled",
      "issues.labeled",
      "issues.closed",
      "issues.reopened",
      "issues.edited",
      "issues.locked",
      "issues.unlocked",
      "issues.opened",
      "issues.opened",
      "issue_comment.created",
      "issue_comment.created",
      "issues.assigned",
      "issues.unassigned",
      "star.created",
      "watch.started",
      "star.deleted",
      "fork",
    ]);
    for (const { payload } of deliveries) {
      assert.equal(payload.sender?.login, "alice");
      assert.equal((payload as { repository?: { full_name: string } }).repository?.full_name, "alice/hello");
    }
    const [comment] = deliveries.filter((d) => d.name === "issue_comment").map((d) => d.payload);
    assert.deepEqual([comment?.comment.body, comment?.issue.number], ["Seen by octokit.rb", 1]);
    const fork = deliveries.at(-1)?.payload as { forkee: { full_name: string; fork: boolean } };
    assert.deepEqual([fork.forkee.full_name, fork.forkee.fork], ["acme/hello", true]);
  });
});
