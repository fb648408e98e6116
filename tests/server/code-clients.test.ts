/**
 * The latest @octokit/rest (22.x), unmodified, writing and reading code against a live feedgate, on each driver: a
 * repository made with `auto_init`, files created, updated and deleted through the contents API, a branch made and
 * moved through git data (blob, tree on a base tree, commit, ref), contents read on either branch as JSON and raw.
 * The organization hook's pushes are verified and read with @octokit/webhooks.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { Octokit } from "octokit-rest-latest";
import { Webhooks } from "@octokit/webhooks";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { ALICE_TOKEN } from "../helpers/client-world.js";
import { receiver } from "../helpers/webhook-receiver.js";

const SECRET = "code-secret";
const b64 = (text: string) => Buffer.from(text).toString("base64");

describe("@octokit/rest 22 writing code: contents and git data, pushes verified by @octokit/webhooks", () => {
  let t: ListeningApp;
  const hook = receiver();
  let octokit: Octokit;

  before(async () => {
    t = await startListeningApp();
    octokit = new Octokit({ baseUrl: t.url, auth: ALICE_TOKEN });
    // Organization hooks take `admin:org_hook`, which alice's token has not: her password makes it.
    await new Octokit({ baseUrl: t.url }).request("POST /orgs/{org}/hooks", {
      org: "acme",
      name: "web",
      config: { url: await hook.listen(), content_type: "json", secret: SECRET },
      events: ["push", "create", "delete"],
      headers: { authorization: `Basic ${Buffer.from("alice:alice-password").toString("base64")}` },
    });
  });
  after(async () => {
    await t.close();
    await hook.close();
  });

  test("files through the contents API, a branch through git data, contents read back", async () => {
    const repo = { owner: "acme", repo: "code" };
    await octokit.repos.createInOrg({ org: "acme", name: "code", description: "Code by a bot", auto_init: true });
    const readme = await octokit.repos.getContent({ ...repo, path: "README.md", mediaType: { format: "raw" } });
    assert.equal(readme.data as unknown as string, "# code\nCode by a bot\n");

    const created = await octokit.repos.createOrUpdateFileContents({
      ...repo,
      path: ".github/bot.yml",
      message: "Configure the bot",
      content: b64("greeting: hello\n"),
    });
    assert.equal(created.status, 201);
    const updated = await octokit.repos.createOrUpdateFileContents({
      ...repo,
      path: ".github/bot.yml",
      message: "Greet louder",
      content: b64("greeting: HELLO\n"),
      sha: created.data.content!.sha!,
    });
    assert.equal(updated.status, 200);
    assert.deepEqual(
      (updated.data.commit.parents ?? []).map((p) => p.sha),
      [created.data.commit.sha],
    );
    const stale = await octokit.repos
      .createOrUpdateFileContents({
        ...repo,
        path: ".github/bot.yml",
        message: "m",
        content: b64("x"),
        sha: created.data.content!.sha!,
      })
      .catch((error: { status: number }) => error);
    assert.equal((stale as { status: number }).status, 409);

    // A branch through git data, as bots that open pull requests make one.
    const main = await octokit.git.getRef({ ...repo, ref: "heads/main" });
    const base = await octokit.git.getCommit({ ...repo, commit_sha: main.data.object.sha });
    await octokit.git.createRef({ ...repo, ref: "refs/heads/bot/update", sha: main.data.object.sha });
    const blob = await octokit.git.createBlob({ ...repo, content: "version: 2\n", encoding: "utf-8" });
    const tree = await octokit.git.createTree({
      ...repo,
      base_tree: base.data.tree.sha,
      tree: [{ path: "VERSION", mode: "100644", type: "blob", sha: blob.data.sha }],
    });
    const commit = await octokit.git.createCommit({
      ...repo,
      message: "Bump the version",
      tree: tree.data.sha,
      parents: [main.data.object.sha],
    });
    const moved = await octokit.git.updateRef({ ...repo, ref: "heads/bot/update", sha: commit.data.sha });
    assert.equal(moved.data.object.sha, commit.data.sha);
    const onBranch = await octokit.repos.getContent({ ...repo, path: "VERSION", ref: "bot/update" });
    assert.equal(Buffer.from((onBranch.data as { content: string }).content, "base64").toString(), "version: 2\n");
    const onMain = await octokit.repos.getContent({ ...repo, path: "VERSION" }).catch((e: { status: number }) => e);
    assert.equal((onMain as { status: number }).status, 404);
    const dir = await octokit.repos.getContent({ ...repo, path: "", ref: "bot/update" });
    assert.deepEqual(
      (dir.data as { path: string; type: string }[]).map((e) => `${e.type} ${e.path}`),
      ["dir .github", "file README.md", "file VERSION"],
    );

    const deleted = await octokit.repos.deleteFile({
      ...repo,
      path: ".github/bot.yml",
      message: "No more config",
      sha: updated.data.content!.sha!,
    });
    assert.equal(deleted.data.content, null);
    await octokit.git.deleteRef({ ...repo, ref: "heads/bot/update" });

    // create and push for the branch, push for each commit on main, push and delete when the branch goes.
    const webhooks = new Webhooks({ secret: SECRET });
    const seen: string[] = [];
    webhooks.on("push", ({ payload }) => {
      const changed = payload.commits.flatMap((c) => [...c.added!, ...c.modified!, ...c.removed!]);
      seen.push(`push ${payload.ref} ${payload.created ? "created" : payload.deleted ? "deleted" : changed.join(",")}`);
    });
    webhooks.on("create", ({ payload }) => seen.push(`create ${payload.ref_type} ${payload.ref}`));
    webhooks.on("delete", ({ payload }) => seen.push(`delete ${payload.ref_type} ${payload.ref}`));
    await hook.until(9); // the ping, then eight
    for (const delivery of hook.received.filter((d) => d.headers["x-github-event"] !== "ping")) {
      assert.ok(await webhooks.verify(delivery.body, String(delivery.headers["x-hub-signature-256"])));
      await webhooks.receive({
        id: String(delivery.headers["x-github-delivery"]),
        name: String(delivery.headers["x-github-event"]) as "push",
        payload: JSON.parse(delivery.body),
      });
    }
    assert.deepEqual(seen, [
      "push refs/heads/main .github/bot.yml",
      "push refs/heads/main .github/bot.yml",
      "create branch bot/update",
      "push refs/heads/bot/update created",
      "push refs/heads/bot/update VERSION",
      "push refs/heads/main .github/bot.yml",
      "delete branch bot/update",
      "push refs/heads/bot/update deleted",
    ]);
  });

  test("a pull request opened, listed and squash-merged by Octokit", async () => {
    const repo = { owner: "acme", repo: "pulls" };
    await octokit.repos.createInOrg({ org: "acme", name: "pulls", auto_init: true });
    const main = (await octokit.git.getRef({ ...repo, ref: "heads/main" })).data.object.sha;
    await octokit.git.createRef({ ...repo, ref: "refs/heads/topic", sha: main });
    await octokit.repos.createOrUpdateFileContents({
      ...repo,
      path: "topic.txt",
      message: "Add the topic",
      content: b64("topic\n"),
      branch: "topic",
    });
    const { data: pull } = await octokit.pulls.create({ ...repo, title: "Topic", head: "topic", base: "main" });
    assert.deepEqual([pull.number, pull.mergeable, pull.commits, pull.base.sha], [1, true, 1, main]);
    const listed = await octokit.paginate(octokit.pulls.list, { ...repo, head: "acme:topic" });
    assert.deepEqual(
      listed.map((p) => p.number),
      [1],
    );
    const files = await octokit.pulls.listFiles({ ...repo, pull_number: 1 });
    assert.deepEqual(
      files.data.map((f) => [f.filename, f.status]),
      [["topic.txt", "added"]],
    );
    await assert.rejects(octokit.pulls.checkIfMerged({ ...repo, pull_number: 1 }), { status: 404 });
    const merged = await octokit.pulls.merge({ ...repo, pull_number: 1, merge_method: "squash", sha: pull.head.sha });
    const commit = (await octokit.git.getCommit({ ...repo, commit_sha: merged.data.sha })).data;
    assert.deepEqual([commit.parents.map((p) => p.sha), commit.message], [[main], "Topic (#1)\n\n* Add the topic"]);
    assert.equal((await octokit.pulls.checkIfMerged({ ...repo, pull_number: 1 })).status, 204);
    const after = (await octokit.pulls.get({ ...repo, pull_number: 1 })).data;
    assert.deepEqual([after.state, after.merged, after.merge_commit_sha], ["closed", true, merged.data.sha]);
  });
});
