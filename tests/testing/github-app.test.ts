/** `fg.githubApp()`: a GitHub App on the test double, its private key signing what @octokit/app sends. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { App } from "@octokit/app";
import { Octokit } from "@octokit/core";
import { startFeedgate } from "../../src/testing/index.js";

test("an app registered and installed on the double acts as its bot through @octokit/app", async () => {
  await using fg = await startFeedgate({
    world: { users: [{ login: "alice" }], repos: [{ full_name: "alice/hello" }] },
  });
  const bot = await fg.githubApp({ name: "Helper", permissions: { issues: "write" }, events: ["issues"] });
  assert.equal(bot.slug, "helper");
  assert.match(bot.privateKey, /BEGIN PRIVATE KEY/);
  const installation = await bot.install("alice", ["hello"]);
  const app = new App({ appId: bot.id, privateKey: bot.privateKey, Octokit: Octokit.defaults({ baseUrl: fg.url }) });
  const octokit = await app.getInstallationOctokit(installation.id);
  const { data } = await octokit.request("POST /repos/{owner}/{repo}/issues", {
    owner: "alice",
    repo: "hello",
    title: "From the helper",
  });
  assert.equal(data.user?.login, "helper[bot]");
  assert.equal(data.user?.type, "Bot");
});
