/**
 * The collaborators part of the store contract, on every driver: a collaborator's role (the world's are `push`) and
 * the access it gives, the list of everyone with access by affiliation and least role, and repository invitations
 * (one pending per invitee and repository, listed for the repository and, when not expired, for the invitee).
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { contractSuite, type OpenedStore } from "../helpers/store-drivers.js";
import { NOW } from "../helpers/store-rows.js";
import { theWorld, resolver } from "../helpers/store-scenario.js";

const WINDOW = { limit: 100, offset: 0 };
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

contractSuite((driver) => {
  describe("collaborators", () => {
    let s: OpenedStore;
    let ids: Awaited<ReturnType<typeof resolver>>;
    before(async () => {
      s = await driver.open();
      await s.store.ingest.apply(await theWorld(s.store), NOW);
      ids = await resolver(s.store);
    });
    after(() => s.close());

    test("a collaborator of the world holds push; a role set is kept, and access follows it", async () => {
      const { collaborators, directory } = s.store;
      const bob = await ids.userId("bob");
      const priv = await ids.repo("alice/priv");
      assert.equal(await collaborators.permission(priv.id, bob), "push");
      assert.deepEqual(await directory.repoAccess(bob, priv.id), { role: "collaborator", permission: "push" });
      assert.equal(await collaborators.set(priv.id, bob, "admin"), "push", "answers the role before");
      assert.equal(await collaborators.set(priv.id, bob, "admin"), "admin", "unchanged");
      assert.deepEqual(await directory.repoAccess(bob, priv.id), { role: "collaborator", permission: "admin" });
      assert.deepEqual(await directory.repoAccess(await ids.userId("alice"), priv.id), {
        role: "owner",
        permission: "admin",
      });
      assert.equal(await collaborators.remove(priv.id, bob), true);
      assert.equal(await collaborators.remove(priv.id, bob), false);
      assert.equal(await directory.repoAccess(bob, priv.id), null, "no access left to a private repository");
    });

    test("everyone with access, by affiliation and least role, each once with the strongest role", async () => {
      const { collaborators } = s.store;
      const widgets = await ids.repo("acme/widgets");
      const list = async (affiliation: "all" | "direct" | "outside", minimum: "push" | null = null) =>
        (await collaborators.list(widgets.id, { affiliation, minimum }, WINDOW)).rows.map((r) => [
          r.user.login,
          r.permission,
        ]);
      assert.deepEqual(await list("all"), [
        ["alice", "pull"],
        ["carol", "pull"],
      ]);
      await collaborators.set(widgets.id, await ids.userId("dave"), "triage");
      await collaborators.set(widgets.id, await ids.userId("carol"), "maintain");
      assert.deepEqual(await list("all"), [
        ["alice", "pull"],
        ["carol", "maintain"],
        ["dave", "triage"],
      ]);
      assert.deepEqual(await list("direct"), [
        ["carol", "maintain"],
        ["dave", "triage"],
      ]);
      assert.deepEqual(await list("outside"), [["dave", "triage"]], "carol is a member of acme");
      assert.deepEqual(await list("all", "push"), [["carol", "maintain"]]);
      const page = await collaborators.list(widgets.id, { affiliation: "all", minimum: null }, { limit: 1, offset: 1 });
      assert.deepEqual([page.rows.map((r) => r.user.login), page.total], [["carol"], 3]);
    });

    test("invitations: one per invitee and repository, listed for both, the invitee's only while not expired", async () => {
      const { collaborators } = s.store;
      const pub = await ids.repo("alice/pub");
      const [alice, bob, dave] = [await ids.userId("alice"), await ids.userId("bob"), await ids.userId("dave")];
      const made = await collaborators.invite({
        repoId: pub.id,
        inviteeId: bob,
        inviterId: alice,
        permission: "pull",
        createdAt: at(1),
      });
      assert.deepEqual(
        [made.repoId, made.inviteeId, made.permission, made.createdAt.toISOString()],
        [pub.id, bob, "pull", at(1).toISOString()],
      );
      await assert.rejects(
        collaborators.invite({
          repoId: pub.id,
          inviteeId: bob,
          inviterId: alice,
          permission: "push",
          createdAt: at(2),
        }),
        { name: "UniqueViolation" },
      );
      await collaborators.setInvitationPermission(made.id, "admin");
      assert.equal((await collaborators.invitationFor(pub.id, bob))?.permission, "admin");
      const other = await collaborators.invite({
        repoId: pub.id,
        inviteeId: dave,
        inviterId: bob,
        permission: "push",
        createdAt: at(3),
      });
      const listed = await collaborators.repositoryInvitations(pub.id, WINDOW);
      assert.deepEqual([listed.rows.map((i) => i.id), listed.total], [[made.id, other.id], 2]);
      assert.deepEqual(
        (await collaborators.userInvitations(bob, at(0), WINDOW)).rows.map((i) => i.id),
        [made.id],
      );
      assert.deepEqual((await collaborators.userInvitations(bob, at(1), WINDOW)).rows, [], "made at the bound");
      await collaborators.deleteInvitationsBy(pub.id, bob);
      assert.equal(await collaborators.invitation(other.id), null, "bob's invitations are withdrawn");
      assert.equal(await collaborators.deleteInvitation(made.id), true);
      assert.equal(await collaborators.deleteInvitation(made.id), false);
    });

    test("deleting an account withdraws the invitations it sent and those it was sent", async () => {
      const { collaborators } = s.store;
      const pub = await ids.repo("alice/pub");
      const [alice, zed] = [await ids.userId("alice"), await ids.userId("zed")];
      const sent = { repoId: pub.id, inviterId: alice, permission: "push", createdAt: at(1) } as const;
      const invitation = await collaborators.invite({ ...sent, inviteeId: zed });
      await s.store.users.delete(zed);
      assert.equal(await collaborators.invitation(invitation.id), null);
    });
  });
});
