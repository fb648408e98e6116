/**
 * A world file's `issues`: seeded as the repository's state (numbers, authors, states, labels, assignees, times),
 * served by the issue routes, making no event; seeding again changes nothing; a bad entry refuses the whole world.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { InvalidInputError } from "../../src/server/failures.js";

const WORLD = {
  users: [{ login: "octocat" }, { login: "hubot" }],
  repos: [{ full_name: "octocat/hello", collaborators: ["hubot"] }],
  issues: [
    {
      repo: "octocat/hello",
      number: 7,
      user: "hubot",
      title: "Crash on start",
      body: "Steps: start it",
      labels: ["bug", "p1"],
      assignees: ["octocat"],
      created_at: "2026-01-01T10:00:00Z",
    },
    {
      repo: "octocat/hello",
      number: 3,
      user: "octocat",
      title: "Old question",
      state: "closed",
      created_at: "2025-12-01T10:00:00Z",
      closed_at: "2025-12-02T10:00:00Z",
    },
  ],
};

describe("world files: issues", () => {
  let t: TestApp;
  let ingest: IngestService;
  before(async () => {
    t = await startTestApp();
    ingest = new IngestService(t.store, t.clock.now);
  });
  after(() => t.close());

  test("seeds issues with their numbers, states, labels, assignees and times, and no event", async () => {
    const seeded = await ingest.seedWorld(WORLD, { baseDir: undefined });
    assert.equal(seeded.contents.issues, 2);
    const res = await t.app.inject({ method: "GET", url: "/repos/octocat/hello/issues?state=all&sort=created" });
    assert.equal(res.statusCode, 200);
    // biome-ignore lint/suspicious/noExplicitAny: JSON read as asserted
    const issues = res.json() as Record<string, any>[];
    assert.deepEqual(
      issues.map((i) => [
        i.number,
        i.state,
        i.user.login,
        i.labels.map((l: { name: string }) => l.name),
        i.assignee?.login ?? null,
      ]),
      [
        [7, "open", "hubot", ["bug", "p1"], "octocat"],
        [3, "closed", "octocat", [], null],
      ],
    );
    assert.deepEqual([issues[1]!.created_at, issues[1]!.closed_at], ["2025-12-01T10:00:00Z", "2025-12-02T10:00:00Z"]);
    assert.equal(issues[0]!.author_association, "COLLABORATOR");
    assert.deepEqual((await t.app.inject({ method: "GET", url: "/repos/octocat/hello/events" })).json(), []);
  });

  test("seeding again changes nothing; the next issue opened takes the number after the highest", async () => {
    await ingest.seedWorld(WORLD, { baseDir: undefined });
    const all = (
      await t.app.inject({ method: "GET", url: "/repos/octocat/hello/issues?state=all" })
    ).json() as unknown[];
    assert.equal(all.length, 2);
    const token = (await t.createToken((await t.store.users.findByLogin("octocat"))!, ["repo"])).token;
    const opened = await t.app.inject({
      method: "POST",
      url: "/repos/octocat/hello/issues",
      headers: { authorization: `token ${token}` },
      payload: { title: "New" },
    });
    assert.equal((opened.json() as { number: number }).number, 8);
  });

  test("a bad issue entry refuses the whole world, naming the entry, and writes nothing", async () => {
    for (const [issue, field] of [
      [{ repo: "octocat/nowhere", number: 1, user: "octocat", title: "x" }, "issues[0].repo"],
      [{ repo: "octocat/hello", number: 0, user: "octocat", title: "x" }, "issues[0].number"],
      [{ repo: "octocat/hello", number: 9, user: "nobody", title: "x" }, "issues[0].user"],
      [{ repo: "octocat/hello", number: 9, user: "octocat", title: "x", state: "done" }, "issues[0].state"],
      [
        { repo: "octocat/hello", number: 9, user: "octocat", title: "x", created_at: "yesterday" },
        "issues[0].created_at",
      ],
      [{ repo: "octocat/hello", number: 9, user: "octocat", title: "x", colour: "red" }, "issues[0]"],
    ] as const) {
      await assert.rejects(
        ingest.seedWorld({ users: [{ login: "newcomer" }], issues: [issue] }, { baseDir: undefined }),
        (error: unknown) => error instanceof InvalidInputError && error.field === field,
        JSON.stringify(issue),
      );
    }
    assert.equal(await t.store.users.findByLogin("newcomer"), null, "nothing of the refused world was written");
  });

  test("deleting accounts: an issue's author stays as history, one that only reacted and was assigned goes", async () => {
    const fan = await t.createUser("fan", "fan-password");
    const token = (await t.createToken(fan, ["public_repo"])).token;
    const reacted = await t.app.inject({
      method: "POST",
      url: "/repos/octocat/hello/issues/7/reactions",
      headers: { authorization: `token ${token}` },
      payload: { content: "heart" },
    });
    assert.equal(reacted.statusCode, 201, reacted.body);
    const hubot = (await t.store.users.findByLogin("hubot"))!;
    assert.deepEqual(await t.store.users.delete(hubot.id), { authorizationsDeleted: 0, rowKept: true });
    assert.deepEqual(await t.store.users.delete(fan.id), { authorizationsDeleted: 1, rowKept: false });
    const issue = (await t.app.inject({ method: "GET", url: "/repos/octocat/hello/issues/7" })).json() as {
      user: { login: string };
      reactions: { total_count: number };
    };
    assert.deepEqual([issue.user.login, issue.reactions.total_count], ["hubot", 0]);
  });
});
