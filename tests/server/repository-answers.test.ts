/**
 * `GET /repos/:owner/:repo`'s kept answers (services/entry-points.ts repositoryAnswers, ../../src/server/
 * versioned-answers.ts), given again before Fastify's pipeline (../../src/server/repeats/): an answer given again is
 * the same bytes as the one made afresh, and no write leaves an
 * old one behind: counts (stars, forks, watchers, open issues), the caller's permissions after a collaborator change,
 * a rename, privacy, a deleted token, a reset, and two doubles of the same settings with the same numbers.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startFeedgate, type Feedgate } from "../../src/testing/index.js";

const NOW = "2026-02-01T00:00:00Z";
const world = {
  users: [{ login: "o" }, { login: "u" }, { login: "w" }],
  orgs: [{ login: "acme", owners: ["o"], members: ["u"] }],
  repos: [{ full_name: "o/r" }, { full_name: "acme/t" }],
};

type Json = Record<string, unknown> & { permissions?: Record<string, boolean> };

describe("kept repository answers", () => {
  let fg: Feedgate;
  const tokens: Record<string, string> = {};
  const send = async (method: string, path: string, as: string | null, body?: object) => {
    const headers: Record<string, string> = {};
    if (as !== null) headers.authorization = `token ${tokens[as]}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    // Over the socket, as a client sends it (fg.fetch too: both reach the same routes).
    return fetch(`${fg.url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: "manual",
    });
  };
  const repo = async (path: string, as: string | null = "u") => {
    const res = await send("GET", path, as);
    assert.equal(res.status, 200, path);
    return (await res.json()) as Json;
  };

  const repeatedCount = async () => {
    const metrics = await (await fetch(`${fg.url}/metrics`)).text();
    return Number(/^feedgate_repeated_answers_total (\d+)$/m.exec(metrics)?.[1]);
  };

  before(async () => {
    fg = await startFeedgate({ world, now: NOW });
    for (const login of ["o", "u", "w"]) tokens[login] = await fg.token(login);
  });
  after(() => fg.close());

  it("gives the same bytes again, headers but the per-request ones alike", async () => {
    const repeatedBefore = await repeatedCount();
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const res = await send("GET", "/repos/o/r", "u");
      answers.push({ status: res.status, headers: [...res.headers], body: await res.text() });
    }
    const perRequest = new Set(["date", "x-github-request-id", "x-ratelimit-remaining", "x-ratelimit-used"]);
    const stable = (headers: [string, string][]) => headers.filter(([name]) => !perRequest.has(name));
    for (const again of answers.slice(1)) {
      assert.equal(again.status, 200);
      assert.equal(again.body, answers[0]!.body);
      assert.deepEqual(stable(again.headers), stable(answers[0]!.headers));
      assert.deepEqual(
        again.headers.map(([name]) => name),
        answers[0]!.headers.map(([name]) => name),
      );
    }
    // The second and third were given again before Fastify's pipeline (src/server/repeats/).
    assert.equal(await repeatedCount(), repeatedBefore + 2);
    // Through fg.fetch, and under /api/v3, the answers are their own (their URLs differ), each the same again.
    const underPrefix = await (await send("GET", "/api/v3/repos/o/r", "u")).text();
    assert.notEqual(underPrefix, answers[0]!.body);
    assert.equal(await (await send("GET", "/api/v3/repos/o/r", "u")).text(), underPrefix);
    assert.equal((await repo("/repos/o/r", null)).permissions, undefined, "an anonymous caller's has none");
    assert.equal((await repo("/repos/o/r")).permissions?.pull, true);
  });

  it("counts stars, forks and watchers as soon as they are written", async () => {
    const first = await repo("/repos/o/r");
    assert.equal((await send("PUT", "/user/starred/o/r", "u")).status, 204);
    assert.equal((await repo("/repos/o/r")).stargazers_count, (first.stargazers_count as number) + 1);
    assert.equal((await send("POST", "/repos/o/r/forks", "w", {})).status, 202);
    assert.equal((await repo("/repos/o/r")).forks_count, (first.forks_count as number) + 1);
    const opened = await send("POST", "/repos/o/r/issues", "u", { title: "a bug" });
    assert.equal(opened.status, 201);
    const afterOpening = await repo("/repos/o/r");
    assert.notEqual(afterOpening.pushed_at, undefined);
    // GitHub counts open issues and pull requests alike, in both fields.
    assert.deepEqual([afterOpening.open_issues_count, afterOpening.open_issues], [1, 1]);
    const { number } = (await opened.json()) as { number: number };
    assert.equal((await send("PATCH", `/repos/o/r/issues/${number}`, "o", { state: "closed" })).status, 200);
    const afterClosing = await repo("/repos/o/r");
    assert.deepEqual([afterClosing.open_issues_count, afterClosing.open_issues], [0, 0]);
    assert.equal((await send("PUT", "/repos/o/r/subscription", "w", { subscribed: true })).status, 200);
    assert.equal((await repo("/repos/o/r")).subscribers_count, (first.subscribers_count as number) + 1);
  });

  it("shows the caller's permissions as a collaborator change leaves them", async () => {
    assert.equal((await repo("/repos/acme/t")).permissions?.push, false, "a member's base role: read");
    const added = await send("PUT", "/repos/acme/t/collaborators/u", "o", { permission: "push" });
    assert.equal(added.status, 204, await added.text()); // a member of the organization: added at once
    assert.equal((await repo("/repos/acme/t")).permissions?.push, true);
    assert.equal((await send("DELETE", "/repos/acme/t/collaborators/u", "o")).status, 204);
    assert.equal((await repo("/repos/acme/t")).permissions?.push, false);
  });

  it("follows a rename, privacy and a deleted token", async () => {
    assert.equal((await repo("/repos/acme/t", "o")).name, "t");
    const renamed = await send("PATCH", "/repos/acme/t", "o", { name: "renamed" });
    assert.equal(renamed.status, 200, await renamed.text());
    assert.equal((await repo("/repos/acme/renamed", "o")).full_name, "acme/renamed");
    assert.equal((await send("GET", "/repos/acme/t", "o")).status, 301);
    assert.equal((await send("PATCH", "/repos/acme/renamed", "o", { private: true })).status, 200);
    assert.equal((await send("GET", "/repos/acme/renamed", null)).status, 404);
    assert.equal((await repo("/repos/acme/renamed", "o")).private, true);
    assert.equal((await repo("/repos/o/r", "w")).full_name, "o/r");
    const [authorization] = await fg.store.authorizations.findByTokenLastEight(tokens.w!.slice(-8));
    assert.equal(await fg.store.authorizations.delete(authorization!.userId, authorization!.id), true);
    assert.equal((await send("GET", "/repos/o/r", "w")).status, 401);
  });

  it("answers the world's repository again after a reset", async () => {
    await fg.reset();
    for (const login of ["o", "u", "w"]) tokens[login] = await fg.token(login);
    const afresh = await repo("/repos/o/r");
    assert.equal(afresh.stargazers_count, 0);
    assert.equal(afresh.forks_count, 0);
    assert.equal((await send("GET", "/repos/acme/t", "o")).status, 200);
  });

  it("keeps each double's answers its own, though their numbers are alike", async () => {
    const other = await startFeedgate({
      world: { ...world, repos: [{ full_name: "o/r", private: true }, { full_name: "acme/t" }] },
      now: NOW,
    });
    try {
      const token = await other.token("u");
      for (let i = 0; i < 2; i++) {
        assert.equal((await repo("/repos/o/r")).private, false);
        const res = await fetch(`${other.url}/repos/o/r`, { headers: { authorization: `token ${token}` } });
        assert.equal(res.status, 404, "the other's o/r is private, and u no reader of it");
        await res.arrayBuffer();
      }
    } finally {
      await other.close();
    }
  });
});
