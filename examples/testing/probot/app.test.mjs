// The Probot app tested with node:test against feedgate/testing: the double delivers the app's webhooks to Probot's
// own middleware over a real socket, and Probot answers through an installation token the double mints.
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer } from "node:http";
import { after, before, test } from "node:test";
import { createNodeMiddleware, Probot } from "probot";
import { startFeedgate } from "feedgate/testing";
import app from "./app.mjs";

let fg;
let server;

before(async () => {
  fg = await startFeedgate({ world: { users: [{ login: "octocat" }], repos: [{ full_name: "octocat/hello-world" }] } });
  // Probot's middleware behind a socket of its own: the app's webhook URL.
  let middleware;
  server = createServer((request, response) => middleware(request, response));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const bot = await fg.githubApp({
    name: "Greeter",
    owner: "octocat",
    permissions: { issues: "write" },
    events: ["issues"],
    webhookUrl: `http://127.0.0.1:${server.address().port}/api/github/webhooks`,
  });
  await bot.install("octocat");
  const probot = new Probot({
    appId: bot.id,
    privateKey: bot.privateKey,
    secret: bot.webhookSecret,
    baseUrl: fg.url,
    logLevel: "warn",
  });
  middleware = await createNodeMiddleware(app, { probot });
});
after(async () => {
  server.close();
  await fg.close();
});

test("an opened issue gets the app's comment, written by its bot", async () => {
  const token = await fg.token("octocat");
  const opened = await fetch(`${fg.url}/repos/octocat/hello-world/issues`, {
    method: "POST",
    headers: { authorization: `token ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ title: "Hello" }),
  });
  assert.equal(opened.status, 201);
  const { number } = await opened.json();
  let comments = [];
  for (let waited = 0; comments.length === 0 && waited < 10_000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    comments = await (await fetch(`${fg.url}/repos/octocat/hello-world/issues/${number}/comments`)).json();
  }
  assert.equal(comments.length, 1);
  assert.equal(comments[0].body, "Thanks for opening this issue, @octocat!");
  assert.deepEqual([comments[0].user.login, comments[0].user.type], ["greeter[bot]", "Bot"]);
});
