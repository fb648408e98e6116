/**
 * octokit-plugin-create-pull-request (6.0.1, unmodified) on the latest @octokit/rest against a live feedgate, on each
 * driver: it opens a pull request whose one commit creates, updates and deletes files (REST's git data, and GitHub's
 * GraphQL for the branch's open pull request), then with `update: true` finds that pull request through GraphQL,
 * force-pushes its branch and edits it. The pull request, its files, their contents and the SHA-1s of blobs, tree and
 * commit are read back over REST and hashed here as git hashes them; the `pull_request` webhooks (verified with
 * @octokit/webhooks, checked against GitHub's schemas) and the PullRequestEvent are those of each step. A user without
 * push access goes through a fork, as the plugin does on GitHub.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { Octokit } from "octokit-rest-latest";
import { createPullRequest, DELETE_FILE } from "octokit-plugin-create-pull-request";
import { Webhooks } from "@octokit/webhooks";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { ALICE_TOKEN, BOB_TOKEN } from "../helpers/client-world.js";
import { receiver, type Received } from "../helpers/webhook-receiver.js";
import { assertWebhook } from "../helpers/webhook-schemas.js";
import { REPOSITORY } from "../helpers/repository.js";

const SECRET = "bot-secret";
const PLUGIN = "octokit-plugin-create-pull-request";
const REPO = { owner: "acme", repo: "bot-target" };
const b64 = (bytes: string | Buffer) => Buffer.from(bytes).toString("base64");
const text = (content: string) => Buffer.from(content, "base64").toString("utf8");

/** Git's SHA-1 of an object: `<type> <length>\0` and its body, hashed here rather than by feedgate's code. */
const gitHash = (type: string, body: Buffer) =>
  createHash("sha1")
    .update(Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]))
    .digest("hex");

/** A tree's body from its entries as REST lists them, in git's order (a directory sorts as if its name ended in /). */
function treeBody(entries: { mode: string; path: string; sha: string; type: string }[]): Buffer {
  const key = (e: { path: string; type: string }) => (e.type === "tree" ? `${e.path}/` : e.path);
  const sorted = [...entries].sort((a, b) => Buffer.compare(Buffer.from(key(a)), Buffer.from(key(b))));
  return Buffer.concat(
    sorted.map((e) =>
      Buffer.concat([Buffer.from(`${e.mode.replace(/^0+/, "")} ${e.path}\0`), Buffer.from(e.sha, "hex")]),
    ),
  );
}

/** A person's line in a commit: a date GitHub answers in UTC is git's seconds with `+0000`. */
const personLine = (p: { name: string; email: string; date: string }) =>
  `${p.name} <${p.email}> ${Math.floor(new Date(p.date).getTime() / 1000)} +0000`;

const BotOctokit = Octokit.plugin(createPullRequest);

describe(`${PLUGIN} on @octokit/rest 22: a pull request with file changes, then updated`, () => {
  let t: ListeningApp;
  const hook = receiver();
  /** Each request the plugin made, as `METHOD /path` (its templates, as it wrote them). */
  const calls: string[] = [];
  const as = (auth: string) => {
    const octokit = new BotOctokit({ baseUrl: t.url, auth });
    octokit.hook.before("request", (options) => {
      calls.push(`${options.method} ${options.url}`);
    });
    return octokit;
  };
  const alice = () => as(ALICE_TOKEN);
  /** The `pull_request` deliveries about pull request `number`, as `action`, in the order they came. */
  const pullDeliveries = (number: number): Received[] =>
    hook.received.filter((d) => d.headers["x-github-event"] === "pull_request" && JSON.parse(d.body).number === number);

  before(async () => {
    t = await startListeningApp();
    await new Octokit({ baseUrl: t.url }).request("POST /orgs/{org}/hooks", {
      org: "acme",
      name: "web",
      config: { url: await hook.listen(), content_type: "json", secret: SECRET },
      events: ["pull_request"],
      headers: { authorization: `Basic ${Buffer.from("alice:alice-password").toString("base64")}` },
    });
    const octokit = alice();
    await octokit.repos.createInOrg({ org: "acme", name: REPO.repo, description: "A bot's target", auto_init: true });
    for (const [path, content] of [
      ["config.txt", "level: 1\n"],
      ["docs/old.md", "# Old\n"],
    ] as const)
      await octokit.repos.createOrUpdateFileContents({ ...REPO, path, message: `Add ${path}`, content: b64(content) });
    await hook.until(1); // the ping
  });
  after(async () => {
    await t.close();
    await hook.close();
  });

  test("the plugin is the pinned, unmodified release", () => {
    const project = JSON.parse(readFileSync(`${REPOSITORY}/package.json`, "utf8")) as {
      devDependencies: Record<string, string>;
    };
    const installed = JSON.parse(readFileSync(`${REPOSITORY}/node_modules/${PLUGIN}/package.json`, "utf8")) as {
      version: string;
    };
    // Its bundle says "0.0.0-development" of itself (createPullRequest.VERSION): the package's own file is the one.
    assert.deepEqual([project.devDependencies[PLUGIN], installed.version], ["6.0.1", "6.0.1"]);
  });

  test("opens one: files created, updated and deleted in one commit, its SHA-1s git's, its webhook and event", async () => {
    const logo = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
    const author = { name: "Refresh Bot", email: "bot@example.com", date: "2026-01-10T12:00:00Z" };
    const main = (await alice().git.getRef({ ...REPO, ref: "heads/main" })).data.object.sha;
    calls.length = 0;
    const opened = await alice().createPullRequest({
      ...REPO,
      title: "Bot: refresh",
      body: "Made by a bot.",
      head: "bot/refresh",
      labels: ["enhancement"],
      changes: [
        {
          files: {
            "new.txt": "A new file\n",
            "config.txt": ({ exists, content }) => (exists ? text(content).replace("1", "2") : null),
            "docs/old.md": DELETE_FILE,
            "logo.bin": { content: b64(logo), encoding: "base64" },
          },
          commit: "Refresh the files",
          author,
        },
      ],
    });
    assert.ok(opened);
    assert.equal(opened.status, 201);
    const number = opened.data.number;
    assert.deepEqual(
      [opened.data.title, opened.data.body, opened.data.head.label, opened.data.base.ref, opened.data.state],
      ["Bot: refresh", "Made by a bot.", "acme:bot/refresh", "main", "open"],
    );
    assert.ok(calls.includes("POST /graphql"), "it asked GraphQL for the branch's pull request");
    assert.ok(calls.includes("POST /repos/{owner}/{repo}/git/refs"), "the branch was new: made, not moved");

    // Over REST: the pull request, its files and their SHA-1s.
    const octokit = alice();
    const pull = (await octokit.pulls.get({ ...REPO, pull_number: number })).data;
    assert.deepEqual(
      pull.labels.map((l) => l.name),
      ["enhancement"],
    );
    const files = (await octokit.pulls.listFiles({ ...REPO, pull_number: number })).data;
    const bodies: Record<string, Buffer> = {
      "new.txt": Buffer.from("A new file\n"),
      "config.txt": Buffer.from("level: 2\n"),
      "logo.bin": logo,
    };
    assert.deepEqual(files.map((f) => [f.filename, f.status]).sort(), [
      ["config.txt", "modified"],
      ["docs/old.md", "removed"],
      ["logo.bin", "added"],
      ["new.txt", "added"],
    ]);
    for (const file of files.filter((f) => f.status !== "removed"))
      assert.equal(file.sha, gitHash("blob", bodies[file.filename]!), file.filename);
    for (const [path, body] of Object.entries(bodies)) {
      const content = (await octokit.repos.getContent({ ...REPO, path, ref: "bot/refresh" })).data as {
        content: string;
        sha: string;
      };
      assert.deepEqual([Buffer.from(content.content, "base64"), content.sha], [body, gitHash("blob", body)]);
    }
    const gone = await octokit.repos.getContent({ ...REPO, path: "docs/old.md", ref: "bot/refresh" }).catch((e) => e);
    assert.equal((gone as { status: number }).status, 404);

    // The commit and its tree, hashed from what REST says of them.
    const commit = (await octokit.git.getCommit({ ...REPO, commit_sha: pull.head.sha })).data;
    assert.deepEqual(
      commit.parents.map((p) => p.sha),
      [main],
    );
    assert.deepEqual([commit.message, commit.author], ["Refresh the files", { ...author, date: author.date }]);
    const tree = (await octokit.git.getTree({ ...REPO, tree_sha: commit.tree.sha })).data;
    assert.deepEqual(tree.tree.map((e) => e.path).sort(), ["README.md", "config.txt", "logo.bin", "new.txt"]);
    assert.equal(gitHash("tree", treeBody(tree.tree as never)), commit.tree.sha);
    const commitBody = [
      `tree ${commit.tree.sha}`,
      `parent ${main}`,
      `author ${personLine(commit.author)}`,
      `committer ${personLine(commit.committer)}`,
      "",
      commit.message,
    ].join("\n");
    assert.equal(gitHash("commit", Buffer.from(commitBody)), pull.head.sha);

    // The webhook of its opening, and its event in the repository's feed.
    await hook.until(3); // the ping, opened, labeled
    assert.deepEqual(
      pullDeliveries(number).map((d) => JSON.parse(d.body).action),
      ["opened", "labeled"],
    );
    const [delivery] = pullDeliveries(number);
    const webhooks = new Webhooks({ secret: SECRET });
    assert.ok(await webhooks.verify(delivery!.body, String(delivery!.headers["x-hub-signature-256"])));
    const payload = JSON.parse(delivery!.body);
    assertWebhook("pull_request", "opened", payload);
    assert.deepEqual([payload.action, payload.pull_request.head.sha], ["opened", pull.head.sha]);
    const events = (await octokit.activity.listRepoEvents(REPO)).data;
    const event = events.find((e) => e.type === "PullRequestEvent");
    assert.ok(event);
    const { action, number: eventNumber } = event.payload as { action?: string; number?: number };
    assert.deepEqual([action, eventNumber], ["opened", number]);

    // Asked again without `update`, the plugin finds the open pull request through GraphQL and refuses.
    await assert.rejects(
      alice().createPullRequest({
        ...REPO,
        title: "Bot: refresh",
        body: "",
        head: "bot/refresh",
        changes: [{ files: { "new.txt": "Again\n" }, commit: "Again" }],
      }),
      { message: `[${PLUGIN}] Pull request already exists: ${pull.html_url}. Set update=true to enable updating` },
    );
  });

  test("with update: true it force-pushes the branch and edits the pull request: synchronize and edited", async () => {
    const octokit = alice();
    const [before] = (await octokit.pulls.list({ ...REPO, head: "acme:bot/refresh" })).data;
    assert.ok(before);
    const seen = pullDeliveries(before.number).length;
    const total = hook.received.length;
    calls.length = 0;
    const updated = await alice().createPullRequest({
      ...REPO,
      title: "Bot: refresh, again",
      body: "Made by a bot, twice.",
      head: "bot/refresh",
      update: true,
      changes: [
        {
          files: {
            "new.txt": "A newer file\n",
            "config.txt": ({ exists, content }) => (exists ? text(content).replace("1", "3") : null),
            "docs/old.md": DELETE_FILE,
          },
          commit: "Refresh the files again",
        },
      ],
    });
    assert.ok(updated);
    assert.deepEqual(
      [updated.status, updated.data.number, updated.data.title],
      [200, before.number, "Bot: refresh, again"],
    );
    assert.ok(calls.includes("PATCH /repos/{owner}/{repo}/git/refs/{ref}"), "the branch existed: moved");
    assert.ok(calls.includes("PATCH /repos/{owner}/{repo}/pulls/{pull_number}"), "the pull request existed: edited");
    assert.ok(!calls.includes("POST /repos/{owner}/{repo}/pulls"));

    const pull = (await octokit.pulls.get({ ...REPO, pull_number: before.number })).data;
    assert.deepEqual([pull.body, pull.state], ["Made by a bot, twice.", "open"]);
    const files = (await octokit.pulls.listFiles({ ...REPO, pull_number: before.number })).data;
    assert.deepEqual(files.map((f) => [f.filename, f.status, f.sha]).sort(), [
      ["config.txt", "modified", gitHash("blob", Buffer.from("level: 3\n"))],
      ["docs/old.md", "removed", files.find((f) => f.filename === "docs/old.md")!.sha],
      ["new.txt", "added", gitHash("blob", Buffer.from("A newer file\n"))],
    ]);
    const open = (await octokit.pulls.list({ ...REPO, state: "all" })).data;
    assert.equal(open.length, 1, "one pull request, updated, not a second");

    await hook.until(total + 2);
    const deliveries = pullDeliveries(before.number).slice(seen);
    // biome-ignore lint/suspicious/noExplicitAny: webhook bodies, read as asserted
    const actions = deliveries.map((d) => JSON.parse(d.body) as Record<string, any>);
    assert.deepEqual(
      actions.map((p) => p.action),
      ["synchronize", "edited"],
    );
    const [sync, edited] = actions;
    assertWebhook("pull_request", "synchronize", sync);
    assertWebhook("pull_request", "edited", edited);
    assert.deepEqual([sync!.before, sync!.after], [before.head.sha, pull.head.sha]);
    assert.deepEqual(edited!.changes.title, { from: "Bot: refresh" });
  });

  test("a user without push access goes through a fork; nothing to change is no pull request", async () => {
    const bob = as(BOB_TOKEN);
    calls.length = 0;
    const options = {
      ...REPO,
      title: "Bob's fix",
      body: "From a fork.",
      head: "fix/typo",
      changes: [{ files: { "README.md": "# bot-target\nA bot's target, fixed\n" }, commit: "Fix the readme" }],
    };
    const opened = await bob.createPullRequest(options);
    assert.ok(opened);
    assert.deepEqual(
      [opened.status, opened.data.head.label, opened.data.head.repo?.full_name],
      [201, "bob:fix/typo", "bob/bot-target"],
    );
    assert.ok(calls.includes("POST /repos/{owner}/{repo}/forks"));

    // Updated: GraphQL finds the pull request from the fork's branch, in the repository it was forked from.
    const again = await as(BOB_TOKEN).createPullRequest({
      ...options,
      update: true,
      changes: [{ files: { "README.md": "# bot-target\nFixed twice\n" }, commit: "Fix it again" }],
    });
    assert.deepEqual([again?.status, again?.data.number], [200, opened.data.number]);
    const files = (await alice().pulls.listFiles({ ...REPO, pull_number: opened.data.number })).data;
    assert.deepEqual(
      files.map((f) => [f.filename, f.sha]),
      [["README.md", gitHash("blob", Buffer.from("# bot-target\nFixed twice\n"))]],
    );

    // With `createWhenEmpty: false`, changes that change nothing open nothing.
    calls.length = 0;
    const empty = await alice().createPullRequest({
      ...REPO,
      title: "Nothing",
      body: "",
      head: "bot/nothing",
      createWhenEmpty: false,
      changes: [{ files: { "config.txt": () => null }, commit: "Nothing", emptyCommit: false }],
    });
    assert.equal(empty, null);
    assert.ok(!calls.some((c) => c.startsWith("POST /repos/{owner}/{repo}/pulls")));
  });
});
