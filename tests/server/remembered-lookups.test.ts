/**
 * What the server remembers between requests (src/server/store/remembering-store.ts): a poll it has seen before asks
 * the store for nothing but the version, and a write made anywhere else (another process or instance on the same
 * database, here a second store) is seen on the very next request: tokens revoked, accounts suspended, repositories
 * turned private, collaborators removed.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { openStore } from "../helpers/store-drivers.js";
import type { Store } from "../../src/server/store/store.js";
import { emptyBatch } from "../../src/server/services/event-envelope.js";
import { IngestService } from "../../src/server/services/ingest.js";

describe("remembered look-ups", () => {
  let t: TestApp;
  /** Another process's view of the same database. */
  let elsewhere: Store;
  let token: string;
  let tokenId: number;
  const lookups: string[] = [];

  before(async () => {
    t = await startTestApp();
    elsewhere = await openStore(t.dbPath);
    const alice = await t.createUser("alice", "pw-alice");
    await t.createUser("bob", "pw-bob");
    const world = emptyBatch();
    world.repos.push(
      { source: "r0", fullName: "bob/private", private: true },
      { source: "r1", fullName: "bob/public" },
    );
    world.collaborators.push({ source: "c0", repo: "bob/private", user: "alice" });
    await t.store.ingest.apply(world, t.clock.now());
    await new IngestService(t.store, t.clock.now).ingestEvents(
      ["bob/private", "bob/public"].map((name, i) => ({
        id: String(i + 1),
        type: "PushEvent",
        actor: { login: "bob" },
        repo: { name },
        payload: {},
        public: name === "bob/public",
        created_at: "2026-01-14T00:00:00Z",
      })),
    );
    const issued = await t.createToken(alice, ["repo"]);
    [token, tokenId] = [issued.token, Number(issued.id)];
    // Every look-up the server makes, by name; the store itself answers them.
    const watch = <T extends object>(part: T, names: (keyof T & string)[]) => {
      for (const name of names) {
        const original = (part[name] as (...args: unknown[]) => unknown).bind(part);
        (part as Record<string, unknown>)[name] = (...args: unknown[]) => {
          lookups.push(name);
          return original(...args);
        };
      }
    };
    watch(t.store.authorizations, ["findByTokenLastEight"]);
    watch(t.store.users, ["findById", "findByLogin"]);
    watch(t.store.directory, ["findRepo", "canRead"]);
  });
  after(async () => {
    await elsewhere.close();
    await t.close();
  });

  const poll = (url: string, authorization = `token ${token}`) =>
    t.app.inject({ method: "GET", url, headers: { authorization } });
  const lookedUp = () => lookups.splice(0);

  test("a poll seen before asks the store for no token, account, repository or permission", async () => {
    assert.equal((await poll("/repos/bob/private/events")).statusCode, 200);
    assert.deepEqual(lookedUp().sort(), ["canRead", "findById", "findByTokenLastEight", "findRepo"]);
    for (let i = 0; i < 5; i++) assert.equal((await poll("/repos/bob/private/events")).statusCode, 200);
    assert.deepEqual(lookedUp(), []);
  });

  test("a collaborator removed elsewhere gets 404 for the private repository on the next request", async () => {
    const removal = emptyBatch();
    removal.collaborators.push({ source: "c0", repo: "bob/private", user: "alice", remove: true });
    await elsewhere.ingest.apply(removal, t.clock.now());
    assert.equal((await poll("/repos/bob/private/events")).statusCode, 404);
    const back = emptyBatch();
    back.collaborators.push({ source: "c0", repo: "bob/private", user: "alice" });
    await elsewhere.ingest.apply(back, t.clock.now());
    assert.equal((await poll("/repos/bob/private/events")).statusCode, 200);
  });

  test("a repository turned private elsewhere is 404 to others on the next request", async () => {
    assert.equal((await poll("/repos/bob/public/events", "")).statusCode, 200);
    const change = emptyBatch();
    change.repos.push({ source: "r1", fullName: "bob/public", private: true });
    await elsewhere.ingest.apply(change, t.clock.now());
    assert.equal((await poll("/repos/bob/public/events", "")).statusCode, 404);
  });

  test("an account suspended elsewhere is refused on the next request, and let in again once enabled", async () => {
    const alice = (await elsewhere.users.findByLogin("alice"))!;
    await elsewhere.users.setSuspended(alice.id, t.clock.now());
    assert.equal((await poll("/repos/bob/private/events")).statusCode, 403);
    await elsewhere.users.setSuspended(alice.id, null);
    assert.equal((await poll("/repos/bob/private/events")).statusCode, 200);
  });

  const act = (method: "POST" | "PUT", url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: `token ${token}` }, ...(payload ? { payload } : {}) });

  test("a hook made, turned off and on again elsewhere decides the next action's webhooks", async () => {
    const repoId = (await elsewhere.directory.findRepo("bob", "private"))!.id;
    const owner = { kind: "repo", repoId } as const;
    const open = async () =>
      assert.equal((await act("POST", "/repos/bob/private/issues", { title: "t" })).statusCode, 201);
    await open(); // Remembers that no hook listens.
    const config = {
      url: "http://127.0.0.1:9/hook",
      contentType: "json",
      insecureSsl: "0",
      sealedSecret: null,
    } as const;
    const made = await elsewhere.hooks.create(
      { owner, name: "web", active: true, events: ["issues"], config },
      t.clock.now(),
    );
    await open();
    assert.equal(await elsewhere.hooks.queued(made.id), 1, "the new hook gets the next issue's webhook");
    await elsewhere.hooks.update(owner, made.id, { active: false }, t.clock.now());
    await open(); // Remembers again that no hook listens.
    await elsewhere.hooks.update(owner, made.id, { active: true }, t.clock.now());
    await open();
    assert.equal(await elsewhere.hooks.queued(made.id), 2, "turned on again, it gets the next one");
    await elsewhere.hooks.delete(owner, made.id);
  });

  test("a collaborator's permission lowered elsewhere is refused push access on the next action", async () => {
    const opened = await act("POST", "/repos/bob/private/issues", { title: "to lock" });
    assert.equal(opened.statusCode, 201);
    const lock = `/repos/bob/private/issues/${opened.json<{ number: number }>().number}/lock`;
    assert.equal((await act("PUT", lock)).statusCode, 204, "a writer locks");
    const repoId = (await elsewhere.directory.findRepo("bob", "private"))!.id;
    const aliceId = (await elsewhere.users.findByLogin("alice"))!.id;
    await elsewhere.collaborators.set(repoId, aliceId, "pull");
    const refused = await act("PUT", lock);
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json<{ message: string }>().message, "Must have push access to repository");
    await elsewhere.collaborators.set(repoId, aliceId, "push");
    assert.equal((await act("PUT", lock)).statusCode, 204);
  });

  test("a token revoked elsewhere is refused on the next request", async () => {
    assert.equal((await poll("/repos/bob/private/events")).statusCode, 200);
    assert.ok(await elsewhere.authorizations.revoke(tokenId));
    assert.equal((await poll("/repos/bob/private/events")).statusCode, 401);
  });
});
