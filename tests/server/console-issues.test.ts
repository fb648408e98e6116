/**
 * The console's Issues page of a repository: its open issues as `GET /repos/:o/:r/issues` lists them for the
 * signed-in user, linked from the repository's page; a repository the user cannot see is 404; made events show in
 * the repository's activity as ingested ones do.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { ALICE_TOKEN, WORLD } from "../helpers/client-world.js";
import { IngestService } from "../../src/server/services/ingest.js";

describe("console: a repository's issues", () => {
  let t: TestApp;
  const sessions: Record<string, string> = {};
  const get = (url: string, login: string) =>
    t.app.inject({ method: "GET", url, headers: { cookie: `feedgate_session=${sessions[login]}` } });

  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
    for (const [login, password] of [
      ["alice", "alice-password"],
      ["bob", "bob-password"],
    ] as const) {
      const res = await t.app.inject({
        method: "POST",
        url: "/console/sign-in",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams({ login, password }).toString(),
      });
      sessions[login] = /feedgate_session=([^;]+)/.exec(String(res.headers["set-cookie"]))![1]!;
    }
    const open = (repo: string, title: string, extra = {}) =>
      t.app.inject({
        method: "POST",
        url: `/repos/alice/${repo}/issues`,
        headers: { authorization: `token ${ALICE_TOKEN}` },
        payload: { title, ...extra },
      });
    await open("hello", "Open <and> escaped", { labels: ["bug"] });
    const closed = await open("hello", "Soon closed");
    await t.app.inject({
      method: "PATCH",
      url: `/repos/alice/hello/issues/${(closed.json() as { number: number }).number}`,
      headers: { authorization: `token ${ALICE_TOKEN}` },
      payload: { state: "closed" },
    });
    await open("secret", "Private matter");
  });
  after(() => t.close());

  test("lists the open issues, escaped, linked from the repository's page", async () => {
    const repoPage = await get("/console/repos/alice/hello", "bob");
    assert.equal(repoPage.statusCode, 200);
    assert.match(repoPage.body, /href="\/console\/repos\/alice\/hello\/issues">Issues</);
    assert.match(repoPage.body, /opened issue #1/, "the made IssuesEvent is a sentence of the activity");
    const page = await get("/console/repos/alice/hello/issues", "bob");
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /1 open issue\./);
    assert.match(page.body, /Open &lt;and&gt; escaped/);
    assert.match(page.body, /<td>bug<\/td>/);
    assert.doesNotMatch(page.body, /Soon closed/);
  });

  test("a private repository: its readers see its issues, anyone else gets 404", async () => {
    assert.match((await get("/console/repos/alice/secret/issues", "alice")).body, /Private matter/);
    assert.equal((await get("/console/repos/alice/secret/issues", "bob")).statusCode, 404);
  });
});
