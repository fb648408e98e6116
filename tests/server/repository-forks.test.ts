/**
 * Forks as actions: `POST .../forks` answers 202 with the new full repository in the source's network, makes the
 * ForkEvent on the source's feed and the `fork` webhook to the source's hooks, whose `forkee` is valid by GitHub's
 * schema (an organization's fork's too); forking again answers the fork the account has, and makes nothing.
 * `GET .../forks` lists the direct forks the caller sees, in GitHub's orders.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { ALICE_TOKEN, BOB_TOKEN } from "../helpers/client-world.js";
import { assertSchema } from "../compat/schemas.js";
import { ZOE_TOKEN } from "../helpers/issue-scene.js";
import { assertWebhook } from "../helpers/webhook-schemas.js";
import { repositoryScene, type Json, type RepositoryScene } from "../helpers/repository-scene.js";

describe("repository forks", () => {
  let s: RepositoryScene;

  before(async () => {
    s = await repositoryScene();
  });
  after(() => s.close());

  test("forking answers 202 with the fork, makes ForkEvent on the source and the fork webhook", async () => {
    const res = await s.send("POST", "/repos/alice/hello/forks", ZOE_TOKEN, { default_branch_only: true });
    const fork = s.json(res, 202);
    assertSchema("full-repository", fork);
    assert.deepEqual(
      [fork.full_name, fork.fork, fork.parent.full_name, fork.source.full_name, fork.has_issues],
      ["zoe/hello", true, "alice/hello", "alice/hello", false],
    );
    const [event] = (await s.send("GET", "/repos/alice/hello/events", null)).json() as Json[];
    assert.deepEqual([event!.type, event!.actor.login], ["ForkEvent", "zoe"]);
    assert.equal(event!.payload.forkee.full_name, "zoe/hello");
    const [delivery] = await s.delivered(1);
    assert.equal(delivery!.event, "fork");
    assert.equal(delivery!.action, undefined);
    assert.deepEqual(
      [delivery!.body.forkee.full_name, delivery!.body.forkee.fork, delivery!.body.forkee.public],
      ["zoe/hello", true, true],
    );
    assert.equal(delivery!.body.repository.full_name, "alice/hello");
    assert.equal(delivery!.body.sender.login, "zoe");
    const source = s.json(await s.send("GET", "/repos/alice/hello", null), 200);
    assert.ok(source.forks_count >= 1);
    assert.equal(delivery!.body.repository.forks_count, source.forks_count, "the body counts the new fork");
  });

  test("forking again answers the fork the account has in the network, and makes nothing", async () => {
    const before = await s.written();
    const again = s.json(await s.send("POST", "/repos/alice/hello/forks", ZOE_TOKEN), 202);
    assert.equal(again.full_name, "zoe/hello");
    // bob's fork came with the world's history: it is his in the network.
    assert.equal(s.json(await s.send("POST", "/repos/alice/hello/forks", BOB_TOKEN), 202).full_name, "bob/hello");
    assert.equal(await s.written(), before);
  });

  test("a fork into an organization takes `name`; a name the account has gets a number", async () => {
    const named = s.json(
      await s.send("POST", "/repos/alice/hello/forks", ALICE_TOKEN, { organization: "acme", name: "hello-fork" }),
      202,
    );
    assert.deepEqual([named.full_name, named.organization.login], ["acme/hello-fork", "acme"]);
    // The fork's own object names its organization; the forkee GitHub's ForkEvent and `fork` webhook carry does not.
    const [event] = (await s.send("GET", "/repos/alice/hello/events", null)).json() as Json[];
    assert.deepEqual(
      [event!.payload.forkee.full_name, "organization" in event!.payload.forkee],
      ["acme/hello-fork", false],
    );
    const delivery = (await s.delivered(2))[1]!;
    assert.equal(delivery.body.forkee.full_name, "acme/hello-fork");
    assertWebhook("fork", null, delivery.body);
    s.json(await s.send("POST", "/user/repos", ZOE_TOKEN, { name: "tools" }), 201);
    assert.equal(s.json(await s.send("POST", "/repos/bob/tools/forks", ZOE_TOKEN), 202).full_name, "zoe/tools-1");
  });

  test("refused forks write nothing: a private source not seen 404, an organization not one's own 403", async () => {
    await s.delivered(2);
    const before = await s.written();
    assert.equal((await s.send("POST", "/repos/alice/secret/forks", BOB_TOKEN)).statusCode, 404);
    assert.equal((await s.send("POST", "/repos/alice/nothing/forks", BOB_TOKEN)).statusCode, 404);
    assert.equal((await s.send("POST", "/repos/alice/hello/forks", null)).statusCode, 401);
    const org = s.json(await s.send("POST", "/repos/bob/tools/forks", BOB_TOKEN, { organization: "acme" }), 403);
    assert.equal(org.message, "You do not have permission to create a fork in this organization.");
    const taken = s.json(
      await s.send("POST", "/repos/bob/tools/forks", ALICE_TOKEN, { organization: "acme", name: "site" }),
      422,
    );
    assert.equal(taken.errors[0].message, "name already exists on this account");
    assert.equal(await s.written(), before);
  });

  test("GET .../forks lists the direct forks, newest first or in the order asked, paged", async () => {
    const newest = s.json(await s.send("GET", "/repos/alice/hello/forks", null), 200);
    assertSchema("minimal-repository", newest);
    assert.deepEqual(
      newest.map((r: Json) => r.full_name),
      ["acme/hello-fork", "zoe/hello", "bob/hello"],
    );
    const oldest = s.json(await s.send("GET", "/repos/alice/hello/forks?sort=oldest&per_page=1", null), 200);
    assert.deepEqual(
      oldest.map((r: Json) => r.full_name),
      ["bob/hello"],
    );
    const paged = await s.send("GET", "/repos/alice/hello/forks?sort=oldest&per_page=1", null);
    assert.match(String(paged.headers.link), /page=3>; rel="last"/);
    const bad = s.json(await s.send("GET", "/repos/alice/hello/forks?sort=best", null), 422);
    assert.equal(bad.errors[0].field, "sort");
    assert.equal((await s.send("GET", "/repos/alice/secret/forks", BOB_TOKEN)).statusCode, 404);
  });
});
