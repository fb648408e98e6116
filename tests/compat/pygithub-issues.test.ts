/**
 * PyGithub 1.55 (Debian's python3-github), unmodified, acting on issues against a live feedgate started with
 * `--numeric-ids`: create with labels and assignees, edit to close and reopen, lock and unlock, the issue's events
 * and the lists, paged by its own pagination (per_page 2). The cases are tests/compat/scripts/pygithub_issue_cases.py;
 * the feed events the actions made are read back here.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { inRepository } from "../helpers/repository.js";
import { runCases, skipUnlessClient } from "./debian-clients.js";

const SCRIPT = inRepository("tests/compat/scripts/pygithub_issue_cases.py");
const skip = skipUnlessClient("pygithub");

describe("PyGithub 1.55 acting on issues", { skip }, () => {
  let t: ListeningApp;
  let result: Awaited<ReturnType<typeof runCases>>;

  before(async () => {
    t = await startListeningApp({ numericIds: true });
    result = await runCases("/usr/bin/python3", SCRIPT, t);
  });
  after(() => t.close());

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

  test("lists by state, paged; the feed holds the IssuesEvents the actions made", async () => {
    assert.deepEqual(result("list"), { open: [1, 2, 3], closed: [] });
    const feed = (await (await fetch(`${t.url}/repos/alice/hello/events?per_page=5`)).json()) as {
      type: string;
      payload: { action: string; issue: { number: number } };
    }[];
    assert.deepEqual(
      feed.map((e) => [e.type, e.payload.action, e.payload.issue.number]),
      [
        ["IssuesEvent", "opened", 3],
        ["IssuesEvent", "opened", 2],
        ["IssuesEvent", "reopened", 1],
        ["IssuesEvent", "closed", 1],
        ["IssuesEvent", "opened", 1],
      ],
    );
  });
});
