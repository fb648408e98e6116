/**
 * octokit.rb 4.20 (Debian's ruby-octokit), unmodified, acting on issues against a live feedgate: create with labels
 * given as its comma-separated string, close_issue, reopen_issue, update_issue, lock_issue and unlock_issue, the
 * issue's events, and list_issues auto-paginated (per_page 2) by its own Link handling. The cases are
 * tests/compat/scripts/octokit_rb_issue_cases.rb; the feed events the actions made are read back here.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { inRepository } from "../helpers/repository.js";
import { runCases, skipUnlessClient } from "./debian-clients.js";

const SCRIPT = inRepository("tests/compat/scripts/octokit_rb_issue_cases.rb");
const skip = skipUnlessClient("octokitRb");

describe("octokit.rb 4.20 acting on issues", { skip }, () => {
  let t: ListeningApp;
  let result: Awaited<ReturnType<typeof runCases>>;

  before(async () => {
    t = await startListeningApp();
    result = await runCases("ruby", SCRIPT, t);
  });
  after(() => t.close());

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

  test("list_issues auto-paginates; labels filter; the feed holds the IssuesEvents", async () => {
    assert.deepEqual(result("list"), { all: [1, 2, 3], labelled: [1] });
    const feed = (await (await fetch(`${t.url}/repos/alice/hello/events?per_page=4`)).json()) as {
      type: string;
      payload: { action: string };
    }[];
    assert.deepEqual(
      feed.map((e) => [e.type, e.payload.action]),
      [
        ["IssuesEvent", "opened"],
        ["IssuesEvent", "opened"],
        ["IssuesEvent", "reopened"],
        ["IssuesEvent", "closed"],
      ],
    );
  });
});
