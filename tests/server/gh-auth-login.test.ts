/**
 * `gh auth login --hostname HOST` (Debian's gh 2.23, unmodified) against a live `feedgate serve` over TLS, on the
 * test's driver (both in `npm test`), through the device flow with GitHub CLI's own OAuth app, which every feedgate
 * registers: gh asks for a code, a person enters it on the console's `/login/device` and authorizes (or cancels), gh
 * polls until it has a token, asks GraphQL who it is, and stores it; `gh auth status` then checks the token's scopes
 * and `gh api` uses it.
 *
 * gh refuses a host name with a port, so it is given `feedgate.test` and finds the server through HTTPS_PROXY (a
 * CONNECT proxy that tunnels to the server's port), as it would a company's proxy: no DNS entry, no port 443.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { feedgate, runCli, waitForOutput, type CliRun } from "../helpers/cli.js";
import { ALICE, WORLD } from "../helpers/client-world.js";
import { runScript, skipUnlessClient, type ScriptRun } from "../compat/debian-clients.js";
import { testDriver, type TestDatabase } from "../helpers/store-drivers.js";
import { https, selfSigned, skipUnlessOpenssl } from "../helpers/certificate.js";
import { connectProxy, type ConnectProxy } from "../helpers/connect-proxy.js";
import { csrfOf, form, FORM } from "../helpers/console-forms.js";

const skip = skipUnlessClient("gh") || skipUnlessOpenssl();
const HOST = "feedgate.test";
const USER_CODE = /one-time code: ([A-Z]{4}-[A-Z]{4})/;

describe("gh auth login --hostname through feedgate's device flow", { skip }, () => {
  let dir: string;
  let server: CliRun;
  let proxy: ConnectProxy;
  let api: string;
  let ca: Buffer;
  let env: Record<string, string>;
  let database: TestDatabase;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "feedgate-gh-login-"));
    const { cert, key } = selfSigned(dir, "server", [HOST]);
    ca = readFileSync(cert);
    database = await testDriver().create();
    const { db } = database;
    writeFileSync(join(dir, "world.json"), JSON.stringify(WORLD));
    const seeded = await runCli(["seed", join(dir, "world.json"), "--db", db]);
    assert.equal(seeded.code, 0, seeded.stderr);
    server = feedgate(["serve", "--port", "0", "--db", db, "--tls-cert", cert, "--tls-key", key]);
    api = (await waitForOutput(server, /Server listening at (https:\/\/127\.0\.0\.1:\d+)/))[1]!;
    proxy = await connectProxy(Number(new URL(api).port));
    env = {
      HTTPS_PROXY: proxy.url,
      SSL_CERT_FILE: cert,
      GH_CONFIG_DIR: join(dir, "gh"),
      GH_NO_UPDATE_NOTIFIER: "1",
      GH_PROMPT_DISABLED: "1",
      NO_COLOR: "1",
      // gh would use a token from the environment instead of logging in; empty is unset to gh.
      GH_TOKEN: "",
      GITHUB_TOKEN: "",
      GH_ENTERPRISE_TOKEN: "",
      GITHUB_ENTERPRISE_TOKEN: "",
    };
  });

  after(async () => {
    await proxy?.close();
    server?.child.kill("SIGTERM");
    await server?.done;
    if (dir) rmSync(dir, { recursive: true, force: true });
    await database?.drop();
  });

  /** What a person does with the code gh printed: signs in to the console, enters it, and answers the consent. */
  async function enterCode(userCode: string, decision: "authorize" | "cancel"): Promise<string> {
    const signedIn = await https(`${api}/console/sign-in`, ca, { method: "POST", headers: FORM, body: form(ALICE) });
    const cookie = [signedIn.headers["set-cookie"] ?? []].flat().find((c) => c.startsWith("feedgate_session="));
    assert.ok(cookie, `no session: ${signedIn.status} ${signedIn.body}`);
    const headers = { cookie: cookie.split(";")[0]!, ...FORM };
    const page = await https(`${api}/console/login/device`, ca, { headers: { cookie: headers.cookie } });
    const consent = await https(`${api}/console/login/device`, ca, {
      method: "POST",
      headers,
      body: form({ csrf: csrfOf(page.body), user_code: userCode }),
    });
    assert.match(consent.body, /<h1>Authorize GitHub CLI<\/h1>/);
    const answered = await https(`${api}/console/login/device/authorize`, ca, {
      method: "POST",
      headers,
      body: form({ csrf: csrfOf(consent.body), user_code: userCode, decision }),
    });
    assert.equal(answered.status, 200, answered.body);
    return answered.body;
  }

  /** `gh auth login` without a terminal (it then prints the code and the URL instead of opening a browser). */
  function login(decision: "authorize" | "cancel"): Promise<ScriptRun> {
    let entered: Promise<string> | undefined;
    const args = ["auth", "login", "--hostname", HOST, "--web", "--git-protocol", "https"];
    const run = runScript("gh", args, env, 60_000, ({ stderr }) => {
      const code = USER_CODE.exec(stderr)?.[1];
      if (code && !entered) entered = enterCode(code, decision);
    });
    return run.then(async (done) => {
      assert.ok(entered, `gh printed no code:\n${done.stderr}${done.stdout}`);
      await entered;
      return done;
    });
  }

  const gh = (...args: string[]) => runScript("gh", args, env);

  test("a person who cancels: gh says the request was denied and stores nothing", async () => {
    const run = await login("cancel");
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /The authorization request was denied\. \(access_denied\)/);
    const status = await gh("auth", "status", "--hostname", HOST);
    assert.match(status.stderr, /You are not logged into any GitHub hosts|not logged in/i);
  });

  test("a person who authorizes: gh is logged in as alice with a gho_ token of GitHub CLI's app", async () => {
    const run = await login("authorize");
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /Open this URL to continue in your web browser: https:\/\/feedgate\.test\/login\/device/);
    assert.match(run.stderr, /Logged in as alice/);
    assert.ok(
      proxy.tunnels.every((tunnel) => tunnel === `${HOST}:443`),
      proxy.tunnels.join(" "),
    );

    const hosts = readFileSync(join(dir, "gh", "hosts.yml"), "utf8");
    const token = /oauth_token: (gho_\w+)/.exec(hosts)?.[1];
    assert.ok(token, hosts);
    const basic = `Basic ${Buffer.from(`${ALICE.login}:${ALICE.password}`).toString("base64")}`;
    const listed = await https(`${api}/authorizations`, ca, { headers: { authorization: basic } });
    const granted = (
      JSON.parse(listed.body) as { token_last_eight: string; scopes: string[]; app: { name: string } }[]
    ).filter((authorization) => authorization.token_last_eight === token.slice(-8));
    assert.deepEqual(
      granted.map(({ app, scopes }) => ({ app: app.name, scopes })),
      [{ app: "GitHub CLI", scopes: ["repo", "read:org", "gist"] }],
    );
  });

  test("gh auth status reads the token's scopes, and gh api acts with the stored token", async () => {
    const status = await gh("auth", "status", "--hostname", HOST);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stderr, /Logged in to feedgate\.test as alice/);
    assert.match(status.stderr, /Token scopes: repo, read:org, gist/);
    const user = await gh("api", "--hostname", HOST, "user", "--jq", ".login");
    assert.equal(user.stdout, "alice\n", user.stderr);
  });
});
