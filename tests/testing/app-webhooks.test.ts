/**
 * A GitHub App's webhook: what happens on the repositories its installations cover is delivered to the app's URL,
 * signed with its secret, with `installation` in the payload and the app named in GitHub's target headers; and the
 * loop a Probot-style app runs (a delivery in, an installation token, a comment out) works through @octokit/app.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { App, createNodeMiddleware } from "@octokit/app";
import { Octokit } from "@octokit/core";
import { Webhooks } from "@octokit/webhooks";
import { startFeedgate } from "../../src/testing/index.js";
import { installationNodeId } from "../../src/server/convert/app.js";
import { until } from "../helpers/wait.js";

const WORLD = {
  users: [{ login: "alice" }, { login: "bob" }],
  repos: [{ full_name: "alice/hello" }, { full_name: "alice/other" }, { full_name: "bob/elsewhere" }],
};

interface Arrived {
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

async function listening(handle: Parameters<typeof createServer>[1]) {
  const server = createServer(handle);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A receiver that keeps every request, its bytes as they came, and answers 200. */
async function capturing() {
  const arrived: Arrived[] = [];
  const { server, url } = await listening((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      arrived.push({ url: request.url, headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.end("ok");
    });
  });
  return { server, url, arrived };
}

test("an app's webhook gets installation.created, then its installation's events, signed, with installation and the app's target headers", async () => {
  await using fg = await startFeedgate({ world: WORLD });
  const { server, url, arrived } = await capturing();
  try {
    const bot = await fg.githubApp({
      name: "Triage",
      owner: "alice",
      permissions: { issues: "write" },
      events: ["issues"],
      webhookUrl: `${url}/hook`,
    });
    const installation = await bot.install("alice", ["hello"]);
    // First GitHub's installation.created, made from the installation at its first attempt.
    await until(() => arrived.length >= 1, "the installation webhook");
    const webhooks = new Webhooks({ secret: bot.webhookSecret });
    const [installed] = arrived;
    assert.equal(installed!.headers["x-github-event"], "installation");
    assert.ok(await webhooks.verify(installed!.body, String(installed!.headers["x-hub-signature-256"])));
    const created = JSON.parse(installed!.body);
    assert.deepEqual(
      [created.action, created.installation.id, created.installation.account.login, created.installation.app_id],
      ["created", installation.id, "alice", bot.id],
    );
    assert.deepEqual(
      created.repositories.map((r: { full_name: string; private: boolean }) => [r.full_name, r.private]),
      [["alice/hello", false]],
    );
    assert.deepEqual([created.requester, created.sender.login], [null, "alice"]);
    const alice = await fg.token("alice");
    const bob = await fg.token("bob");
    const open = (repo: string, token: string, title: string) =>
      fetch(`${fg.url}/repos/${repo}/issues`, {
        method: "POST",
        headers: { authorization: `token ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ title }),
      });
    // Outside the installation: another repository of alice's, and bob's. Then one it covers.
    assert.equal((await open("alice/other", alice, "Not selected")).status, 201);
    assert.equal((await open("bob/elsewhere", bob, "Not installed")).status, 201);
    assert.equal((await open("alice/hello", alice, "Covered")).status, 201);
    await until(() => arrived.length >= 2, "the app's delivery");

    const delivery = arrived[1];
    assert.equal(delivery!.headers["x-github-event"], "issues");
    assert.equal(delivery!.headers["x-github-hook-installation-target-type"], "integration");
    assert.equal(delivery!.headers["x-github-hook-installation-target-id"], String(bot.id));
    const payload = JSON.parse(delivery!.body);
    assert.equal(payload.action, "opened");
    assert.equal(payload.issue.title, "Covered");
    assert.deepEqual(payload.installation, { id: installation.id, node_id: installationNodeId(installation.id) });
    assert.deepEqual(Object.keys(payload).slice(-1), ["installation"]);
    assert.ok(await webhooks.verify(delivery!.body, String(delivery!.headers["x-hub-signature-256"])));

    // A little later nothing else came: the two repositories outside the installation made no delivery.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(
      arrived.map((a) => JSON.parse(a.body).issue?.title),
      [undefined, "Covered"],
    );

    // The app sees its webhook with its JWT: the config (the secret masked), the delivery, and a redelivery of it.
    const app = new App({ appId: bot.id, privateKey: bot.privateKey, Octokit: Octokit.defaults({ baseUrl: fg.url }) });
    const { data: config } = await app.octokit.request("GET /app/hook/config");
    assert.deepEqual(config, { content_type: "json", insecure_ssl: "0", url: `${url}/hook`, secret: "********" });
    const { data: deliveries } = await app.octokit.request("GET /app/hook/deliveries");
    assert.deepEqual(
      deliveries.map((d) => [d.event, d.action, d.status_code, d.guid]),
      [
        ["issues", "opened", 200, delivery!.headers["x-github-delivery"]],
        ["installation", "created", 200, installed!.headers["x-github-delivery"]],
      ],
    );
    const deliveryId = Number(deliveries[0]!.id);
    const { data: shown } = await app.octokit.request("GET /app/hook/deliveries/{delivery_id}", {
      delivery_id: deliveryId,
    });
    assert.equal((shown.request.payload as { installation: { id: number } }).installation.id, installation.id);
    const again = await app.octokit.request("POST /app/hook/deliveries/{delivery_id}/attempts", {
      delivery_id: deliveryId,
    });
    assert.equal(again.status, 202);
    await until(() => arrived.length >= 3, "the redelivery");
    assert.equal(arrived[2]!.headers["x-github-delivery"], delivery!.headers["x-github-delivery"]);
    assert.equal(arrived[2]!.body, delivery!.body, "the same bytes, installation included once");

    // A new URL takes the next delivery; a token is not the app, and bob's own app has no webhook at all.
    // `data`: Octokit would take a `url` parameter for the request's own URL.
    const { data: moved } = await app.octokit.request("PATCH /app/hook/config", { data: { url: `${url}/moved` } });
    assert.equal(moved.url, `${url}/moved`);
    assert.equal((await open("alice/hello", alice, "Moved")).status, 201);
    await until(() => arrived.length >= 4, "the delivery to the new URL");
    assert.equal(arrived[3]!.url, "/moved");
    const asToken = await fetch(`${fg.url}/app/hook/config`, { headers: { authorization: `token ${alice}` } });
    assert.equal(asToken.status, 401);
    const silent = await fg.githubApp({ name: "Silent", owner: "bob", permissions: { issues: "read" }, events: [] });
    const silentApp = new App({
      appId: silent.id,
      privateKey: silent.privateKey,
      Octokit: Octokit.defaults({ baseUrl: fg.url }),
    });
    await assert.rejects(silentApp.octokit.request("GET /app/hook/config"), { status: 404 });
  } finally {
    server.close();
  }
});

test("a repository deleted in an organization reaches the apps installed on the organization, with the installation", async () => {
  await using fg = await startFeedgate({
    world: {
      users: [{ login: "alice", password: "alice-password" }],
      orgs: [{ login: "acme", owners: ["alice"] }],
      repos: [{ full_name: "acme/site" }, { full_name: "acme/docs" }],
    },
  });
  const receiver = await fg.receiver();
  const bot = await fg.githubApp({ owner: "alice", permissions: {}, events: ["repository"], webhookUrl: receiver.url });
  // Selected repositories: a repository's deletion is the organization's event, whatever the installation selected.
  const { id } = await bot.install("acme", ["docs"]);
  await receiver.next({ event: "installation" });
  const deleted = await fetch(`${fg.url}/repos/acme/site`, {
    method: "DELETE",
    headers: { authorization: `Basic ${Buffer.from("alice:alice-password").toString("base64")}` },
  });
  assert.equal(deleted.status, 204);
  const delivery = await receiver.next({ event: "repository" });
  const payload = delivery.body as { action: string; repository: { full_name: string }; installation: { id: number } };
  assert.deepEqual(
    [payload.action, payload.repository.full_name, payload.installation.id],
    ["deleted", "acme/site", id],
  );
  assert.equal(delivery.headers["x-github-hook-installation-target-id"], String(bot.id));
});

test("a world file's app webhook secret signs its deliveries, and is stored sealed", async () => {
  const { server, url, arrived } = await capturing();
  try {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const secret = "world-file-webhook-secret";
    await using fg = await startFeedgate({
      world: {
        ...WORLD,
        apps: [
          {
            id: 1001,
            slug: "world-bot",
            owner: "alice",
            private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
            webhook_url: `${url}/world`,
            webhook_secret: secret,
            permissions: { issues: "write" },
            events: ["issues"],
            installations: [{ id: 2001, account: "alice", repositories: ["alice/hello"] }],
          },
        ],
      },
    });
    await until(() => arrived.length >= 1, "installation.created");
    const { headers, body } = arrived[0]!;
    assert.equal(headers["x-github-event"], "installation");
    assert.ok(await new Webhooks({ secret }).verify(body, String(headers["x-hub-signature-256"])));
    const [hook] = (await fg.store.hooks.list({ kind: "app", appId: 1001 }, { limit: 1, offset: 0 })).rows;
    assert.ok(hook?.config.sealedSecret && !hook.config.sealedSecret.includes(secret), "sealed, not as written");
  } finally {
    server.close();
  }
});

test("suspending, unsuspending and deleting an installation through the JWT routes is each GitHub's installation webhook", async () => {
  await using fg = await startFeedgate({ world: WORLD });
  const { server, url, arrived } = await capturing();
  try {
    const bot = await fg.githubApp({
      name: "Lifecycle",
      owner: "alice",
      permissions: { issues: "write" },
      events: ["issues"],
      webhookUrl: `${url}/hook`,
    });
    const { id } = await bot.install("alice", ["hello"]);
    await until(() => arrived.length >= 1, "installation.created");
    const app = new App({ appId: bot.id, privateKey: bot.privateKey, Octokit: Octokit.defaults({ baseUrl: fg.url }) });
    const webhooks = new Webhooks({ secret: bot.webhookSecret });
    /** The payload of the n-th delivery, once it came, checked as @octokit/webhooks checks a signature. */
    const payloadOf = async (n: number, what: string) => {
      await until(() => arrived.length >= n, what);
      const { headers, body } = arrived[n - 1]!;
      assert.equal(headers["x-github-event"], "installation");
      assert.ok(await webhooks.verify(body, String(headers["x-hub-signature-256"])), what);
      return JSON.parse(body) as {
        action: string;
        installation: { id: number; suspended_at: string | null };
        repositories: { full_name: string }[];
        sender: { login: string };
      };
    };

    await app.octokit.request("PUT /app/installations/{installation_id}/suspended", { installation_id: id });
    const suspended = await payloadOf(2, "installation.suspend");
    assert.equal(suspended.action, "suspend");
    assert.equal(suspended.installation.id, id);
    assert.notEqual(suspended.installation.suspended_at, null);

    await app.octokit.request("DELETE /app/installations/{installation_id}/suspended", { installation_id: id });
    const unsuspended = await payloadOf(3, "installation.unsuspend");
    assert.deepEqual([unsuspended.action, unsuspended.installation.suspended_at], ["unsuspend", null]);

    await app.octokit.request("DELETE /app/installations/{installation_id}", { installation_id: id });
    const deleted = await payloadOf(4, "installation.deleted");
    assert.equal(deleted.action, "deleted");
    assert.equal(deleted.installation.id, id, "the installation as it was, though it is gone");
    assert.deepEqual(
      deleted.repositories.map((r) => r.full_name),
      ["alice/hello"],
    );
    assert.equal(deleted.sender.login, "alice");
    assert.equal(arrived[3]!.body.match(/"installation":/g)?.length, 1, "installation once");
    await assert.rejects(app.octokit.request("GET /app/installations/{installation_id}", { installation_id: id }), {
      status: 404,
    });
  } finally {
    server.close();
  }
});

test("@octokit/app answers issues.opened with a comment, as its bot, through the delivery's installation", async () => {
  await using fg = await startFeedgate({ world: WORLD });
  let middleware: ReturnType<typeof createNodeMiddleware> | undefined;
  const { server, url } = await listening((request, response) => void middleware!(request, response));
  try {
    const bot = await fg.githubApp({
      name: "Greeter",
      owner: "alice",
      permissions: { issues: "write" },
      events: ["issues"],
      webhookUrl: `${url}/api/github/webhooks`,
    });
    const app = new App({
      appId: bot.id,
      privateKey: bot.privateKey,
      oauth: { clientId: bot.clientId, clientSecret: bot.clientSecret },
      webhooks: { secret: bot.webhookSecret },
      Octokit: Octokit.defaults({ baseUrl: fg.url }),
    });
    middleware = createNodeMiddleware(app);
    app.webhooks.on("issues.opened", async ({ octokit, payload }) => {
      await octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
        owner: payload.repository.owner.login,
        repo: payload.repository.name,
        issue_number: payload.issue.number,
        body: `Thanks for opening this, @${payload.sender.login}!`,
      });
    });
    await bot.install("alice");
    const alice = await fg.token("alice");
    const opened = await fetch(`${fg.url}/repos/alice/hello/issues`, {
      method: "POST",
      headers: { authorization: `token ${alice}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "Hello" }),
    });
    const issue = (await opened.json()) as { number: number };
    const comments = async () =>
      (await (await fetch(`${fg.url}/repos/alice/hello/issues/${issue.number}/comments`)).json()) as {
        body: string;
        user: { login: string; type: string };
      }[];
    await until(async () => (await comments()).length > 0, "the app's comment");
    const [comment] = await comments();
    assert.equal(comment!.body, "Thanks for opening this, @alice!");
    assert.deepEqual([comment!.user.login, comment!.user.type], ["greeter[bot]", "Bot"]);
  } finally {
    server.close();
  }
});
