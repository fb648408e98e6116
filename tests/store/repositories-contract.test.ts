/**
 * The repositories part of the store contract, on every driver: a repository made with its settings, edited,
 * renamed (its old name kept until a repository takes it back), forked into its network, listed by affiliation and
 * visibility, and deleted with what only it holds, its events kept about no repository.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { contractSuite, type OpenedStore } from "../helpers/store-drivers.js";
import { NOW } from "../helpers/store-rows.js";
import { theWorld, resolver } from "../helpers/store-scenario.js";
import type { RepoSettings } from "../../src/server/store/store.js";

const WINDOW = { limit: 100, offset: 0 };
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
const SETTINGS: RepoSettings = {
  description: "made",
  homepage: null,
  hasIssues: true,
  hasProjects: true,
  hasWiki: false,
  defaultBranch: "main",
  archived: false,
  createdAt: at(1),
  updatedAt: at(1),
};

contractSuite((driver) => {
  describe("repositories", () => {
    let s: OpenedStore;
    let ids: Awaited<ReturnType<typeof resolver>>;
    before(async () => {
      s = await driver.open();
      await s.store.ingest.apply(await theWorld(s.store), NOW);
      ids = await resolver(s.store);
    });
    after(() => s.close());

    test("a repository of the world has stored no settings: no description, issues on, no times", async () => {
      const { settings } = await ids.repo("alice/pub");
      assert.deepEqual(settings, {
        description: null,
        homepage: null,
        hasIssues: true,
        hasProjects: false,
        hasWiki: false,
        defaultBranch: null,
        archived: false,
        createdAt: null,
        updatedAt: null,
      });
    });

    test("made, it roots its own network; edited, only what is named changes", async () => {
      const { repositories } = s.store;
      const alice = await ids.userId("alice");
      const made = await repositories.insert({
        ownerId: alice,
        name: "Made",
        private: true,
        fork: null,
        settings: SETTINGS,
      });
      assert.deepEqual(
        [made.fullName, made.private, made.networkId, made.parentId],
        ["alice/Made", true, made.id, null],
      );
      assert.deepEqual(made.settings, SETTINGS);
      const edited = await repositories.update(made.id, { homepage: "https://x.example", archived: true }, at(2));
      assert.deepEqual(
        [edited.settings.description, edited.settings.homepage, edited.settings.archived, edited.settings.updatedAt],
        ["made", "https://x.example", true, at(2)],
      );
      assert.deepEqual(edited.settings.createdAt, at(1));
    });

    test("a rename keeps the old name, case-insensitively, until a repository of that name is made", async () => {
      const { repositories } = s.store;
      const made = await ids.repo("alice/made");
      const renamed = await repositories.rename(made, "renamed", at(3));
      assert.equal(renamed.fullName, "alice/renamed");
      assert.equal((await repositories.renamedFrom("ALICE", "MADE"))?.id, made.id);
      assert.equal(await s.store.directory.findRepo("alice", "made"), null);
      const alice = await ids.userId("alice");
      await repositories.insert({ ownerId: alice, name: "made", private: false, fork: null, settings: SETTINGS });
      assert.equal(await repositories.renamedFrom("alice", "made"), null);
    });

    test("a fork is in its source's network; listed among its forks and by the lists' filters", async () => {
      const { repositories } = s.store;
      const pub = await ids.repo("alice/pub");
      const dave = await ids.userId("dave");
      const fork = await repositories.insert({
        ownerId: dave,
        name: "pub",
        private: false,
        fork: { parentId: pub.id, networkId: pub.networkId },
        settings: SETTINGS,
      });
      assert.equal((await repositories.inNetwork(pub.networkId, dave))?.id, (await ids.repo("dave/fork2")).id);
      const forks = await repositories.forks(pub.id, { sort: "oldest", reader: null }, WINDOW);
      assert.deepEqual(
        forks.rows.map((r) => r.fullName),
        ["bob/fork", "dave/pub"],
      );
      assert.equal(fork.networkId, pub.networkId);
      const alice = await ids.userId("alice");
      const list = (reader: number | null, visibility: "all" | "private" = "all") =>
        repositories.list(
          { accountId: alice, affiliations: ["owner"], visibility, reader, sort: "full_name", direction: "asc" },
          WINDOW,
        );
      assert.deepEqual(
        (await list(alice)).rows.map((r) => r.fullName),
        ["alice/made", "alice/priv", "alice/pub", "alice/renamed"],
      );
      assert.deepEqual(
        (await list(null)).rows.map((r) => r.fullName),
        ["alice/made", "alice/pub"],
      );
      assert.deepEqual(
        (await list(alice, "private")).rows.map((r) => r.fullName),
        ["alice/priv", "alice/renamed"],
      );
    });

    test("deleted: gone with what it holds, its forks rooted anew, its events kept about no repository", async () => {
      const { repositories } = s.store;
      const pub = await ids.repo("alice/pub");
      const feed = (scope: Parameters<typeof s.store.events.feed>[0]) =>
        s.store.events.feed(scope, { limit: 1000, offset: 0, visibility: { kind: "public" }, notBefore: null });
      const before = await feed({ kind: "repo", repoId: pub.id });
      await repositories.delete(pub);
      assert.equal(await s.store.directory.findRepo("alice", "pub"), null);
      const fork = await ids.repo("bob/fork");
      assert.deepEqual([fork.parentId, fork.networkId], [null, fork.id]);
      assert.equal((await ids.repo("dave/pub")).networkId, fork.id);
      assert.ok(before.total > 0, "the world has events on alice/pub");
      const all = await feed({ kind: "all" });
      assert.ok(
        before.rows.every((e) => all.rows.some((a) => a.id === e.id)),
        "its events stay in the timeline",
      );
    });
  });
});
