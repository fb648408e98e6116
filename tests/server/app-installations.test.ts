/**
 * A GitHub App's installations through its JWT: listing, getting (by id, repository, organization, user), suspending,
 * deleting, and minting installation tokens narrowed by repositories and permissions; then @octokit/app walking them.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { App } from "@octokit/app";
import { startTestApp, TestClock, type TestApp } from "../helpers/test-app.js";
import { ALICE_TOKEN, WORLD } from "../helpers/client-world.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { assertSchema } from "../compat/schemas.js";
import { registerApp, type RegisteredApp } from "../helpers/github-app.js";
import { receiver } from "../helpers/webhook-receiver.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read as asserted
type Json = Record<string, any>;

describe("app installations", () => {
  let t: TestApp;
  let bot: RegisteredApp;
  let onAcme: number;
  let onAlice: number;
  const send = async (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${await bot.jwt()}` },
      ...(payload ? { payload } : {}),
    });
  const json = async (method: "GET" | "POST", url: string, status: number, payload?: object): Promise<Json> => {
    const res = await send(method, url, payload);
    assert.equal(res.statusCode, status, res.body);
    return JSON.parse(res.body);
  };

  before(async () => {
    // Running with the wall clock: @octokit/app signs its JWTs by the machine's time.
    t = await startTestApp({}, new TestClock(new Date(), true));
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
    bot = await registerApp(t, { owner: "alice" });
    onAcme = (await bot.install("acme")).id;
    onAlice = (await bot.install("alice", ["hello"])).id;
  });
  after(() => t.close());

  test("lists and gets the app's installations in GitHub's shape", async () => {
    const list = (await json("GET", "/app/installations", 200)) as unknown as Json[];
    assert.deepEqual(
      list.map((i) => [i.id, i.account.login, i.repository_selection]),
      [
        [onAcme, "acme", "all"],
        [onAlice, "alice", "selected"],
      ],
    );
    for (const installation of list) assertSchema("installation", installation);
    assert.equal((await json("GET", `/app/installations/${onAcme}`, 200)).target_type, "Organization");
    assert.equal((await send("GET", "/app/installations/999999")).statusCode, 404);
  });

  test("finds the installation of a repository, an organization and a user", async () => {
    assert.equal((await json("GET", "/repos/acme/site/installation", 200)).id, onAcme);
    assert.equal((await json("GET", "/repos/alice/hello/installation", 200)).id, onAlice);
    assert.equal((await send("GET", "/repos/alice/secret/installation")).statusCode, 404);
    assert.equal((await json("GET", "/orgs/acme/installation", 200)).id, onAcme);
    assert.equal((await json("GET", "/users/alice/installation", 200)).id, onAlice);
    assert.equal((await send("GET", "/users/bob/installation")).statusCode, 404);
  });

  test("mints a token an hour long, narrowed to what is asked; 422 past the installation", async () => {
    const token = await json("POST", `/app/installations/${onAcme}/access_tokens`, 201, {
      repositories: ["site"],
      permissions: { issues: "read" },
    });
    assertSchema("installation-token", token);
    assert.match(token.token, /^ghs_/);
    // An hour from the mint, by a clock that runs here: within the second the request took.
    const lasts = Date.parse(token.expires_at) - t.clock.now().getTime();
    assert.ok(lasts > 3_598_000 && lasts <= 3_600_000, `${lasts} ms`);
    assert.equal(token.repository_selection, "selected");
    assert.deepEqual(
      token.repositories.map((r: Json) => r.full_name),
      ["acme/site"],
    );
    const repos = await t.app.inject({
      method: "GET",
      url: "/installation/repositories",
      headers: { authorization: `token ${token.token}` },
    });
    assert.equal(repos.statusCode, 200, repos.body);
    assert.deepEqual(JSON.parse(repos.body).total_count, 1);
    for (const wider of [
      { permissions: { issues: "admin" } },
      { permissions: { contents: "read" } },
      { repositories: ["secret"] },
    ]) {
      const res = await send("POST", `/app/installations/${onAlice}/access_tokens`, wider);
      assert.equal(res.statusCode, 422, JSON.stringify(wider));
      assert.equal(JSON.parse(res.body).message, "Validation Failed");
    }
  });

  test("each installation has a rate-limit window of its own, scaled by its repositories over 20", async () => {
    const base = Number(
      (await t.app.inject({ method: "GET", url: "/rate_limit", headers: { authorization: `token ${ALICE_TOKEN}` } }))
        .headers["x-ratelimit-limit"],
    );
    const windowOf = async (installation: number) => {
      const { token } = await json("POST", `/app/installations/${installation}/access_tokens`, 201);
      const res = await t.app.inject({
        method: "GET",
        url: "/installation/repositories",
        headers: { authorization: `token ${token}` },
      });
      return { limit: Number(res.headers["x-ratelimit-limit"]), used: Number(res.headers["x-ratelimit-used"]) };
    };
    const other = await windowOf(onAcme);
    const first = await windowOf(onAlice);
    const again = await windowOf(onAlice);
    assert.equal(first.limit, base, "a small installation: the authenticated limit");
    assert.equal(again.used, first.used + 1, "a new token of the same installation counts in its window");
    assert.equal((await windowOf(onAcme)).used, other.used + 1, "another installation's window is its own");
    // 25 repositories: five over 20, each a hundredth of the base more (GitHub: 50 an hour on 5,000).
    await new IngestService(t.store, t.clock.now).seedWorld(
      {
        users: [{ login: "many-repos" }],
        repos: Array.from({ length: 25 }, (_, i) => ({ full_name: `many-repos/r${i}` })),
      },
      { baseDir: undefined },
    );
    // Another app's installation, so that this app's list stays as the other tests read it.
    const scaler = await registerApp(t, { owner: "alice", name: "Scaler" });
    const installed = await scaler.install("many-repos");
    const minted = await t.app.inject({
      method: "POST",
      url: `/app/installations/${installed.id}/access_tokens`,
      headers: { authorization: `Bearer ${await scaler.jwt()}` },
    });
    const scaled = await t.app.inject({
      method: "GET",
      url: "/installation/repositories",
      headers: { authorization: `token ${JSON.parse(minted.body).token}` },
    });
    assert.equal(Number(scaled.headers["x-ratelimit-limit"]), base + Math.floor((base * 5) / 100));
  });

  test("X-GitHub-Stateless-S2S-Token: enabled mints GitHub's stateless form, which acts and revokes as any token", async () => {
    const mint = async (choice: string) => {
      const res = await t.app.inject({
        method: "POST",
        url: `/app/installations/${onAlice}/access_tokens`,
        headers: { authorization: `Bearer ${await bot.jwt()}`, "x-github-stateless-s2s-token": choice },
      });
      assert.equal(res.statusCode, 201, res.body);
      return (JSON.parse(res.body) as { token: string }).token;
    };
    const stateless = await mint("enabled");
    assert.match(stateless, new RegExp(`^ghs_${bot.app.id}_eyJ[\\w-]*\\.[\\w-]+\\.[\\w-]+$`));
    assert.match(stateless, /^ghs_[A-Za-z0-9._]{36,}$/, "GitHub's published pattern for it");
    assert.match(await mint("disabled"), /^ghs_[0-9A-Za-z]{36}$/);
    const as = (method: "GET" | "DELETE", url: string) =>
      t.app.inject({ method, url, headers: { authorization: `token ${stateless}` } });
    assert.equal((await as("GET", "/installation/repositories")).statusCode, 200);
    assert.equal((await as("DELETE", "/installation/token")).statusCode, 204);
    assert.equal((await as("GET", "/installation/repositories")).statusCode, 401);
  });

  test("DELETE /installation/token revokes the token it is sent with", async () => {
    const { token } = await json("POST", `/app/installations/${onAlice}/access_tokens`, 201);
    const revoke = () =>
      t.app.inject({ method: "DELETE", url: "/installation/token", headers: { authorization: `token ${token}` } });
    assert.equal((await revoke()).statusCode, 204);
    assert.equal((await revoke()).statusCode, 401);
  });

  test("a suspended installation mints nothing until unsuspended", async () => {
    assert.equal((await send("PUT", `/app/installations/${onAlice}/suspended`)).statusCode, 204);
    assert.ok((await json("GET", `/app/installations/${onAlice}`, 200)).suspended_at);
    const refused = await send("POST", `/app/installations/${onAlice}/access_tokens`);
    assert.equal(refused.statusCode, 403);
    assert.equal((await send("DELETE", `/app/installations/${onAlice}/suspended`)).statusCode, 204);
    assert.equal((await send("POST", `/app/installations/${onAlice}/access_tokens`)).statusCode, 201);
  });

  test("@octokit/app walks the installations and their repositories, and acts as an installation", async () => {
    const url = await t.app.listen({ host: "127.0.0.1", port: 0 });
    const octokitApp = new App({
      appId: bot.app.id,
      privateKey: bot.pem,
      Octokit: (await import("@octokit/core")).Octokit.defaults({ baseUrl: url }),
    });
    const seen: string[] = [];
    for await (const { installation } of octokitApp.eachInstallation.iterator())
      seen.push(installation.account!.login!);
    assert.deepEqual(seen, ["acme", "alice"]);
    const repos: string[] = [];
    for await (const { repository } of octokitApp.eachRepository.iterator()) repos.push(repository.full_name);
    assert.deepEqual(repos.sort(), ["acme/site", "alice/hello"]);
    const octokit = await octokitApp.getInstallationOctokit(onAlice);
    const issue = await octokit.request("POST /repos/{owner}/{repo}/issues", {
      owner: "alice",
      repo: "hello",
      title: "Opened by the app",
    });
    assert.equal(issue.data.user?.login, "issue-bot[bot]");
  });
});

describe("a person changing an installation's repositories", () => {
  test("adds and removes repositories, each an installation_repositories webhook to the app; refuses what GitHub refuses", async () => {
    const t = await startTestApp();
    const hook = receiver();
    try {
      await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
      const bot = await registerApp(t, { owner: "alice", webhookUrl: await hook.listen() });
      const { id } = await bot.install("alice", ["hello"]);
      const onAcme = (await bot.install("acme")).id;
      await t.app.ready(); // the dispatcher starts with the app
      await hook.until(2); // installation.created, twice
      const wireId = async (fullName: string) => {
        const [owner, name] = fullName.split("/") as [string, string];
        return (await t.store.directory.findRepo(owner, name))!.wireId;
      };
      const basic = (login: string) => `Basic ${Buffer.from(`${login}:${login}-password`).toString("base64")}`;
      const change = async (method: "PUT" | "DELETE", installation: number, repo: string, login = "alice") =>
        t.app.inject({
          method,
          url: `/user/installations/${installation}/repositories/${await wireId(repo)}`,
          headers: { authorization: basic(login) },
        });
      const covered = async () => (await t.store.apps.installation(id))!.repositoryIds.length;

      assert.equal((await change("PUT", id, "alice/secret")).statusCode, 204);
      await hook.until(3);
      const added = JSON.parse(hook.received[2]!.body) as Json;
      assert.equal(hook.received[2]!.headers["x-github-event"], "installation_repositories");
      assert.deepEqual(
        [added.action, added.installation.id, added.repository_selection, added.sender.login],
        ["added", id, "selected", "alice"],
      );
      assert.deepEqual(
        [added.repositories_added.map((r: Json) => r.full_name), added.repositories_removed],
        [["alice/secret"], []],
      );
      assert.equal(await covered(), 2);
      assert.equal((await change("PUT", id, "alice/secret")).statusCode, 204, "covered already: nothing changes");

      assert.equal((await change("DELETE", id, "alice/hello")).statusCode, 204);
      await hook.until(4);
      const removed = JSON.parse(hook.received[3]!.body) as Json;
      assert.deepEqual(
        [removed.action, removed.repositories_removed.map((r: Json) => r.full_name)],
        ["removed", ["alice/hello"]],
      );
      assert.equal((await change("DELETE", id, "alice/secret")).statusCode, 422, "the last one stays");
      assert.equal((await change("DELETE", onAcme, "acme/site")).statusCode, 422, "an installation on all of them");
      assert.equal((await change("PUT", id, "bob/tools")).statusCode, 404, "another account's repository");
      assert.equal((await change("PUT", id, "alice/hello", "bob")).statusCode, 404, "not bob's installation");
      const asApp = await t.app.inject({
        method: "PUT",
        url: `/user/installations/${id}/repositories/${await wireId("alice/hello")}`,
        headers: { authorization: `Bearer ${await bot.jwt()}` },
      });
      assert.equal(asApp.statusCode, 403, "the app's JWT is not a person");
      assert.equal(await covered(), 1);
      assert.equal(hook.received.length, 4, "a refusal sends nothing");
    } finally {
      await hook.close();
      await t.close();
    }
  });
});

describe("apps in a world file", () => {
  test("registers apps and installations with their ids as given, keeping only the public key", async () => {
    const t = await startTestApp();
    try {
      const { generateKeyPairSync } = await import("node:crypto");
      const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
      const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
      const world = {
        ...WORLD,
        apps: [
          {
            id: 1001,
            slug: "issue-bot",
            name: "Issue Bot",
            owner: "acme",
            client_id: "Iv23liAbCdEf0123456789",
            client_secret: "0123456789abcdef0123456789abcdef01234567",
            private_key: pem,
            permissions: { issues: "write" },
            events: ["issues", "issue_comment"],
            installations: [
              { id: 2001, account: "acme", repositories: "all" },
              { id: 2002, account: "alice", repositories: ["alice/hello"] },
            ],
          },
        ],
      };
      const ingest = new IngestService(t.store, t.clock.now);
      await ingest.seedWorld(world, { baseDir: undefined });
      await ingest.seedWorld(world, { baseDir: undefined }); // idempotent
      const app = (await t.store.apps.byId(1001))!;
      assert.equal(app.clientId, "Iv23liAbCdEf0123456789");
      assert.match(app.publicKey, /^-----BEGIN PUBLIC KEY-----/);
      assert.ok(!JSON.stringify(app).includes("0123456789abcdef0123456789abcdef01234567"));
      assert.deepEqual(
        (await t.store.apps.installations(1001)).map((i) => [i.id, i.repositorySelection, i.repositoryIds.length]),
        [
          [2001, "all", 0],
          [2002, "selected", 1],
        ],
      );
      await assert.rejects(
        ingest.seedWorld({ apps: [{ name: "x", owner: "acme", public_key: "not a key" }] }, { baseDir: undefined }),
        /apps\[0\]\.public_key: must be an RSA key in PEM/,
      );
      // A webhook secret with nothing to seal it: refused before any of the world is stored, never kept unsigned.
      const unsealable = {
        users: [{ login: "unsealed-owner" }],
        apps: [
          {
            name: "Unsealed",
            owner: "unsealed-owner",
            private_key: pem,
            webhook_url: "http://127.0.0.1:9/",
            webhook_secret: "s",
          },
        ],
      };
      await assert.rejects(
        ingest.seedWorld(unsealable, { baseDir: undefined }),
        /apps\[0\]\.webhook_secret: cannot be sealed here/,
      );
      assert.equal(await t.store.users.findByLogin("unsealed-owner"), null);
    } finally {
      await t.close();
    }
  });
});

describe("app routes and hostile input", () => {
  test("installation ids past any integer and narrowings of the wrong types are 404 and 422, never 500", async () => {
    const t = await startTestApp();
    try {
      await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
      const bot = await registerApp(t, { owner: "alice" });
      const { id } = await bot.install("alice");
      const send = async (url: string, payload?: object) =>
        t.app.inject({ method: "POST", url, headers: { authorization: `Bearer ${await bot.jwt()}` }, payload });
      assert.equal((await send("/app/installations/99999999999999999999999/access_tokens")).statusCode, 404);
      for (const body of [
        { repositories: [123] },
        { repository_ids: ["1e400"] },
        { repository_ids: [-1] },
        { permissions: { issues: 5 } },
      ]) {
        const res = await send(`/app/installations/${id}/access_tokens`, body);
        assert.equal(res.statusCode, 422, `${JSON.stringify(body)}: ${res.body}`);
      }
    } finally {
      await t.close();
    }
  });
});
