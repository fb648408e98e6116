/**
 * The directory part of the store contract, on every driver: repositories, fork networks, who may read what, and
 * the counts the entry points show, checked against the scenario's reference model.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { contractSuite, type OpenedStore } from "../helpers/store-drivers.js";
import { NOW } from "../helpers/store-rows.js";
import {
  USERS,
  ORGS,
  REPOS,
  FOLLOWS,
  WATCHES,
  EVENTS,
  ALL_EVENTS,
  theWorld,
  resolver,
  ownerOf,
  canRead,
  networkRoot,
} from "../helpers/store-scenario.js";

contractSuite((driver) => {
  describe("directory", () => {
    let s: OpenedStore;
    before(async () => {
      s = await driver.open();
      await s.store.ingest.apply(await theWorld(s.store), NOW);
    });
    after(() => s.close());

    test("findRepo matches owner and name in any letter case and keeps the stored case", async () => {
      const repo = await s.store.directory.findRepo("ACME", "Widgets");
      assert.equal(repo?.fullName, "acme/widgets");
      assert.equal(repo?.ownerId, (await s.store.users.findByLogin("acme"))!.id);
      assert.equal(repo?.private, false);
      assert.equal(repo?.wireId, repo?.id);
      assert.equal((await s.store.directory.findRepo("acme", "secret"))?.private, true);
      assert.equal(await s.store.directory.findRepo("acme", "nothing"), null);
      assert.equal(await s.store.directory.findRepo("nobody", "widgets"), null);
      // GitHub's id, from the complete envelope.
      assert.equal((await s.store.directory.findRepo("dave", "solo"))?.wireId, 7001);
    });

    test("a fork network is the id of its root repository", async () => {
      const root = (await s.store.directory.findRepo("alice", "pub"))!;
      assert.equal(root.networkId, root.id);
      for (const [owner, name] of [
        ["bob", "fork"],
        ["dave", "fork2"],
      ] as const) {
        assert.equal((await s.store.directory.findRepo(owner, name))!.networkId, root.id, `${owner}/${name}`);
      }
      const solo = (await s.store.directory.findRepo("dave", "solo"))!;
      assert.equal(solo.networkId, solo.id);
    });

    test("canRead: owner, collaborator and member of the owning organization; nobody else", async () => {
      const { userId, repo } = await resolver(s.store);
      for (const user of USERS) {
        for (const { full_name } of REPOS) {
          assert.equal(
            await s.store.directory.canRead(await userId(user), (await repo(full_name)).id),
            canRead(user, full_name),
            `${user} reading ${full_name}`,
          );
        }
      }
    });

    test("findRepoById finds a repository by row id, with its parent (null for a network's root)", async () => {
      const { repo } = await resolver(s.store);
      for (const spec of REPOS) {
        const found = await s.store.directory.findRepoById((await repo(spec.full_name)).id);
        assert.equal(found?.fullName, spec.full_name);
        assert.equal(found?.parentId, spec.fork_of ? (await repo(spec.fork_of)).id : null, spec.full_name);
      }
      assert.equal((await s.store.directory.findRepo("alice", "pub"))?.parentId, null);
      assert.equal(await s.store.directory.findRepoById(987654321), null);
    });

    test("accountCounts: followers, following, owned repositories by visibility, and an organization's members", async () => {
      const { userId } = await resolver(s.store);
      for (const login of [...USERS, ...Object.keys(ORGS)]) {
        const owned = REPOS.filter((r) => ownerOf(r.full_name) === login);
        assert.deepEqual(
          await s.store.directory.accountCounts(await userId(login)),
          {
            followers: Object.values(FOLLOWS).filter((followees) => followees.includes(login)).length,
            following: (FOLLOWS[login] ?? []).length,
            publicRepos: owned.filter((r) => !r.private).length,
            privateRepos: owned.filter((r) => r.private).length,
            members: (ORGS[login] ?? []).length,
          },
          login,
        );
      }
    });

    test("repoStats: watchers, direct forks, the rest of the network, and the stored events' times", async () => {
      const { repo } = await resolver(s.store);
      const time = (seconds: number | undefined) => (seconds === undefined ? null : new Date(seconds * 1000));
      for (const { full_name } of REPOS) {
        const times = ALL_EVENTS.filter((e) => e.repo === full_name).map((e) => e.time);
        // Every event of this world on a repository is a PushEvent but the complete IssuesEvent on dave/solo.
        const pushes = EVENTS.filter((e) => e.repo === full_name).map((e) => e.time);
        assert.deepEqual(
          await s.store.directory.repoStats((await repo(full_name)).id),
          {
            watchers: Object.values(WATCHES).filter((repos) => repos.includes(full_name)).length,
            subscribers: 0,
            forks: REPOS.filter((r) => r.fork_of === full_name).length,
            networkForks: REPOS.filter(
              (r) => r.full_name !== full_name && networkRoot(r.full_name) === networkRoot(full_name),
            ).length,
            openIssues: 0,
            firstEventAt: time(times.length ? Math.min(...times) : undefined),
            lastEventAt: time(times.length ? Math.max(...times) : undefined),
            lastPushAt: time(pushes.length ? Math.max(...pushes) : undefined),
          },
          full_name,
        );
      }
    });

    test("repoWithStats is findRepoById and repoStats in one; null for no repository", async () => {
      const { repo } = await resolver(s.store);
      for (const { full_name } of REPOS) {
        const { id } = await repo(full_name);
        assert.deepEqual(
          await s.store.directory.repoWithStats(id),
          { repo: await s.store.directory.findRepoById(id), stats: await s.store.directory.repoStats(id) },
          full_name,
        );
      }
      assert.equal(await s.store.directory.repoWithStats(987_654_321), null);
    });

    test("repoRole names the relation canRead rests on: owner, collaborator, member, or none", async () => {
      const { userId, repo } = await resolver(s.store);
      for (const user of USERS) {
        for (const { full_name, collaborators = [] } of REPOS) {
          const owner = ownerOf(full_name);
          const expected =
            owner === user
              ? "owner"
              : collaborators.includes(user)
                ? "collaborator"
                : (ORGS[owner] ?? []).includes(user)
                  ? "member"
                  : null;
          assert.equal(
            await s.store.directory.repoRole(await userId(user), (await repo(full_name)).id),
            expected,
            `${user} on ${full_name}`,
          );
        }
      }
    });

    test("isMember says who belongs to which organization", async () => {
      const { userId } = await resolver(s.store);
      for (const [org, members] of Object.entries(ORGS)) {
        for (const user of USERS) {
          assert.equal(
            await s.store.directory.isMember(await userId(org), await userId(user)),
            members.includes(user),
            `${user} in ${org}`,
          );
        }
      }
    });
  });
});
