/**
 * Milestones as actions: created, edited, closed, reopened and deleted with their `milestone` webhooks (no Events API
 * event), numbered per repository and counting their issues; an issue's `milestone` set through create and update,
 * making `milestoned` / `demilestoned` issue events and `issues` webhooks; issue lists filtered by milestone. Writes
 * need push access; a refused write writes nothing. Answers are checked against GitHub's schemas.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { ALICE_TOKEN, BOB_TOKEN } from "../helpers/client-world.js";
import { assertSchema } from "../compat/schemas.js";
import { issueScene, ZOE_TOKEN, type IssueScene, type Json } from "../helpers/issue-scene.js";

describe("milestones", () => {
  let s: IssueScene;
  /** The deliveries after the first `from`, once there are `to` in all. */
  const since = async (from: number, to: number) => (await s.delivered(to)).slice(from);
  const numbers = async (query: string) =>
    ((await s.send("GET", `/repos/alice/hello/issues?${query}`, null)).json() as Json[]).map((i) => i.number);

  before(async () => {
    s = await issueScene();
  });
  after(() => s.close());

  test("creating a milestone answers 201 with GitHub's milestone, numbered per repository, and milestone.created", async () => {
    const res = await s.send("POST", "/repos/alice/hello/milestones", ALICE_TOKEN, {
      title: "v1.0",
      description: "The first",
      due_on: "2026-02-01T08:00:00.123Z",
    });
    assert.equal(res.statusCode, 201, res.body);
    const milestone = res.json() as Json;
    assertSchema("milestone", milestone);
    assert.deepEqual(
      [milestone.number, milestone.state, milestone.title, milestone.due_on, milestone.creator.login],
      [1, "open", "v1.0", "2026-02-01T08:00:00Z", "alice"],
    );
    assert.deepEqual([milestone.open_issues, milestone.closed_issues], [0, 0]);
    assert.equal(res.headers.location, "http://localhost:80/repos/alice/hello/milestones/1");
    const [created] = await since(0, 1);
    assert.deepEqual(
      [created!.event, created!.action, created!.body.milestone.title],
      ["milestone", "created", "v1.0"],
    );
    const feed = (await s.t.app.inject({ method: "GET", url: "/repos/alice/hello/events" })).json() as Json[];
    assert.equal(feed[0]!.type, "ForkEvent", "milestones make no Events API event");

    const second = await s.send("POST", "/repos/alice/hello/milestones", ZOE_TOKEN, { title: "v2.0" });
    assert.equal((second.json() as Json).number, 2);
    const elsewhere = await s.send("POST", "/repos/acme/site/milestones", ALICE_TOKEN, { title: "v1.0" });
    assert.equal(elsewhere.statusCode, 201, elsewhere.body);
    assert.equal((elsewhere.json() as Json).number, 1, "numbers are the repository's own");
    await s.delivered(2);
  });

  test("bad input is GitHub's 422, no push access 403, an unseen repository 404: nothing written", async () => {
    const before = await s.written();
    for (const [payload, field, code] of [
      [{ title: "v1.0" }, "title", "already_exists"],
      [{ title: "  " }, "title", "missing_field"],
      [{ title: "v3", state: "done" }, "state", "invalid"],
      [{ title: "v3", due_on: "soon" }, "due_on", "invalid"],
    ] as const) {
      const res = await s.send("POST", "/repos/alice/hello/milestones", ALICE_TOKEN, payload);
      assert.equal(res.statusCode, 422, `${JSON.stringify(payload)}: ${res.body}`);
      assert.deepEqual(
        (res.json() as Json).errors.map((e: Json) => [e.resource, e.field, e.code]),
        [["Milestone", field, code]],
      );
    }
    assert.equal(
      (await s.send("PATCH", "/repos/alice/hello/milestones/2", ALICE_TOKEN, { title: "v1.0" })).statusCode,
      422,
    );
    const refused = await s.send("POST", "/repos/alice/hello/milestones", BOB_TOKEN, { title: "bob's" });
    assert.equal(refused.statusCode, 403);
    assert.equal((refused.json() as Json).message, "Must have push access to repository");
    assert.equal((await s.send("DELETE", "/repos/alice/hello/milestones/1", BOB_TOKEN)).statusCode, 403);
    assert.equal((await s.send("POST", "/repos/alice/secret/milestones", BOB_TOKEN, { title: "x" })).statusCode, 404);
    assert.equal((await s.send("GET", "/repos/alice/hello/milestones/9", null)).statusCode, 404);
    // Past what an integer column holds: nothing has it (PostgreSQL failed the look-up, a 500).
    assert.equal((await s.send("GET", "/repos/alice/hello/milestones/99999999999", null)).statusCode, 404);
    assert.equal(
      (await s.send("PATCH", "/repos/alice/hello/milestones/9", ALICE_TOKEN, { title: "x" })).statusCode,
      404,
    );
    assert.equal(await s.written(), before);
  });

  test("an issue opened in a milestone shows it, counts in it, and makes milestoned", async () => {
    const res = await s.send("POST", "/repos/alice/hello/issues", ALICE_TOKEN, { title: "First", milestone: 1 });
    assert.equal(res.statusCode, 201, res.body);
    const issue = res.json() as Json;
    assertSchema("issue", issue);
    assert.deepEqual([issue.milestone.number, issue.milestone.title, issue.milestone.open_issues], [1, "v1.0", 1]);
    const delivered = await since(2, 4);
    assert.deepEqual(
      delivered.map((d) => [d.event, d.action]),
      [
        ["issues", "opened"],
        ["issues", "milestoned"],
      ],
    );
    assert.equal(delivered[1]!.body.milestone.number, 1);
    assert.equal(delivered[1]!.body.milestone.open_issues, 1);
    const events = (await s.send("GET", "/repos/alice/hello/issues/1/events", null)).json() as Json[];
    assert.deepEqual(
      events.map((e) => [e.event, e.milestone]),
      [["milestoned", { title: "v1.0" }]],
    );
    const read = (await s.send("GET", "/repos/alice/hello/milestones/1", null)).json() as Json;
    assert.deepEqual([read.open_issues, read.closed_issues], [1, 0]);
    // Someone without push access: the milestone is dropped, as GitHub drops labels and assignees.
    const bobs = (
      await s.send("POST", "/repos/alice/hello/issues", BOB_TOKEN, { title: "Bob's", milestone: 1 })
    ).json();
    assert.equal((bobs as Json).milestone, null);
    await s.delivered(5);
  });

  test("an unknown milestone is 422 invalid on milestone, for create and update, writing nothing", async () => {
    const before = await s.written();
    for (const [method, url, milestone] of [
      ["POST", "/repos/alice/hello/issues", 99],
      ["PATCH", "/repos/alice/hello/issues/1", "99"],
      ["POST", "/repos/alice/hello/issues", 99999999999],
    ] as const) {
      const res = await s.send(method, url, ALICE_TOKEN, { title: "t", milestone });
      assert.equal(res.statusCode, 422, res.body);
      assert.deepEqual(
        (res.json() as Json).errors.map((e: Json) => [e.resource, e.field, e.code]),
        [["Issue", "milestone", "invalid"]],
      );
    }
    assert.equal(await s.written(), before);
  });

  test("moving an issue to another milestone makes demilestoned then milestoned; null clears it", async () => {
    const moved = await s.send("PATCH", "/repos/alice/hello/issues/1", ALICE_TOKEN, { milestone: 2 });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.equal((moved.json() as Json).milestone.number, 2);
    const delivered = await since(5, 7);
    assert.deepEqual(
      delivered.map((d) => [d.action, d.body.milestone.number, d.body.milestone.open_issues]),
      [
        ["demilestoned", 1, 0],
        ["milestoned", 2, 1],
      ],
    );
    const same = await s.send("PATCH", "/repos/alice/hello/issues/1", ALICE_TOKEN, { milestone: "2" });
    assert.equal(same.statusCode, 200);
    assert.equal(s.deliveries(), 7, "the same milestone again changes nothing");
    const cleared = await s.send("PATCH", "/repos/alice/hello/issues/1", ALICE_TOKEN, { milestone: null });
    assert.equal((cleared.json() as Json).milestone, null);
    assert.deepEqual(
      (await since(7, 8)).map((d) => [d.action, d.body.milestone.number]),
      [["demilestoned", 2]],
    );
    const events = (await s.send("GET", "/repos/alice/hello/issues/1/events", null)).json() as Json[];
    assert.deepEqual(
      events.map((e) => [e.event, e.milestone.title]),
      [
        ["milestoned", "v1.0"],
        ["demilestoned", "v1.0"],
        ["milestoned", "v2.0"],
        ["demilestoned", "v2.0"],
      ],
    );
  });

  test("issue lists filter by milestone number, none and *", async () => {
    await s.send("PATCH", "/repos/alice/hello/issues/1", ALICE_TOKEN, { milestone: 1 });
    await s.send("POST", "/repos/alice/hello/issues", ALICE_TOKEN, { title: "Third", milestone: 2 });
    await s.delivered(11);
    assert.deepEqual(await numbers("milestone=1"), [1]);
    assert.deepEqual(await numbers("milestone=2"), [3]);
    assert.deepEqual(await numbers("milestone=none"), [2]);
    assert.deepEqual(await numbers("milestone=*"), [3, 1]);
    assert.deepEqual(await numbers("milestone=7"), [], "a number the repository lacks matches nothing");
    assert.deepEqual(await numbers("milestone=99999999999"), []);
  });

  test("milestones list by state, due date or completeness, and page with Link", async () => {
    await s.send("PATCH", "/repos/alice/hello/issues/3", ALICE_TOKEN, { state: "closed" });
    await s.delivered(12);
    const listed = await s.send("GET", "/repos/alice/hello/milestones", null);
    assert.equal(listed.statusCode, 200);
    const milestones = listed.json() as Json[];
    assertSchema("milestone", milestones);
    assert.deepEqual(
      milestones.map((m) => [m.number, m.open_issues, m.closed_issues]),
      [
        [1, 1, 0],
        [2, 0, 1],
      ],
      "by due date, those without one last",
    );
    const complete = (
      await s.send("GET", "/repos/alice/hello/milestones?sort=completeness&direction=desc", null)
    ).json();
    assert.deepEqual(
      (complete as Json[]).map((m) => m.number),
      [2, 1],
    );
    const paged = await s.send("GET", "/repos/alice/hello/milestones?per_page=1&page=2", null);
    assert.deepEqual(
      (paged.json() as Json[]).map((m) => m.number),
      [2],
    );
    assert.match(String(paged.headers.link), /page=1>; rel="prev"/);
    assert.equal((await s.send("GET", "/repos/alice/hello/milestones?state=shut", null)).statusCode, 422);
  });

  test("editing sends milestone.edited with changes, closing milestone.closed, reopening milestone.opened", async () => {
    const res = await s.send("PATCH", "/repos/alice/hello/milestones/2", ALICE_TOKEN, {
      title: "v2.0 final",
      due_on: "2026-03-01T00:00:00Z",
      state: "closed",
    });
    assert.equal(res.statusCode, 200, res.body);
    const closed = res.json() as Json;
    assertSchema("milestone", closed);
    assert.deepEqual([closed.state, closed.closed_at, closed.title], ["closed", "2026-01-15T10:00:00Z", "v2.0 final"]);
    const delivered = await since(12, 14);
    assert.deepEqual(
      delivered.map((d) => [d.event, d.action]),
      [
        ["milestone", "edited"],
        ["milestone", "closed"],
      ],
    );
    assert.deepEqual(delivered[0]!.body.changes, { title: { from: "v2.0" }, due_on: { from: "" } });
    assert.deepEqual((await s.send("GET", "/repos/alice/hello/milestones", null)).json().length, 1, "open ones only");
    const all = (await s.send("GET", "/repos/alice/hello/milestones?state=all", null)).json() as Json[];
    assert.equal(all.length, 2);

    const reopened = await s.send("POST", "/repos/alice/hello/milestones/2", ALICE_TOKEN, { state: "open" });
    assert.equal(reopened.statusCode, 200, reopened.body);
    assert.equal((reopened.json() as Json).closed_at, null);
    assert.deepEqual(
      (await since(14, 15)).map((d) => [d.event, d.action]),
      [["milestone", "opened"]],
    );
  });

  test("deleting a milestone answers 204, leaves its issues without one, and sends milestone.deleted", async () => {
    const res = await s.send("DELETE", "/repos/alice/hello/milestones/1", ALICE_TOKEN);
    assert.equal(res.statusCode, 204);
    const [deleted] = await since(15, 16);
    assert.deepEqual(
      [deleted!.event, deleted!.action, deleted!.body.milestone.title],
      ["milestone", "deleted", "v1.0"],
    );
    assert.equal((await s.send("GET", "/repos/alice/hello/milestones/1", null)).statusCode, 404);
    const issue = (await s.send("GET", "/repos/alice/hello/issues/1", null)).json() as Json;
    assert.equal(issue.milestone, null);
    assert.deepEqual(await numbers("milestone=none"), [2, 1]);
  });
});
