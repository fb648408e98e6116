/**
 * `feedgate oauth-app create` against the database of a running app: the printed client id and secret are an OAuth
 * app's the app then knows (its device flow on when asked), the secret stored only as its hash; a bad callback URL
 * or an unknown owner is refused with one line and registers nothing.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { runCli } from "../helpers/cli.js";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { hashToken } from "../../src/server/services/credentials.js";

describe("feedgate oauth-app create", () => {
  let t: TestApp;
  const cli = (...args: string[]) => runCli([...args, "--db", t.dbPath]);

  before(async () => {
    t = await startTestApp();
    await t.createUser("alice", "alice-password");
  });
  after(() => t.close());

  test("prints the client id and secret of an app the server then serves", async () => {
    const run = await cli(
      "oauth-app",
      "create",
      "--name",
      "CLI app",
      "--callback-url",
      "http://127.0.0.1:9000/cb",
      "--owner",
      "alice",
      "--device-flow",
    );
    assert.equal(run.code, 0, run.stderr);
    const [, clientId] = /^client_id (\S+)$/m.exec(run.stdout)!;
    const [, secret] = /^client_secret ([0-9a-f]{40})$/m.exec(run.stdout)!;
    const app = (await t.store.oauthApps.findByClientId(clientId!))!;
    assert.equal(app.name, "CLI app");
    assert.equal(app.deviceFlow, true);
    assert.equal(app.clientSecretHash, hashToken(secret!));
    const code = await t.app.inject({ method: "POST", url: "/login/device/code", payload: { client_id: clientId } });
    assert.equal(code.statusCode, 200, code.body);
  });

  test("an unknown owner or a callback that is no URL is one line, and nothing is registered", async () => {
    const before = (await t.store.oauthApps.list()).length;
    const unknown = await cli(
      "oauth-app",
      "create",
      "--name",
      "x",
      "--callback-url",
      "http://127.0.0.1/cb",
      "--owner",
      "nobody",
    );
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no account nobody/);
    const bad = await cli("oauth-app", "create", "--name", "x", "--callback-url", "not a url");
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /callback_url must be an absolute URL/);
    assert.equal((await t.store.oauthApps.list()).length, before);
  });
});
