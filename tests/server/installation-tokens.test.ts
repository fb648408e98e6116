/**
 * Installation tokens (`ghs_`, an hour by the clock): minted for an installation, narrowed as asked, authorized on
 * every route by the app's permissions on the installation's repositories, and writing as the app's bot account.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { WORLD } from "../helpers/client-world.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { AppRegistry } from "../../src/server/services/apps/app-registry.js";
import { InstallationTokens } from "../../src/server/services/apps/installation-tokens.js";
import type { AppRow, InstallationRow } from "../../src/server/store/store.js";
import { ApiError } from "../../src/server/errors.js";

describe("installation tokens", () => {
  let t: TestApp;
  let app: AppRow;
  let installation: InstallationRow;
  let tokens: InstallationTokens;
  const send = (method: "GET" | "POST", url: string, token: string, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: `token ${token}` }, ...(payload ? { payload } : {}) });

  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const registry = new AppRegistry(t.store, t.clock.now);
    app = await registry.register({
      name: "Issue Bot",
      owner: "alice",
      key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      permissions: { issues: "write" },
      events: ["issues"],
    });
    installation = await registry.install(app, "alice", ["hello"]);
    tokens = new InstallationTokens(t.store, t.clock.now);
  });
  after(() => t.close());

  test("an issue opened with the token is the bot's, of type Bot, and the answer has an empty X-OAuth-Scopes", async () => {
    const { token, expiresAt } = await tokens.mint(app, installation);
    assert.match(token, /^ghs_[0-9A-Za-z]{36}$/);
    assert.equal(expiresAt.getTime() - t.clock.now().getTime(), 3_600_000);
    const res = await send("POST", "/repos/alice/hello/issues", token, { title: "From the bot" });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.headers["x-oauth-scopes"], "");
    const body = JSON.parse(res.body);
    assert.equal(body.user.login, "issue-bot[bot]");
    assert.equal(body.user.type, "Bot");
  });

  test("a repository outside the installation is 404 when private, and a missing permission is GitHub's 403", async () => {
    const { token } = await tokens.mint(app, installation);
    assert.equal((await send("GET", "/repos/alice/secret/issues", token)).statusCode, 404);
    const narrowed = await tokens.mint(app, installation, { permissions: { issues: "read" } });
    const before = await t.store.issues.page(
      { repoId: installation.repositoryIds[0]!, state: "all", sort: "created", direction: "asc" },
      { limit: 100, offset: 0 },
    );
    const res = await send("POST", "/repos/alice/hello/issues", narrowed.token, { title: "Refused" });
    assert.equal(res.statusCode, 403);
    assert.equal(JSON.parse(res.body).message, "Resource not accessible by integration");
    const after = await t.store.issues.page(
      { repoId: installation.repositoryIds[0]!, state: "all", sort: "created", direction: "asc" },
      { limit: 100, offset: 0 },
    );
    assert.equal(after.total, before.total);
  });

  test("a narrowing past the installation is 422 and mints nothing", async () => {
    for (const narrowing of [{ permissions: { issues: "admin" as never } }, { repositories: ["secret"] }]) {
      await assert.rejects(tokens.mint(app, installation, narrowing), (error: unknown) => {
        assert.ok(error instanceof ApiError);
        assert.equal(error.statusCode, 422);
        return true;
      });
    }
  });

  test("a token stops at its hour, and with its installation's suspension or removal", async () => {
    const { token } = await tokens.mint(app, installation);
    await t.store.apps.setSuspended(installation.id, t.clock.now(), t.clock.now());
    const suspended = await send("GET", "/repos/alice/hello/issues", token);
    assert.equal(suspended.statusCode, 403);
    assert.equal(JSON.parse(suspended.body).message, "This installation has been suspended");
    await t.store.apps.setSuspended(installation.id, null, t.clock.now());
    assert.equal((await send("GET", "/repos/alice/hello/issues", token)).statusCode, 200);
    t.clock.advance(3_600_001);
    assert.equal((await send("GET", "/repos/alice/hello/issues", token)).statusCode, 401);
  });
});
