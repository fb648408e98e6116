/**
 * GitHub's `/repositories/{id}/...` form of the issue routes: the same answers as by name, the repository found by
 * its id (GitHub's own Link headers page issue lists with it); writes too. A number no repository has is 404, a
 * segment that is not a number the 404 of a path without a route.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { ALICE_TOKEN, WORLD } from "../helpers/client-world.js";
import { IngestService } from "../../src/server/services/ingest.js";

describe("/repositories/{id} forms of the issue routes", () => {
  let t: TestApp;
  let id: number;
  const send = (method: "GET" | "POST", url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: `token ${ALICE_TOKEN}` }, ...(payload ? { payload } : {}) });
  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
    id = (await t.store.directory.findRepo("alice", "hello"))!.wireId;
  });
  after(() => t.close());

  test("opening, reading and listing by id answer as by name", async () => {
    const opened = await send("POST", `/repositories/${id}/issues`, { title: "By id" });
    assert.equal(opened.statusCode, 201, opened.body);
    const byName = await send("GET", "/repos/alice/hello/issues/1");
    const byId = await send("GET", `/repositories/${id}/issues/1`);
    assert.equal(byId.statusCode, 200);
    assert.deepEqual(byId.json(), byName.json());
    const list = await send("GET", `/repositories/${id}/issues`);
    assert.deepEqual(list.json(), (await send("GET", "/repos/alice/hello/issues")).json());
    assert.equal((await send("GET", `/api/v3/repositories/${id}/issues/1`)).statusCode, 200, "under /api/v3 too");
  });

  test("an id no repository has is 404; a segment that is not a number has no route", async () => {
    assert.equal((await send("GET", "/repositories/999999/issues")).statusCode, 404);
    const notNumber = await send("GET", "/repositories/hello/issues");
    assert.equal(notNumber.statusCode, 404);
    assert.ok(notNumber.headers["x-feedgate-unimplemented"], "the 404 of a path without a route");
  });
});
