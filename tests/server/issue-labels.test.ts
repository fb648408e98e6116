/**
 * Labels and assignees as actions: a repository's labels (created, edited, deleted: `label` webhooks only), an
 * issue's labels (added, set, removed: `labeled` / `unlabeled` issue events and `issues` webhooks) and its
 * assignees. Writes need push access; a refused write writes nothing. Answers are checked against GitHub's schemas.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { ALICE_TOKEN, BOB_TOKEN, WORLD } from "../helpers/client-world.js";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { assertSchema } from "../compat/schemas.js";
import { issueScene, ZOE_TOKEN, type IssueScene, type Json } from "../helpers/issue-scene.js";

describe("labels and assignees", () => {
  let s: IssueScene;
  /** The deliveries after the first `from`, once there are `to` in all: [event, action]. */
  const newDeliveries = async (from: number, to: number) =>
    (await s.delivered(to)).slice(from).map((d) => [d.event, d.action]);
  const issueEvents = async (number: number) =>
    ((await s.t.app.inject({ method: "GET", url: `/repos/alice/hello/issues/${number}/events` })).json() as Json[]).map(
      (e) => [e.event, e.label?.name ?? e.assignee?.login],
    );

  before(async () => {
    s = await issueScene();
  });
  after(() => s.close());

  test("creating a label answers 201 with GitHub's label and sends label.created, and no event", async () => {
    const res = await s.send("POST", "/repos/alice/hello/labels", ALICE_TOKEN, {
      name: "bug",
      color: "D73A4A",
      description: "Something isn't working",
    });
    assert.equal(res.statusCode, 201, res.body);
    const label = res.json() as Json;
    assertSchema("label", label);
    assert.deepEqual(
      [label.name, label.color, label.description, label.default],
      ["bug", "d73a4a", "Something isn't working", false],
    );
    assert.equal(res.headers.location, "http://localhost:80/repos/alice/hello/labels/bug");
    const [created] = await s.delivered(1);
    assert.deepEqual([created!.event, created!.action], ["label", "created"]);
    assert.equal(created!.body.label.name, "bug");
    assert.equal(created!.body.repository.full_name, "alice/hello");
    assert.equal(created!.body.sender.login, "alice");
    const feed = (await s.t.app.inject({ method: "GET", url: "/repos/alice/hello/events" })).json() as Json[];
    assert.equal(feed[0]!.type, "ForkEvent", "labels make no Events API event");

    const grey = await s.send("POST", "/repos/alice/hello/labels", ZOE_TOKEN, { name: "needs triage" });
    assert.equal(grey.statusCode, 201, grey.body);
    assert.equal((grey.json() as Json).color, "ededed", "no colour: GitHub's grey");
    assert.equal(grey.headers.location, "http://localhost:80/repos/alice/hello/labels/needs%20triage");
  });

  test("labels are listed by name and paged, and read by name case-insensitively", async () => {
    const page = await s.send("GET", "/repos/alice/hello/labels?per_page=1", null);
    assert.equal(page.statusCode, 200);
    const labels = page.json() as Json[];
    assertSchema("label", labels);
    assert.deepEqual(
      labels.map((l) => l.name),
      ["bug"],
    );
    assert.match(String(page.headers.link), /page=2>; rel="last"/);
    const read = await s.send("GET", "/repos/alice/hello/labels/BUG", null);
    assert.equal(read.statusCode, 200);
    assert.equal((read.json() as Json).name, "bug");
    assert.equal((await s.send("GET", "/repos/alice/hello/labels/nothing", null)).statusCode, 404);
  });

  test("a duplicate name, a colour with # and a long description are 422, and write nothing", async () => {
    await s.delivered(2);
    const before = await s.written();
    for (const [payload, field, code] of [
      [{ name: "BUG" }, "name", "already_exists"],
      [{ name: "red", color: "#ff0000" }, "color", "invalid"],
      [{ name: "red", color: "f00" }, "color", "invalid"],
      [{ name: "   " }, "name", "missing_field"],
      [{ name: "long", description: "x".repeat(101) }, "description", "invalid"],
    ] as const) {
      const res = await s.send("POST", "/repos/alice/hello/labels", ALICE_TOKEN, payload);
      assert.equal(res.statusCode, 422, `${JSON.stringify(payload)}: ${res.body}`);
      const body = res.json() as Json;
      assert.equal(body.message, "Validation Failed");
      assert.deepEqual(
        body.errors.map((e: Json) => [e.resource, e.field, e.code]),
        [["Label", field, code]],
      );
    }
    const renamed = await s.send("PATCH", "/repos/alice/hello/labels/needs%20triage", ALICE_TOKEN, { new_name: "Bug" });
    assert.equal(renamed.statusCode, 422);
    assert.equal(await s.written(), before);
  });

  test("without push access 403, a private repository not seen 404, anonymous 401: nothing written", async () => {
    const before = await s.written();
    const refused = await s.send("POST", "/repos/alice/hello/labels", BOB_TOKEN, { name: "mine" });
    assert.equal(refused.statusCode, 403);
    assert.equal((refused.json() as Json).message, "Must have push access to repository");
    assert.equal(
      (await s.send("PATCH", "/repos/alice/hello/labels/bug", BOB_TOKEN, { color: "000000" })).statusCode,
      403,
    );
    assert.equal((await s.send("DELETE", "/repos/alice/hello/labels/bug", BOB_TOKEN)).statusCode, 403);
    assert.equal((await s.send("POST", "/repos/alice/secret/labels", BOB_TOKEN, { name: "x" })).statusCode, 404);
    assert.equal((await s.send("GET", "/repos/alice/secret/labels", BOB_TOKEN)).statusCode, 404);
    assert.equal((await s.send("POST", "/repos/alice/hello/labels", null, { name: "x" })).statusCode, 401);
    assert.equal(
      (await s.send("PATCH", "/repos/alice/hello/labels/nothing", ALICE_TOKEN, { color: "000000" })).statusCode,
      404,
    );
    assert.equal(await s.written(), before);
  });

  test("editing sends label.edited with what changed only; POST edits as PATCH does", async () => {
    const res = await s.send("PATCH", "/repos/alice/hello/labels/bug", ALICE_TOKEN, {
      new_name: "defect",
      color: "b01f26",
      description: "Something isn't working",
    });
    assert.equal(res.statusCode, 200, res.body);
    assertSchema("label", res.json());
    assert.deepEqual([(res.json() as Json).name, (res.json() as Json).color], ["defect", "b01f26"]);
    const edited = (await s.delivered(3))[2]!;
    assert.deepEqual([edited.event, edited.action], ["label", "edited"]);
    assert.deepEqual(edited.body.changes, { name: { from: "bug" }, color: { from: "d73a4a" } });
    assert.equal(edited.body.label.name, "defect");

    const posted = await s.send("POST", "/repos/alice/hello/labels/defect", ALICE_TOKEN, { description: null });
    assert.equal(posted.statusCode, 200, posted.body);
    assert.equal((posted.json() as Json).description, null);
    assert.deepEqual((await s.delivered(4))[3]!.body.changes, { description: { from: "Something isn't working" } });
    const same = await s.send("PATCH", "/repos/alice/hello/labels/defect", ALICE_TOKEN, { color: "b01f26" });
    assert.equal(same.statusCode, 200);
    assert.equal(s.deliveries(), 4, "nothing changed: no webhook");
  });

  test("adding labels to an issue makes labeled events and webhooks, creating unknown ones grey", async () => {
    const opened = await s.send("POST", "/repos/alice/hello/issues", ALICE_TOKEN, { title: "Broken" });
    assert.equal(opened.statusCode, 201);
    await s.delivered(5);
    const res = await s.send("POST", "/repos/alice/hello/issues/1/labels", ALICE_TOKEN, {
      labels: ["DEFECT", "urgent"],
    });
    assert.equal(res.statusCode, 200, res.body);
    const labels = res.json() as Json[];
    assertSchema("label", labels);
    assert.deepEqual(
      labels.map((l) => [l.name, l.color]),
      [
        ["defect", "b01f26"],
        ["urgent", "ededed"],
      ],
    );
    assert.deepEqual(await newDeliveries(5, 7), [
      ["issues", "labeled"],
      ["issues", "labeled"],
    ]);
    const webhook = (await s.delivered(7))[6]!.body;
    assert.equal(webhook.label.name, "urgent");
    assert.deepEqual(
      webhook.issue.labels.map((l: Json) => l.name),
      ["defect", "urgent"],
    );
    assert.deepEqual(await issueEvents(1), [
      ["labeled", "defect"],
      ["labeled", "urgent"],
    ]);
    const events = (await s.send("GET", "/repos/alice/hello/issues/1/events", null)).json() as Json[];
    assert.deepEqual(events[0]!.label, { name: "defect", color: "b01f26" });
    assertSchema("issue-event", { ...events[0], issue: opened.json() });

    // A bare array, as GitHub also takes; labels the issue has already make nothing.
    const bare = await s.send("POST", "/repos/alice/hello/issues/1/labels", ZOE_TOKEN, ["urgent", { name: "ui" }]);
    assert.equal(bare.statusCode, 200, bare.body);
    assert.deepEqual(
      (bare.json() as Json[]).map((l) => l.name),
      ["defect", "ui", "urgent"],
    );
    assert.deepEqual(await newDeliveries(7, 8), [["issues", "labeled"]]);
    const listed = await s.send("GET", "/repos/alice/hello/issues/1/labels?per_page=2", null);
    assert.deepEqual(
      (listed.json() as Json[]).map((l) => l.name),
      ["defect", "ui"],
    );
    assert.match(String(listed.headers.link), /page=2>; rel="next"/);
  });

  test("setting replaces the labels; removing one answers the rest; 404 for one the issue lacks", async () => {
    const set = await s.send("PUT", "/repos/alice/hello/issues/1/labels", ALICE_TOKEN, { labels: ["ui", "docs"] });
    assert.equal(set.statusCode, 200, set.body);
    assert.deepEqual(
      (set.json() as Json[]).map((l) => l.name),
      ["docs", "ui"],
    );
    assert.deepEqual(await newDeliveries(8, 11), [
      ["issues", "labeled"],
      ["issues", "unlabeled"],
      ["issues", "unlabeled"],
    ]);
    const removed = await s.send("DELETE", "/repos/alice/hello/issues/1/labels/UI", ALICE_TOKEN);
    assert.equal(removed.statusCode, 200, removed.body);
    assert.deepEqual(
      (removed.json() as Json[]).map((l) => l.name),
      ["docs"],
    );
    assert.deepEqual(await newDeliveries(11, 12), [["issues", "unlabeled"]]);

    const before = await s.written();
    const missing = await s.send("DELETE", "/repos/alice/hello/issues/1/labels/defect", ALICE_TOKEN);
    assert.equal(missing.statusCode, 404);
    assert.equal((missing.json() as Json).message, "Label does not exist");
    assert.equal((await s.send("POST", "/repos/alice/hello/issues/1/labels", BOB_TOKEN, ["x"])).statusCode, 403);
    assert.equal((await s.send("POST", "/repos/alice/hello/issues/1/labels", ALICE_TOKEN, [])).statusCode, 422);
    assert.equal((await s.send("POST", "/repos/alice/hello/issues/9/labels", ALICE_TOKEN, ["x"])).statusCode, 404);
    assert.equal((await s.send("GET", "/repos/alice/hello/issues/99999999999/labels", null)).statusCode, 404);
    assert.equal(await s.written(), before);

    const cleared = await s.send("DELETE", "/repos/alice/hello/issues/1/labels", ALICE_TOKEN);
    assert.equal(cleared.statusCode, 204);
    assert.deepEqual(await newDeliveries(12, 13), [["issues", "unlabeled"]]);
    assert.deepEqual((await s.send("GET", "/repos/alice/hello/issues/1/labels", null)).json(), []);
  });

  test("deleting a label takes it off its issues and sends label.deleted", async () => {
    await s.send("PUT", "/repos/alice/hello/issues/1/labels", ALICE_TOKEN, ["defect", "docs"]);
    await s.delivered(15);
    const res = await s.send("DELETE", "/repos/alice/hello/labels/Defect", ALICE_TOKEN);
    assert.equal(res.statusCode, 204);
    const deleted = (await s.delivered(16))[15]!;
    assert.deepEqual([deleted.event, deleted.action, deleted.body.label.name], ["label", "deleted", "defect"]);
    assert.equal((await s.send("GET", "/repos/alice/hello/labels/defect", null)).statusCode, 404);
    const issue = (await s.send("GET", "/repos/alice/hello/issues/1", null)).json() as Json;
    assert.deepEqual(
      issue.labels.map((l: Json) => l.name),
      ["docs"],
    );
  });

  test("assignees are the owner and collaborators; checking one answers 204 or 404", async () => {
    const res = await s.send("GET", "/repos/alice/hello/assignees", null);
    assert.equal(res.statusCode, 200);
    const users = res.json() as Json[];
    assertSchema("simple-user", users);
    assert.deepEqual(
      users.map((u) => u.login),
      ["alice", "zoe"],
    );
    const org = (await s.send("GET", "/repos/acme/site/assignees", null)).json() as Json[];
    assert.deepEqual(
      org.map((u) => u.login),
      ["alice", "olga"],
      "an organization's owners and members, never the organization",
    );
    assert.equal((await s.send("GET", "/repos/alice/hello/assignees/ZOE", null)).statusCode, 204);
    assert.equal((await s.send("GET", "/repos/alice/hello/assignees/bob", null)).statusCode, 404);
    assert.equal((await s.send("GET", "/repos/alice/hello/assignees/nobody-at-all", null)).statusCode, 404);
    assert.equal((await s.send("GET", "/repos/alice/secret/assignees", BOB_TOKEN)).statusCode, 404);
  });

  test("adding assignees answers 201 with the issue, drops who cannot be assigned, and makes assigned", async () => {
    const from = s.deliveries();
    const res = await s.send("POST", "/repos/alice/hello/issues/1/assignees", ALICE_TOKEN, {
      assignees: ["zoe", "bob"],
    });
    assert.equal(res.statusCode, 201, res.body);
    const issue = res.json() as Json;
    assertSchema("issue", issue);
    assert.deepEqual(
      issue.assignees.map((u: Json) => u.login),
      ["zoe"],
    );
    assert.equal(issue.assignee.login, "zoe");
    const [webhook] = (await s.delivered(from + 1)).slice(from);
    assert.deepEqual([webhook!.event, webhook!.action, webhook!.body.assignee.login], ["issues", "assigned", "zoe"]);
    const events = (await s.send("GET", "/repos/alice/hello/issues/1/events", null)).json() as Json[];
    const assigned = events.at(-1)!;
    assert.deepEqual([assigned.event, assigned.assignee.login, assigned.assigner.login], ["assigned", "zoe", "alice"]);

    // Someone without push access: GitHub ignores the assignees silently and answers the issue.
    const before = await s.written();
    const ignored = await s.send("POST", "/repos/alice/hello/issues/1/assignees", BOB_TOKEN, { assignees: ["bob"] });
    assert.equal(ignored.statusCode, 201);
    assert.deepEqual(
      (ignored.json() as Json).assignees.map((u: Json) => u.login),
      ["zoe"],
    );
    assert.equal((await s.send("DELETE", "/repos/alice/hello/issues/1/assignees", ALICE_TOKEN, {})).statusCode, 422);
    assert.equal(await s.written(), before);
  });

  test("removing assignees answers 200 with the issue and makes unassigned", async () => {
    const from = s.deliveries();
    const res = await s.send("DELETE", "/repos/alice/hello/issues/1/assignees", ALICE_TOKEN, {
      assignees: ["ZOE", "alice"],
    });
    assert.equal(res.statusCode, 200, res.body);
    assertSchema("issue", res.json());
    assert.deepEqual((res.json() as Json).assignees, []);
    const [webhook] = (await s.delivered(from + 1)).slice(from);
    assert.deepEqual([webhook!.action, webhook!.body.assignee.login], ["unassigned", "zoe"]);
  });

  test("a label on an assigned, reacted-to issue shows it in its webhook as GET does, and so does assigning", async () => {
    const from = s.deliveries();
    const opened = await s.send("POST", "/repos/alice/hello/issues", ALICE_TOKEN, {
      title: "Has it all",
      assignees: ["alice"],
    });
    assert.equal(opened.statusCode, 201, opened.body);
    const url = `/repos/alice/hello/issues/${(opened.json() as Json).number}`;
    assert.equal((await s.send("POST", `${url}/reactions`, ALICE_TOKEN, { content: "heart" })).statusCode, 201);
    assert.equal((await s.send("POST", `${url}/labels`, ALICE_TOKEN, { labels: ["ui"] })).statusCode, 200);
    const webhook = (await s.delivered(from + 3)).slice(from).find((d) => d.action === "labeled")!;
    const shown = (await s.send("GET", url, null)).json() as Json;
    const seen = (issue: Json) => [
      issue.labels.map((l: Json) => l.name),
      issue.assignees.map((u: Json) => u.login),
      issue.reactions.heart,
      issue.reactions.total_count,
      issue.pull_request,
    ];
    assert.deepEqual(seen(webhook.body.issue), seen(shown));
    assert.deepEqual(seen(shown), [["ui"], ["alice"], 1, 1, undefined]);
    // Assigning answers the issue as GET does too: what its events showed.
    const reassigned = await s.send("POST", `${url}/assignees`, ALICE_TOKEN, { assignees: ["zoe"] });
    assert.equal(reassigned.statusCode, 201, reassigned.body);
    assert.deepEqual(seen(reassigned.json() as Json), seen((await s.send("GET", url, null)).json() as Json));
    assert.deepEqual(seen(reassigned.json() as Json), [["ui"], ["alice", "zoe"], 1, 1, undefined]);
    await s.delivered(from + 4); // zoe's `assigned` too, before the next test counts
  });

  test("the new name may come as `name`, as Octokit 16's updateLabel sends it (GitHub's older form)", async () => {
    const from = s.deliveries();
    const res = await s.send("PATCH", "/repos/alice/hello/labels/needs%20triage", ALICE_TOKEN, { name: "triage" });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((res.json() as Json).name, "triage");
    const [edited] = (await s.delivered(from + 1)).slice(from);
    assert.deepEqual(edited!.body.changes, { name: { from: "needs triage" } });
  });
});

describe("the ten assignees an issue keeps", () => {
  let t: TestApp;
  const crew = Array.from({ length: 12 }, (_, i) => `crew${String(i + 1).padStart(2, "0")}`);
  const send = (method: "POST" | "PATCH", url: string, payload: object) =>
    t.app.inject({ method, url, headers: { authorization: `token ${ALICE_TOKEN}` }, payload });
  const logins = (res: { json(): unknown }) => ((res.json() as Json).assignees as Json[]).map((u) => u.login);
  const assignedEvents = async (number: number) =>
    ((await t.app.inject({ method: "GET", url: `/repos/alice/crewed/issues/${number}/events` })).json() as Json[])
      .filter((e) => e.event === "assigned")
      .map((e) => e.assignee.login);

  before(async () => {
    t = await startTestApp();
    const world = {
      ...WORLD,
      users: [...WORLD.users, ...crew.map((login) => ({ login }))],
      repos: [...WORLD.repos, { full_name: "alice/crewed", collaborators: crew }],
    };
    await new IngestService(t.store, t.clock.now).seedWorld(world, { baseDir: undefined });
  });
  after(() => t.close());

  test("creating with twelve keeps the first ten, silently, and makes ten assigned events", async () => {
    const res = await send("POST", "/repos/alice/crewed/issues", { title: "Everyone", assignees: crew });
    assert.equal(res.statusCode, 201, res.body);
    assertSchema("issue", res.json());
    assert.deepEqual(logins(res), crew.slice(0, 10));
    assert.deepEqual(await assignedEvents(1), crew.slice(0, 10));
  });

  test("adding past ten adds what fits and drops the rest; an issue with ten adds none", async () => {
    const opened = await send("POST", "/repos/alice/crewed/issues", { title: "Some", assignees: crew.slice(0, 8) });
    const added = await send("POST", "/repos/alice/crewed/issues/2/assignees", { assignees: crew.slice(8) });
    assert.equal(added.statusCode, 201, added.body);
    assert.equal(opened.statusCode, 201, opened.body);
    assert.deepEqual(logins(added), crew.slice(0, 10));
    const full = await send("POST", "/repos/alice/crewed/issues/1/assignees", { assignees: ["crew12", "alice"] });
    assert.equal(full.statusCode, 201, full.body);
    assert.deepEqual(logins(full), crew.slice(0, 10));
    assert.deepEqual(await assignedEvents(1), crew.slice(0, 10), "no event for those dropped");
  });

  test("an update naming twelve keeps the first ten of them", async () => {
    const res = await send("PATCH", "/repos/alice/crewed/issues/1", { assignees: ["alice", ...crew.slice(1)] });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(logins(res), ["alice", ...crew.slice(1, 10)]);
  });
});
