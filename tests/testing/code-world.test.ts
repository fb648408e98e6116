/**
 * Code in feedgate/testing: a world gives a repository files (its default branch's first commit, no event), a bot
 * reads its configuration through the contents API as Probot's config plugin asks for it (raw), `fg.commit` pushes
 * as a person would (PushEvent, a push webhook with the paths it changed), and a reset forgets the commit.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Octokit } from "octokit-rest-latest";
import { startFeedgate, type Feedgate } from "../../src/testing/index.js";

const CONFIG = "daysUntilStale: 60\nstaleLabel: wontfix\n";
const WORLD = {
  users: [{ login: "octocat" }],
  repos: [{ full_name: "octocat/hello", files: { ".github/stale.yml": CONFIG, "README.md": "# hello\n" } }],
};

describe("feedgate/testing: a world's files, a bot reading them, fg.commit pushing", () => {
  let fg: Feedgate;
  let bot: Octokit;
  before(async () => {
    fg = await startFeedgate({ world: WORLD, now: "2026-03-01T09:00:00Z" });
    bot = new Octokit({ baseUrl: fg.url, auth: await fg.token("octocat"), request: { fetch: fg.fetch } });
  });
  after(() => fg.close());

  it("serves the world's files on the default branch, made by its owner, with no event", async () => {
    const config = await bot.rest.repos.getContent({
      owner: "octocat",
      repo: "hello",
      path: ".github/stale.yml",
      mediaType: { format: "raw" },
    });
    assert.equal(config.data as unknown as string, CONFIG);
    const head = await bot.rest.git.getRef({ owner: "octocat", repo: "hello", ref: "heads/main" });
    const commit = await bot.rest.git.getCommit({ owner: "octocat", repo: "hello", commit_sha: head.data.object.sha });
    assert.deepEqual([commit.data.message, commit.data.author.name], ["Initial commit", "octocat"]);
    const events = await bot.rest.activity.listRepoEvents({ owner: "octocat", repo: "hello" });
    assert.deepEqual(events.data, []);
  });

  it("fg.commit pushes as a person would; reset puts the branch back", async () => {
    const inbox = await fg.receiver({ secret: "bot" });
    await bot.rest.repos.createWebhook({
      owner: "octocat",
      repo: "hello",
      config: { url: inbox.url, content_type: "json", secret: "bot" },
      events: ["push"],
    });
    const before = await bot.rest.git.getRef({ owner: "octocat", repo: "hello", ref: "heads/main" });
    const { sha } = await fg.commit("octocat/hello", {
      files: { ".github/stale.yml": "daysUntilStale: 30\n", "README.md": null },
      message: "Stale sooner",
    });
    // Read once, so that the commit is one the store keeps in memory (store/git.ts): the reset must forget it.
    await bot.rest.git.getCommit({ owner: "octocat", repo: "hello", commit_sha: sha });
    const pushed = await inbox.next({ event: "push" });
    assert.equal(pushed.verified, true);
    const body = pushed.body as { after: string; before: string; commits: { modified: string[]; removed: string[] }[] };
    assert.deepEqual([body.before, body.after], [before.data.object.sha, sha]);
    assert.deepEqual(
      body.commits.map((c) => [c.modified, c.removed]),
      [[[".github/stale.yml"], ["README.md"]]],
    );
    const [event] = (await bot.rest.activity.listRepoEvents({ owner: "octocat", repo: "hello" })).data;
    assert.deepEqual([event?.type, event?.actor.login], ["PushEvent", "octocat"]);
    await assert.rejects(fg.commit("octocat/hello", { files: { "a/../b": "x" } }), /not a path git can store/);

    await fg.reset();
    // The reset forgot the token too: a new one reads the branch where the world left it.
    const reader = new Octokit({ baseUrl: fg.url, auth: await fg.token("octocat"), request: { fetch: fg.fetch } });
    const after = await reader.rest.git.getRef({ owner: "octocat", repo: "hello", ref: "heads/main" });
    assert.equal(after.data.object.sha, before.data.object.sha);
    await assert.rejects(reader.rest.git.getCommit({ owner: "octocat", repo: "hello", commit_sha: sha }), {
      status: 404,
    });
  });
  it("fg.commit refuses a repository deleted or reset away since it last committed there", async () => {
    const token = await fg.token("octocat", ["repo", "delete_repo"]);
    const owner = new Octokit({ baseUrl: fg.url, auth: token, request: { fetch: fg.fetch } });
    await owner.rest.repos.createForAuthenticatedUser({ name: "fresh" });
    await fg.commit("octocat/fresh", { files: { "a.txt": "one\n" } });
    await fg.reset();
    await assert.rejects(fg.commit("octocat/fresh", { files: { "a.txt": "two\n" } }), {
      name: "RangeError",
      message: 'commit: no repository "octocat/fresh"',
    });
    const again = new Octokit({
      baseUrl: fg.url,
      auth: await fg.token("octocat", ["repo", "delete_repo"]),
      request: { fetch: fg.fetch },
    });
    await fg.commit("octocat/hello", { files: { "a.txt": "three\n" } });
    await again.rest.repos.delete({ owner: "octocat", repo: "hello" });
    await assert.rejects(fg.commit("octocat/hello", { files: { "a.txt": "four\n" } }), {
      name: "RangeError",
      message: 'commit: no repository "octocat/hello"',
    });
    await fg.reset();
  });
});
