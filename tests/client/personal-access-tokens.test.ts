/**
 * Both kinds of personal access token through feedgate/client: `authorization.*` makes and lists the classic ones,
 * `personalAccessTokens.*` the fine-grained ones, apart as GitHub keeps them; a fine-grained token then authenticates
 * the client, whose `meta` carries the permissions each answer accepts, and `credentials.revoke` ends it.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client, HttpError } from "../../src/client/index.js";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { ALICE } from "../helpers/client-world.js";

describe("SDK: classic and fine-grained tokens", () => {
  let t: ListeningApp;
  let alice: Client;
  before(async () => {
    t = await startListeningApp();
    alice = new Client({
      baseUrl: t.url,
      version: "3.0.0",
      auth: { type: "basic", username: ALICE.login, password: ALICE.password },
    });
  });
  after(() => t.close());

  test("each kind is made and listed by its own family", async () => {
    const classic = await alice.authorization.create({ note: "classic", scopes: ["repo"] });
    const fine = await alice.personalAccessTokens.create({
      name: "fine",
      resource_owner: "alice",
      repository_selection: "subset",
      repositories: ["alice/secret"],
      permissions: { repository: { repository_hooks: "read" } },
      expires_at: "2026-12-01T00:00:00Z",
    });
    assert.equal(fine.status, 201);
    assert.match(fine.data.token, /^feedgate_pat_/);
    assert.deepEqual(
      fine.data.repositories.map((r) => r.full_name),
      ["alice/secret"],
    );
    const fineIds = (await alice.personalAccessTokens.list()).data.map((p) => p.id);
    assert.ok(fineIds.includes(fine.data.id));
    const classicIds = (await alice.authorization.getAll({ per_page: "100" })).data.map((a) => a.id);
    assert.ok(classicIds.includes(classic.data.id));
    assert.ok(!classicIds.includes(String(fine.data.id)));
    assert.equal((await alice.personalAccessTokens.get({ id: String(fine.data.id) })).data.token, "");
  });

  test("a fine-grained token authenticates the client; meta says what each answer accepts; revoke ends it", async () => {
    const { data } = await alice.personalAccessTokens.create({
      name: "bot",
      repository_selection: "subset",
      repositories: ["secret"],
      permissions: { repository: { repository_hooks: "read" } },
      expires_at: "2026-12-01T00:00:00Z",
    });
    const bot = new Client({ baseUrl: t.url, version: "3.0.0", auth: { type: "oauth", token: data.token } });
    const events = await bot.events.getFromRepo({ user: "alice", repo: "secret" });
    assert.equal(events.meta["x-accepted-github-permissions"], "metadata=read");
    assert.equal(events.meta["x-oauth-scopes"], undefined);
    assert.match(events.meta["github-authentication-token-expiration"] ?? "", /^2026-12-01 00:00:00 UTC$/);
    const hooks = await bot.hooks.list({ user: "alice", repo: "secret" });
    assert.equal(hooks.meta["x-accepted-github-permissions"], "repository_hooks=read");
    await assert.rejects(
      bot.hooks.create({ user: "alice", repo: "secret", config: { url: "https://receiver.example/" }, active: false }),
      (error: unknown) =>
        error instanceof HttpError &&
        error.status === 403 &&
        error.message.includes("Resource not accessible by personal access token"),
    );

    const anonymous = new Client({ baseUrl: t.url, version: "3.0.0" });
    assert.equal((await anonymous.credentials.revoke({ credentials: [data.token] })).status, 202);
    await assert.rejects(
      bot.events.getFromRepo({ user: "alice", repo: "secret" }),
      (error: unknown) => error instanceof HttpError && error.status === 401,
    );
  });
});
