/**
 * The SDK methods the endpoint table's entry-point rows generate (client.users, orgs, repos, rateLimit, meta),
 * against a listening feedgate over real HTTP: typed data, and GitHub's errors as HttpError.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client, HttpError } from "../../src/client/index.js";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { ALICE } from "../helpers/client-world.js";

describe("SDK entry-point methods", () => {
  let t: ListeningApp;
  let alice: Client;
  let anonymous: Client;
  before(async () => {
    t = await startListeningApp();
    alice = new Client({
      baseUrl: t.url,
      version: "3.0.0",
      auth: { type: "basic", username: ALICE.login, password: ALICE.password },
    });
    anonymous = new Client({ baseUrl: t.url, version: "3.0.0" });
  });
  after(() => t.close());

  test("users.getAuthenticated, users.getByUsername, orgs.get and repos.get return GitHub's objects", async () => {
    const me = await alice.users.getAuthenticated();
    assert.equal(me.data.login, "alice");
    assert.equal(me.data.two_factor_authentication, false);
    const bob = await anonymous.users.getByUsername({ user: "bob" });
    assert.equal(bob.data.type, "User");
    assert.equal((await anonymous.orgs.get({ org: "acme" })).data.type, "Organization");
    const secret = await alice.repos.get({ user: "alice", repo: "secret" });
    assert.equal(secret.data.private, true);
    assert.equal(secret.data.permissions?.admin, true);
    const fork = await anonymous.repos.get({ user: "bob", repo: "hello" });
    assert.equal(fork.data.parent?.full_name, "alice/hello");
  });

  test("meta.root, meta.get and rateLimit.get", async () => {
    assert.equal((await anonymous.meta.root()).data.current_user_url, `${t.url}/user`);
    assert.equal((await anonymous.meta.get()).data.verifiable_password_authentication, true);
    const limit = await alice.rateLimit.get();
    assert.equal(limit.data.resources.core.limit, 5000);
    assert.deepEqual(limit.data.rate, limit.data.resources.core, "3.0.0 is served as 2022-11-28, which keeps rate");
  });

  test("errors are HttpError with GitHub's status and message", async () => {
    await assert.rejects(
      anonymous.users.getAuthenticated(),
      (error: unknown) =>
        error instanceof HttpError && error.status === 401 && /Requires authentication/.test(error.message),
    );
    await assert.rejects(
      anonymous.repos.get({ user: "alice", repo: "secret" }),
      (error: unknown) => error instanceof HttpError && error.status === 404,
    );
  });
});
