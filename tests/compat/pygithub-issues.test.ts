/**
 * PyGithub 1.55 (Debian's python3-github), unmodified, acting on issues against a live feedgate started with
 * `--numeric-ids`: create with labels and assignees, edit to close and reopen, lock and unlock, the issue's events
 * and the lists, paged by its own pagination (per_page 2); then comment, assign and unassign, star and unstar, fork
 * (into acme, and bob's fork again) and search. The cases are tests/compat/scripts/pygithub_issue_cases.py; the feed events the actions made
 * are read back here, and the webhooks they made are verified with @octokit/webhooks.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { inRepository } from "../helpers/repository.js";
import { ALICE_TOKEN } from "../helpers/client-world.js";
import type { Receiver } from "../helpers/webhook-receiver.js";
import { runCases, skipUnlessClient } from "./debian-clients.js";
import { hookedWithSecret, named, verifiedDeliveries } from "./verified-webhooks.js";

const SCRIPT = inRepository("tests/compat/scripts/pygithub_issue_cases.py");
const skip = skipUnlessClient("pygithub");
const SECRET = "pygithub-secret";

describe("PyGithub 1.55 acting on issues", { skip }, () => {
  let t: ListeningApp;
  let result: Awaited<ReturnType<typeof runCases>>;
  let hook: Receiver;

  before(async () => {
    t = await startListeningApp({ numericIds: true });
    const events = ["issues", "issue_comment", "star", "watch", "fork"];
    hook = await hookedWithSecret(t, "alice/hello", ALICE_TOKEN, events, SECRET);
    result = await runCases("/usr/bin/python3", SCRIPT, t);
  });
  after(async () => {
    await t.close();
    await hook.close();
  });

  test("create_issue with labels and assignees", () => {
    assert.deepEqual(result("create"), {
      number: 1,
      state: "open",
      labels: ["bug"],
      assignees: ["alice"],
      user: "alice",
      created_at_type: "datetime",
    });
  });

  test("edit closes (closed_by) and reopens; lock and unlock", () => {
    assert.deepEqual(result("close-and-reopen"), {
      state: "closed",
      title: "From PyGithub, closed",
      closed_by: "alice",
      reopened: "open",
    });
    assert.deepEqual(result("lock"), { locked: true, unlocked: true });
  });

  test("the issue's events, integer ids as PyGithub reads them", () => {
    assert.deepEqual(
      (result("events") as unknown as { event: string }[]).map((e) => e.event),
      ["labeled", "assigned", "renamed", "closed", "reopened", "locked", "unlocked"],
    );
    for (const e of result("events") as unknown as { id_type: string; actor: string }[])
      assert.deepEqual([e.id_type, e.actor], ["int", "alice"]);
  });

  test("lists by state, paged", () => {
    assert.deepEqual(result("list"), { open: [1, 2, 3], closed: [] });
  });

  test("create_comment and get_comments; the issue counts its comments", () => {
    assert.deepEqual(result("comment"), {
      body: "Seen by PyGithub",
      user: "alice",
      id_type: "int",
      created_at_type: "datetime",
      issue_url: `${t.url}/repos/alice/hello/issues/1`,
      listed: ["Seen by PyGithub", "And again"],
      comments: 2,
    });
  });

  test("add_to_assignees, remove_from_assignees and edit(assignees=...), each an issue event", () => {
    assert.deepEqual(result("assign"), {
      added: ["alice"],
      removed: [],
      edited: ["alice"],
      events: ["assigned", "unassigned", "assigned"],
    });
  });

  test("add_to_starred, has_in_starred, get_stargazers, remove_from_starred", () => {
    assert.deepEqual(result("star"), {
      starred: true,
      stargazers: ["alice"],
      stargazers_count: 1,
      unstarred: true,
      after: [],
    });
  });

  test("create_fork into an organization reads back with fork, parent and source; bob's again answers his", () => {
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

  test("search_issues: totalCount and the items, iterated over pages of two", () => {
    assert.deepEqual(result("search"), {
      bugs: 1,
      bug_numbers: [1],
      open: 3,
      numbers: [1, 2, 3],
      repository: "alice/hello",
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
    assert.equal(feed[3]?.payload.comment?.body, "Seen by PyGithub");
  });

  test("the webhooks, verified by @octokit/webhooks and valid by GitHub's schemas, one per action in order", async () => {
    const deliveries = await verifiedDeliveries(hook, 19, SECRET);
    assert.deepEqual(deliveries.map(named), [
      "issues.opened",
      "issues.labeled",
      "issues.assigned",
      "issues.edited",
      "issues.closed",
      "issues.reopened",
      "issues.locked",
      "issues.unlocked",
      "issues.opened",
      "issues.opened",
      "issue_comment.created",
      "issue_comment.created",
      "issues.assigned",
      "issues.unassigned",
      "issues.assigned",
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
    assert.deepEqual([comment?.comment.body, comment?.issue.number], ["Seen by PyGithub", 1]);
    const fork = deliveries.at(-1)?.payload as { forkee: { full_name: string; fork: boolean } };
    assert.deepEqual([fork.forkee.full_name, fork.forkee.fork], ["acme/hello", true]);
  });
});
