/**
 * `/_feedgate/...` over HTTP (`serve --test-controls`), on the driver the run names (SQLite, and PostgreSQL in the
 * matrix): reset, clock, faults, snapshots and deliveries, each refusing bad input with nothing changed, and none of
 * them served, described or reachable on a server started without the flag.
 */
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { event } from "../helpers/events.js";

const json = (body: unknown) => ({ headers: { "content-type": "application/json" }, payload: JSON.stringify(body) });

describe("test controls over HTTP", () => {
  let t: TestApp;
  let token: string;
  before(async () => {
    t = await startTestApp({ testControls: true });
    await new IngestService(t.store, t.clock.now).seedWorld(
      {
        users: [{ login: "octocat" }],
        repos: [{ full_name: "octocat/hello" }],
        events: [event(1, "PushEvent", "octocat", "octocat/hello", { created_at: "2026-01-01T00:00:00Z" })],
      },
      { baseDir: undefined },
    );
    await t.app.ready(); // the start a reset returns to: the world above
    token = (await t.createToken((await t.store.users.findByLogin("octocat"))!, ["repo", "admin:repo_hook"])).token;
  });
  after(() => t.close());

  const eventIds = async () =>
    (await t.app.inject({ url: "/repos/octocat/hello/events" })).json<{ id: string }[]>().map((e) => e.id);

  it("sets and advances the clock that the Date header and every rule read; a bad change is 422 and moves nothing", async () => {
    const set = await t.app.inject({
      method: "PUT",
      url: "/_feedgate/clock",
      ...json({ now: "2030-05-01T12:00:00Z" }),
    });
    assert.equal(set.statusCode, 200);
    assert.deepEqual(set.json(), { now: "2030-05-01T12:00:00.000Z" });
    const advanced = await t.app.inject({ method: "PUT", url: "/_feedgate/clock", ...json({ advance: "2h" }) });
    assert.deepEqual(advanced.json(), { now: "2030-05-01T14:00:00.000Z" });
    assert.equal((await t.app.inject({ url: "/users/octocat" })).headers.date, "Wed, 01 May 2030 14:00:00 GMT");
    for (const bad of [
      { now: "yesterday" },
      { advance: "-1h" },
      { advance: "soon" },
      {},
      { now: "2030-01-01T00:00:00Z", advance: "1h" },
      { speed: 2 },
    ]) {
      const refused = await t.app.inject({ method: "PUT", url: "/_feedgate/clock", ...json(bad) });
      assert.equal(refused.statusCode, 422, JSON.stringify(bad));
      assert.equal(refused.json<{ message: string }>().message, "Validation Failed");
    }
    assert.equal(
      (
        await t.app.inject({
          method: "PUT",
          url: "/_feedgate/clock",
          headers: { "content-type": "application/json" },
          payload: "{",
        })
      ).statusCode,
      400,
    );
    assert.deepEqual(
      (await t.app.inject({ url: "/_feedgate/clock" })).json(),
      { now: "2030-05-01T14:00:00.000Z" },
      "nothing moved",
    );
  });

  it("adds faults (and GitHub's presets), answers with them, lists and clears them; a bad fault is 422 and adds nothing", async () => {
    const added = await t.app.inject({
      method: "POST",
      url: "/_feedgate/faults",
      ...json({
        method: "GET",
        path: "/repos/:owner/:repo/events",
        status: 503,
        body: "down",
        headers: { "content-type": "text/plain" },
        times: 2,
      }),
    });
    assert.equal(added.statusCode, 201);
    assert.equal(added.json<{ remaining: number }>().remaining, 2);
    for (let i = 0; i < 2; i++) {
      const faulty = await t.app.inject({ url: "/api/v3/repos/octocat/hello/events" });
      assert.equal(faulty.statusCode, 503);
      assert.equal(faulty.body, "down");
      assert.ok(faulty.headers["x-github-request-id"]);
    }
    assert.equal((await t.app.inject({ url: "/repos/octocat/hello/events" })).statusCode, 200);

    const preset = await t.app.inject({
      method: "POST",
      url: "/_feedgate/faults",
      ...json({ preset: "secondary-rate-limit", path: "/user", retryAfter: 5 }),
    });
    assert.equal(preset.statusCode, 201);
    const limited = await t.app.inject({ url: "/user", headers: { authorization: `token ${token}` } });
    assert.equal(limited.statusCode, 403);
    assert.equal(limited.headers["retry-after"], "5");
    for (const bad of [
      { method: "BREW", path: "/user", status: 500 },
      { path: "/user/{", status: 500 },
      { path: "/user", status: 700 },
      { path: "/user", status: 500, times: 0 },
      { path: "/user", status: 500, delayMs: -1 },
      { preset: "flaky", path: "/user" },
      { path: "/user" },
    ]) {
      const refused = await t.app.inject({ method: "POST", url: "/_feedgate/faults", ...json(bad) });
      assert.equal(refused.statusCode, 422, JSON.stringify(bad));
    }
    assert.equal(
      (await t.app.inject({ url: "/_feedgate/faults" })).json<unknown[]>().length,
      1,
      "only the preset stands",
    );
    assert.equal((await t.app.inject({ method: "DELETE", url: "/_feedgate/faults" })).statusCode, 204);
    assert.equal((await t.app.inject({ url: "/user", headers: { authorization: `token ${token}` } })).statusCode, 200);
  });

  it("restores a snapshot, refuses an unknown one with 404, and resets to the world as the server started", async () => {
    const taken = await t.app.inject({ method: "POST", url: "/_feedgate/snapshots" });
    assert.equal(taken.statusCode, 201);
    const { id } = taken.json<{ id: string }>();
    await new IngestService(t.store, t.clock.now).ingestEvents([
      event(2, "WatchEvent", "octocat", "octocat/hello", { created_at: "2026-01-02T00:00:00Z" }),
    ]);
    assert.deepEqual(await eventIds(), ["2", "1"]);
    const restored = await t.app.inject({ method: "POST", url: `/_feedgate/snapshots/${id}/restore` });
    assert.equal(restored.statusCode, 200);
    assert.deepEqual(await eventIds(), ["1"]);
    assert.equal(
      (await t.app.inject({ url: "/user", headers: { authorization: `token ${token}` } })).statusCode,
      200,
      "the snapshot had the token",
    );

    for (const unknown of ["s00000000_1", "nonsense", `${id.slice(0, -1)}9`]) {
      const missing = await t.app.inject({ method: "POST", url: `/_feedgate/snapshots/${unknown}/restore` });
      assert.equal(missing.statusCode, 404, unknown);
      assert.match(missing.json<{ message: string }>().message, /^Not Found: no snapshot/);
    }
    const reset = await t.app.inject({ method: "POST", url: "/_feedgate/reset" });
    assert.equal(reset.statusCode, 200);
    assert.equal(
      (await t.app.inject({ url: "/user", headers: { authorization: `token ${token}` } })).statusCode,
      401,
      "the token came after the start",
    );
    assert.deepEqual(await eventIds(), ["1"]);
    assert.deepEqual(
      (await t.app.inject({ url: "/_feedgate/clock" })).json(),
      { now: "2026-01-15T10:00:00.000Z" },
      "the clock is back",
    );
  });

  it("lists every webhook delivery attempted, with its request's headers and payload", async () => {
    const receiver = createServer((_request, response) => response.end("ok"));
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
      const fresh = (await t.createToken((await t.store.users.findByLogin("octocat"))!, ["admin:repo_hook"])).token;
      const created = await t.app.inject({
        method: "POST",
        url: "/repos/octocat/hello/hooks",
        headers: { authorization: `token ${fresh}` },
        payload: { config: { url, content_type: "json" } },
      });
      assert.equal(created.statusCode, 201);
      let deliveries: {
        hook_id: number;
        event: string;
        status_code: number;
        request: { headers: Record<string, string>; payload: { zen?: string } };
      }[] = [];
      for (const end = Date.now() + 5000; deliveries.length === 0 && Date.now() < end; ) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        deliveries = (await t.app.inject({ url: "/_feedgate/deliveries" })).json();
      }
      assert.equal(deliveries.length, 1);
      assert.equal(deliveries[0]!.event, "ping");
      assert.equal(deliveries[0]!.hook_id, created.json<{ id: number }>().id);
      assert.equal(deliveries[0]!.status_code, 200);
      assert.equal(deliveries[0]!.request.headers["X-GitHub-Event"], "ping");
      assert.equal(typeof deliveries[0]!.request.payload.zen, "string");
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it("describes the controls in /openapi.json", async () => {
    const paths = Object.keys((await t.app.inject({ url: "/openapi.json" })).json<{ paths: object }>().paths);
    assert.ok(paths.includes("/_feedgate/reset") && paths.includes("/_feedgate/snapshots/{id}/restore"));
  });
});

describe("a server without --test-controls", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it("answers every control with the ordinary 404, changes nothing, and does not describe them", async () => {
    for (const [method, url] of [
      ["POST", "/_feedgate/reset"],
      ["PUT", "/_feedgate/clock"],
      ["POST", "/_feedgate/faults"],
      ["DELETE", "/_feedgate/faults"],
      ["POST", "/_feedgate/snapshots"],
      ["GET", "/_feedgate/deliveries"],
    ] as const) {
      const answer = await t.app.inject({ method, url, ...json({ advance: "1h", path: "/user", status: 500 }) });
      assert.equal(answer.statusCode, 404, `${method} ${url}`);
    }
    const document = (await t.app.inject({ url: "/openapi.json" })).json<{ paths: object; tags: { name: string }[] }>();
    assert.ok(!Object.keys(document.paths).some((path) => path.startsWith("/_feedgate")));
    assert.ok(!document.tags.some((tag) => tag.name === "testControls"));
  });
});
