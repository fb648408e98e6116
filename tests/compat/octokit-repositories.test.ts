/**
 * The latest @octokit/rest (22.x), unmodified, managing repositories against a live feedgate: it creates one, edits
 * and renames it (and follows GitHub's redirect from the old name), forks another, lists them, and deletes one; the
 * feed events are checked in the same test, and the webhooks are verified with @octokit/webhooks.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { Octokit } from "octokit-rest-latest";
import { Webhooks } from "@octokit/webhooks";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { ALICE_TOKEN, BOB_TOKEN } from "../helpers/client-world.js";
import { receiver } from "../helpers/webhook-receiver.js";
import { assertSchema, compileSchemas } from "./schemas.js";

const SECRET = "repo-secret";

describe("@octokit/rest 22 managing repositories, its webhooks verified by @octokit/webhooks", () => {
  let t: ListeningApp;
  const hook = receiver();
  const as = (auth: string) => new Octokit({ baseUrl: t.url, auth });

  before(async () => {
    // Compiled before any delivery is in flight (compileSchemas says why).
    compileSchemas("full-repository");
    t = await startListeningApp();
    // Organization hooks take `admin:org_hook`, which alice's token has not: her password makes it.
    await new Octokit({ baseUrl: t.url }).orgs.createWebhook({
      org: "acme",
      name: "web",
      config: { url: await hook.listen(), content_type: "json", secret: SECRET },
      events: ["repository", "fork"],
      headers: { authorization: `Basic ${Buffer.from("alice:alice-password").toString("base64")}` },
    });
  });
  after(async () => {
    await t.close();
    await hook.close();
  });

  test("create in an organization, edit, rename and read through the redirect, fork, list, delete", async () => {
    const alice = as(ALICE_TOKEN);
    const created = await alice.repos.createInOrg({ org: "acme", name: "bot-made", description: "By a bot" });
    assert.equal(created.status, 201);
    assertSchema("full-repository", created.data);
    assert.deepEqual([created.data.full_name, created.data.default_branch], ["acme/bot-made", "main"]);
    const labels = await alice.issues.listLabelsForRepo({ owner: "acme", repo: "bot-made", per_page: 100 });
    assert.equal(labels.data.length, 9, "GitHub's nine labels");

    const edited = await alice.repos.update({ owner: "acme", repo: "bot-made", homepage: "https://bot.example" });
    assert.equal(edited.data.homepage, "https://bot.example");
    const renamed = await alice.repos.update({ owner: "acme", repo: "bot-made", name: "bot-renamed" });
    assert.equal(renamed.data.full_name, "acme/bot-renamed");
    // Octokit follows GitHub's 301 from the old name to /repositories/{id}.
    const followed = await alice.repos.get({ owner: "acme", repo: "bot-made" });
    assert.deepEqual([followed.status, followed.data.full_name], [200, "acme/bot-renamed"]);

    const fork = await as(BOB_TOKEN).repos.createFork({ owner: "acme", repo: "bot-renamed" });
    assert.equal(fork.status, 202);
    assertSchema("full-repository", fork.data);
    assert.deepEqual([fork.data.full_name, fork.data.parent?.full_name], ["bob/bot-renamed", "acme/bot-renamed"]);
    const forks = await alice.repos.listForks({ owner: "acme", repo: "bot-renamed" });
    assert.deepEqual(
      forks.data.map((r) => r.full_name),
      ["bob/bot-renamed"],
    );
    const mine = await alice.paginate(alice.repos.listForOrg, { org: "acme", per_page: 1 });
    assert.deepEqual(mine.map((r) => r.full_name).sort(), ["acme/bot-renamed", "acme/site"]);
    const [forkEvent] = (await alice.activity.listRepoEvents({ owner: "acme", repo: "bot-renamed" })).data;
    assert.deepEqual([forkEvent?.type, forkEvent?.actor.login], ["ForkEvent", "bob"]);

    await assert.rejects(as(BOB_TOKEN).repos.delete({ owner: "acme", repo: "bot-renamed" }), { status: 403 });
    assert.equal(
      (
        await as(ALICE_TOKEN)
          .request("DELETE /repos/{owner}/{repo}", { owner: "bob", repo: "bot-renamed" })
          .catch((e) => e)
      ).status,
      403,
      "alice administers bob's fork no more than he does hers",
    );

    const webhooks = new Webhooks({ secret: SECRET });
    const seen: string[] = [];
    webhooks.on("repository", ({ payload }) => {
      seen.push(`repository.${payload.action}`);
    });
    webhooks.on("fork", ({ payload }) => {
      seen.push("fork");
      assert.equal(payload.forkee.full_name, "bob/bot-renamed");
    });
    await hook.until(5); // the hook's ping, created, edited, renamed, fork
    for (const delivery of hook.received.filter((d) => d.headers["x-github-event"] !== "ping")) {
      assert.ok(await webhooks.verify(delivery.body, String(delivery.headers["x-hub-signature-256"])));
      await webhooks.receive({
        id: String(delivery.headers["x-github-delivery"]),
        name: String(delivery.headers["x-github-event"]) as "repository",
        payload: JSON.parse(delivery.body),
      });
    }
    assert.deepEqual(seen, ["repository.created", "repository.edited", "repository.renamed", "fork"]);
  });
});
