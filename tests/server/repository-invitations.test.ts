/**
 * Repository invitations: the repository's administrators list, change and withdraw them; the invitee lists theirs,
 * accepts (becoming a collaborator: MemberEvent `added` on the repository's feed, by the inviter, and `member.added`,
 * sent by the invitee) or declines (nothing made). Invitations expire seven days after they are made, by the clock.
 * A refused write writes nothing. Answers are checked against GitHub's published schemas.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { assertSchema } from "../compat/schemas.js";
import { assertWebhook } from "../helpers/webhook-schemas.js";
import {
  ALICE_TOKEN,
  BOB_TOKEN,
  collaboratorScene,
  OLGA_TOKEN,
  ZOE_TOKEN,
  type CollaboratorScene,
  type Json,
} from "../helpers/collaborator-scene.js";

describe("repository invitations", () => {
  let s: CollaboratorScene;
  const invite = async (repo: string, login: string, payload: object = {}) => {
    const res = await s.send("PUT", `/repos/${repo}/collaborators/${login}`, ALICE_TOKEN, payload);
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as Json;
  };

  before(async () => {
    s = await collaboratorScene();
  });
  after(() => s.close());

  test("the invitee lists their invitations and accepts one: a collaborator, MemberEvent added, member.added", async () => {
    const invitation = await invite("alice/hello", "bob", { permission: "admin" });
    const mine = await s.send("GET", "/user/repository_invitations", BOB_TOKEN);
    assert.equal(mine.statusCode, 200, mine.body);
    assertSchema("repository-invitation", mine.json());
    assert.deepEqual(
      (mine.json() as Json[]).map((i) => [i.id, i.repository.full_name, i.permissions]),
      [[invitation.id, "alice/hello", "admin"]],
    );
    assert.deepEqual(await s.json("/user/repository_invitations", ZOE_TOKEN), [], "zoe has none");

    const accepted = await s.send("PATCH", `/user/repository_invitations/${invitation.id}`, BOB_TOKEN);
    assert.equal(accepted.statusCode, 204, accepted.body);
    assert.equal(accepted.body, "");
    const [event] = await s.json("/repos/alice/hello/events");
    assertSchema("event", event);
    assert.deepEqual(
      [event!.type, event!.actor.login, event!.payload.action, event!.payload.member.login],
      ["MemberEvent", "alice", "added", "bob"],
    );
    assert.deepEqual(Object.keys(event!.payload), ["member", "action"], "GH Archive's order");
    assert.equal((await s.json("/users/alice/events"))[0]!.id, event!.id, "in the inviter's own feed");
    const [added] = await s.delivered("alice/hello", 1);
    assert.deepEqual(
      [added!.event, added!.action, added!.body.member.login, added!.body.sender.login],
      ["member", "added", "bob", "bob"],
    );
    assert.deepEqual(added!.body.changes, { permission: { to: "admin" }, role_name: { to: "admin" } });
    assertWebhook("member", "added", added!.body);
    assert.equal((await s.send("GET", "/repos/alice/hello/collaborators/bob")).statusCode, 204);
    assert.deepEqual((await s.json("/repos/alice/hello", BOB_TOKEN)).permissions.admin, true);
    assert.deepEqual(await s.json("/repos/alice/hello/invitations"), [], "accepting uses the invitation up");
    const again = await s.send("PATCH", `/user/repository_invitations/${invitation.id}`, BOB_TOKEN);
    assert.equal(again.statusCode, 404);
  });

  test("an admin collaborator manages collaborators and hooks too", async () => {
    const hooks = await s.send("GET", "/repos/alice/hello/hooks", BOB_TOKEN);
    assert.equal(hooks.statusCode, 200, hooks.body);
    assert.equal((await s.send("GET", "/repos/alice/hello/hooks", ZOE_TOKEN)).statusCode, 404);
    const res = await s.send("PUT", "/repos/alice/hello/collaborators/olga", BOB_TOKEN);
    assert.equal(res.statusCode, 201, res.body);
    assert.equal((res.json() as Json).inviter.login, "bob");
    const withdrawn = await s.send("DELETE", `/repos/alice/hello/invitations/${(res.json() as Json).id}`, BOB_TOKEN);
    assert.equal(withdrawn.statusCode, 204, withdrawn.body);
  });

  test("declining answers 204, deletes the invitation and makes nothing else", async () => {
    const invitation = await invite("alice/hello", "zoe");
    const before = await s.written();
    const declined = await s.send("DELETE", `/user/repository_invitations/${invitation.id}`, ZOE_TOKEN);
    assert.equal(declined.statusCode, 204, declined.body);
    const after = JSON.parse(await s.written()) as unknown[];
    const was = JSON.parse(before) as Json[];
    assert.deepEqual(after[1], { rows: [], total: 0 }, "the invitation is gone");
    assert.deepEqual([after[0], after.slice(2)], [was[0], was.slice(2)], "and nothing else changed");
    assert.equal((await s.send("GET", "/repos/alice/hello/collaborators/zoe")).statusCode, 404);
  });

  test("another user's invitation is not there for them: 404, and nothing written", async () => {
    const invitation = await invite("alice/hello", "zoe");
    const before = await s.written();
    for (const [method, token] of [
      ["PATCH", OLGA_TOKEN],
      ["DELETE", OLGA_TOKEN],
      ["PATCH", null],
    ] as const) {
      const res = await s.send(method, `/user/repository_invitations/${invitation.id}`, token);
      assert.equal(res.statusCode, token === null ? 401 : 404, `${method}: ${res.body}`);
    }
    assert.equal((await s.send("PATCH", "/user/repository_invitations/999999", ZOE_TOKEN)).statusCode, 404);
    assert.equal((await s.send("PATCH", "/user/repository_invitations/99999999999999", ZOE_TOKEN)).statusCode, 404);
    assert.equal(await s.written(), before);
  });

  test("an administrator changes an invitation's role; bad roles are 422 and change nothing", async () => {
    const [pending] = (await s.json("/repos/alice/hello/invitations")) as Json[];
    const res = await s.send("PATCH", `/repos/alice/hello/invitations/${pending!.id}`, ALICE_TOKEN, {
      permissions: "read",
    });
    assert.equal(res.statusCode, 200, res.body);
    assertSchema("repository-invitation", res.json());
    assert.equal((res.json() as Json).permissions, "read");
    const before = await s.written();
    for (const permissions of ["pull", "maintain", "owner"]) {
      const bad = await s.send("PATCH", `/repos/alice/hello/invitations/${pending!.id}`, ALICE_TOKEN, { permissions });
      assert.equal(bad.statusCode, 422, `${permissions}: ${bad.body}`);
      assert.deepEqual((bad.json() as Json).errors[0].field, "permissions");
    }
    const other = await s.send("PATCH", `/repos/alice/hello/invitations/${pending!.id}`, ZOE_TOKEN, {
      permissions: "admin",
    });
    assert.equal(other.statusCode, 403, other.body);
    assert.equal((await s.send("PATCH", `/repos/bob/tools/invitations/${pending!.id}`, BOB_TOKEN, {})).statusCode, 404);
    assert.equal(await s.written(), before);
  });

  test("invitations expire after seven days: shown expired to the repository, gone for the invitee, refused", async () => {
    const [pending] = (await s.json("/repos/alice/hello/invitations")) as Json[];
    s.t.clock.advance("7d");
    const [expired] = (await s.json("/repos/alice/hello/invitations")) as Json[];
    assert.deepEqual([expired!.id, expired!.expired], [pending!.id, true]);
    assert.deepEqual(await s.json("/user/repository_invitations", ZOE_TOKEN), []);
    const before = await s.written();
    const accepted = await s.send("PATCH", `/user/repository_invitations/${pending!.id}`, ZOE_TOKEN);
    assert.equal(accepted.statusCode, 404, accepted.body);
    assert.equal(await s.written(), before);
    const fresh = await invite("alice/hello", "zoe");
    assert.notEqual(fresh.id, pending!.id, "inviting again makes a new invitation");
    assert.equal(fresh.expired, false);
    assert.equal((await s.send("PATCH", `/user/repository_invitations/${fresh.id}`, ZOE_TOKEN)).statusCode, 204);
    assert.equal((await s.send("GET", "/repos/alice/hello/collaborators/zoe")).statusCode, 204);
  });

  test("lists page with Link", async () => {
    await invite("alice/hello", "olga");
    await invite("alice/secret", "olga");
    const page = await s.send("GET", "/user/repository_invitations?per_page=1", OLGA_TOKEN);
    assert.equal(page.statusCode, 200, page.body);
    assert.equal((page.json() as Json[]).length, 1);
    assert.match(String(page.headers.link), /page=2>; rel="last"/);
  });
});
