/**
 * Collaborators as actions: adding a user to a personal repository invites them (201, no event, no webhook); a member
 * of the owning organization is added at once with MemberEvent and `member.added`; an existing collaborator's role is
 * changed with `member.edited`; removing sends `member.removed` and takes the access at once, feeds included. Roles
 * decide what a collaborator may do. A refused write writes nothing. Answers are checked against GitHub's schemas.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { assertSchema } from "../compat/schemas.js";
import { SHARED_DATA } from "../helpers/recorded.js";
import { eventually } from "../helpers/wait.js";
import { basic } from "../helpers/test-app.js";
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

describe("collaborators", () => {
  let s: CollaboratorScene;

  before(async () => {
    s = await collaboratorScene();
  });
  after(() => s.close());

  test("adding a user to a personal repository answers 201 with the invitation, and makes no event or webhook", async () => {
    const before = await s.json("/repos/alice/hello/events");
    const res = await s.send("PUT", "/repos/alice/hello/collaborators/bob", ALICE_TOKEN, { permission: "pull" });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.headers["x-accepted-oauth-scopes"], "repo");
    const invitation = res.json() as Json;
    assertSchema("repository-invitation", invitation);
    assert.deepEqual(
      [invitation.invitee.login, invitation.inviter.login, invitation.permissions, invitation.expired],
      ["bob", "alice", "read", false],
    );
    assert.equal(invitation.repository.full_name, "alice/hello");
    assert.equal(invitation.url, `http://localhost:80/user/repository_invitations/${invitation.id}`);
    assert.equal(invitation.html_url, "http://localhost/alice/hello/invitations");
    assert.equal((await s.json("/repos/alice/hello/events")).length, before.length, "no event until accepted");
    assert.equal((await s.send("GET", "/repos/alice/hello/collaborators/bob")).statusCode, 404, "not yet");

    const again = await s.send("PUT", "/repos/alice/hello/collaborators/bob", ALICE_TOKEN, {});
    assert.equal(again.statusCode, 201, again.body);
    assert.deepEqual(
      [(again.json() as Json).id, (again.json() as Json).permissions],
      [invitation.id, "write"],
      "inviting again changes the pending invitation's role (push by default)",
    );
    const listed = await s.send("GET", "/repos/alice/hello/invitations");
    assert.equal(listed.statusCode, 200, listed.body);
    assertSchema("repository-invitation", listed.json());
    assert.deepEqual(
      (listed.json() as Json[]).map((i) => [i.id, i.invitee.login]),
      [[invitation.id, "bob"]],
    );
  });

  test("bad input is GitHub's 422, a caller without admin rights 403, one who cannot see the repository 404; none writes", async () => {
    const before = await s.written();
    const cases: [string, string | null, object | undefined, number, string][] = [
      ["/repos/alice/hello/collaborators/alice", ALICE_TOKEN, {}, 422, "Repository owner cannot be a collaborator"],
      ["/repos/alice/hello/collaborators/zoe", ALICE_TOKEN, { permission: "owner" }, 422, "permission"],
      ["/repos/alice/hello/collaborators/zoe", ALICE_TOKEN, { permission: "triage" }, 422, "organization-owned"],
      ["/repos/alice/hello/collaborators/nobody-at-all", ALICE_TOKEN, {}, 404, "Not Found"],
      ["/repos/alice/hello/collaborators/acme", ALICE_TOKEN, {}, 404, "Not Found"],
      ["/repos/alice/hello/collaborators/zoe", BOB_TOKEN, {}, 403, "Must have admin rights to Repository."],
      ["/repos/alice/secret/collaborators/zoe", BOB_TOKEN, {}, 404, "Not Found"],
      ["/repos/alice/hello/collaborators/zoe", null, {}, 401, "Requires authentication"],
    ];
    for (const [url, token, payload, status, words] of cases) {
      const res = await s.send("PUT", url, token, payload);
      assert.equal(res.statusCode, status, `${url} ${JSON.stringify(payload)}: ${res.body}`);
      assert.ok(res.body.includes(words), `${url}: ${res.body}`);
      if (status === 422) {
        const body = res.json() as Json;
        assert.equal(body.message, "Validation Failed");
        assert.equal(body.errors[0].resource, "Repository");
      }
    }
    assert.equal((await s.send("DELETE", "/repos/alice/hello/collaborators/zoe", BOB_TOKEN)).statusCode, 403);
    assert.equal((await s.send("GET", "/repos/alice/hello/collaborators", ZOE_TOKEN)).statusCode, 403);
    assert.equal((await s.send("GET", "/repos/alice/hello/invitations", BOB_TOKEN)).statusCode, 403);
    assert.equal(await s.written(), before);
  });

  test("a fine-grained token manages collaborators with administration: write, and is refused 403 without", async () => {
    const pat = async (permissions: Record<string, string>) => {
      const res = await s.t.app.inject({
        method: "POST",
        url: "/user/personal-access-tokens",
        headers: { authorization: basic("alice", "alice-password") },
        payload: { name: "t", repository_selection: "all", permissions: { repository: permissions } },
      });
      assert.equal(res.statusCode, 201, res.body);
      return (res.json() as Json).token as string;
    };
    const before = await s.written();
    const issuesOnly = await s.send("PUT", "/repos/alice/hello/collaborators/zoe", await pat({ issues: "write" }));
    assert.equal(issuesOnly.statusCode, 403, issuesOnly.body);
    assert.equal(issuesOnly.headers["x-accepted-github-permissions"], "administration=write");
    assert.equal(await s.written(), before);
    const admin = await pat({ administration: "write" });
    const res = await s.send("PUT", "/repos/alice/hello/collaborators/zoe", admin);
    assert.equal(res.statusCode, 201, res.body);
    const withdrawn = await s.send("DELETE", `/repos/alice/hello/invitations/${(res.json() as Json).id}`, admin);
    assert.equal(withdrawn.statusCode, 204, withdrawn.body);
    const read = await s.send("GET", "/repos/alice/hello/collaborators", await pat({}));
    assert.equal(read.statusCode, 200, `metadata, which every token has, reads: ${read.body}`);
  });

  test("a member of the owning organization is added at once: 204, MemberEvent added and member.added", async () => {
    const res = await s.send("PUT", "/repos/acme/site/collaborators/olga", ALICE_TOKEN, { permission: "triage" });
    assert.equal(res.statusCode, 204, res.body);
    assert.equal(res.body, "");
    const [event] = await s.json("/repos/acme/site/events");
    assertSchema("event", event);
    assert.deepEqual(
      [event!.type, event!.actor.login, event!.payload.action, event!.payload.member.login, event!.org.login],
      ["MemberEvent", "alice", "added", "olga", "acme"],
    );
    const [added] = await s.delivered("acme/site", 1);
    assert.deepEqual([added!.event, added!.action, added!.body.member.login], ["member", "added", "olga"]);
    assert.deepEqual(added!.body.changes, { permission: { to: "read" }, role_name: { to: "triage" } });
    assertWebhook("member", "added", added!.body);
    assert.deepEqual([added!.body.sender.login, added!.body.organization.login], ["alice", "acme"]);
    const [example] = JSON.parse(readFileSync(new URL("webhooks/examples/member.json", SHARED_DATA), "utf8")) as Json[];
    for (const key of Object.keys(example!)) assert.ok(key in added!.body, `member.added has ${key}`);
    assert.equal((await s.send("GET", "/repos/acme/site/collaborators/olga")).statusCode, 204);
    const site = await s.json("/repos/acme/site", OLGA_TOKEN);
    assert.deepEqual(site.permissions, { admin: false, maintain: false, push: false, triage: true, pull: true });
  });

  test("an existing collaborator's role is changed: 204 and member.edited, and what the role allows follows", async () => {
    const res = await s.send("PUT", "/repos/acme/site/collaborators/olga", ALICE_TOKEN, { permission: "maintain" });
    assert.equal(res.statusCode, 204, res.body);
    const [, edited] = await s.delivered("acme/site", 2);
    assert.deepEqual([edited!.event, edited!.action, edited!.body.member.login], ["member", "edited", "olga"]);
    assertWebhook("member", "edited", edited!.body);
    assert.deepEqual(edited!.body.changes, {
      old_permission: { from: "read" },
      permission: { from: "read", to: "write" },
    });
    const feed = await s.json("/repos/acme/site/events");
    assert.equal(feed.filter((e: Json) => e.type === "MemberEvent").length, 1, "no event for a change of role");
    const site = await s.json("/repos/acme/site", OLGA_TOKEN);
    assert.deepEqual(site.permissions, { admin: false, maintain: true, push: true, triage: true, pull: true });
    const same = await s.send("PUT", "/repos/acme/site/collaborators/olga", ALICE_TOKEN, { permission: "maintain" });
    assert.equal(same.statusCode, 204);
    const label = await s.send("POST", "/repos/acme/site/labels", OLGA_TOKEN, { name: "by-olga" });
    assert.equal(label.statusCode, 201, `maintain pushes: ${label.body}`);
  });

  test("the list shows who has access with their role, by affiliation and permission, paged", async () => {
    const res = await s.send("GET", "/repos/acme/site/collaborators");
    assert.equal(res.statusCode, 200, res.body);
    assertSchema("collaborator", res.json());
    assert.deepEqual(
      (res.json() as Json[]).map((c) => [c.login, c.role_name, c.permissions.push]),
      [
        ["alice", "admin", true],
        ["olga", "maintain", true],
      ],
    );
    const direct = (await s.json("/repos/acme/site/collaborators?affiliation=direct")) as Json[];
    assert.deepEqual(
      direct.map((c) => c.login),
      ["olga"],
    );
    assert.deepEqual(await s.json("/repos/acme/site/collaborators?affiliation=outside"), [], "olga is a member");
    const admins = (await s.json("/repos/acme/site/collaborators?permission=admin")) as Json[];
    assert.deepEqual(
      admins.map((c) => c.login),
      ["alice"],
    );
    const page = await s.send("GET", "/repos/acme/site/collaborators?per_page=1");
    assert.match(String(page.headers.link), /page=2>; rel="last"/);
    assert.equal((await s.send("GET", "/repos/acme/site/collaborators?affiliation=team")).statusCode, 422);
    assert.equal((await s.send("GET", "/repos/acme/site/collaborators?permission=write")).statusCode, 422);
    const mine = (await s.json("/repos/alice/hello/collaborators")) as Json[];
    assert.deepEqual(
      mine.map((c) => [c.login, c.role_name]),
      [["alice", "admin"]],
      "a personal repository's owner; invitees are not collaborators",
    );
  });

  test("a user's permission: admin for the owner, the role for a collaborator, read or none for anyone else", async () => {
    const cases: [string, string, string][] = [
      ["/repos/acme/site/collaborators/alice/permission", "admin", "admin"],
      ["/repos/acme/site/collaborators/olga/permission", "write", "maintain"],
      ["/repos/alice/hello/collaborators/zoe/permission", "read", "read"],
      ["/repos/alice/secret/collaborators/zoe/permission", "none", "none"],
    ];
    for (const [url, permission, role] of cases) {
      const res = await s.send("GET", url);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as Json;
      assertSchema("repository-collaborator-permission", body);
      assert.deepEqual([body.permission, body.role_name], [permission, role], url);
    }
    assert.equal((await s.send("GET", "/repos/alice/hello/collaborators/nobody-at-all/permission")).statusCode, 404);
  });

  test("a pull collaborator reads a private repository but cannot label; removing takes the access at once", async () => {
    // zoe joins acme/site's private sibling: alice's own alice/secret, with read only.
    const invited = await s.send("PUT", "/repos/alice/secret/collaborators/zoe", ALICE_TOKEN, { permission: "pull" });
    assert.equal(invited.statusCode, 201, invited.body);
    const id = (invited.json() as Json).id;
    assert.equal((await s.send("GET", "/repos/alice/secret", ZOE_TOKEN)).statusCode, 404, "not before accepting");
    assert.equal((await s.send("PATCH", `/user/repository_invitations/${id}`, ZOE_TOKEN)).statusCode, 204);
    const secret = await s.send("GET", "/repos/alice/secret", ZOE_TOKEN);
    assert.equal(secret.statusCode, 200, secret.body);
    assert.deepEqual((secret.json() as Json).permissions.push, false);
    const feed = await s.send("GET", "/repos/alice/secret/events", ZOE_TOKEN);
    assert.equal(feed.statusCode, 200);
    assert.equal((feed.json() as Json[])[0]!.type, "MemberEvent");
    const label = await s.send("POST", "/repos/alice/secret/labels", ZOE_TOKEN, { name: "nope" });
    assert.equal(label.statusCode, 403, label.body);
    assert.equal((label.json() as Json).message, "Must have push access to repository");

    const removed = await s.send("DELETE", "/repos/alice/secret/collaborators/zoe", ALICE_TOKEN);
    assert.equal(removed.statusCode, 204, removed.body);
    assert.equal((await s.send("GET", "/repos/alice/secret", ZOE_TOKEN)).statusCode, 404);
    assert.equal((await s.send("GET", "/repos/alice/secret/events", ZOE_TOKEN)).statusCode, 404);
    assert.equal((await s.send("GET", "/repos/alice/secret/collaborators/zoe")).statusCode, 404);
    const before = await s.written();
    assert.equal((await s.send("DELETE", "/repos/alice/secret/collaborators/zoe", ALICE_TOKEN)).statusCode, 204);
    assert.equal(await s.written(), before, "removing one who is not a collaborator makes nothing");
  });

  test("triage labels, assigns and closes anyone's issues but edits none; pull does neither", async () => {
    const invited = await s.send("PUT", "/repos/acme/site/collaborators/zoe", ALICE_TOKEN, { permission: "triage" });
    assert.equal(invited.statusCode, 201, invited.body);
    const accepted = await s.send("PATCH", `/user/repository_invitations/${(invited.json() as Json).id}`, ZOE_TOKEN);
    assert.equal(accepted.statusCode, 204, accepted.body);
    const opened = await s.send("POST", "/repos/acme/site/issues", ALICE_TOKEN, { title: "Alice's" });
    const number = (opened.json() as Json).number;
    const labelled = await s.send("POST", `/repos/acme/site/issues/${number}/labels`, ZOE_TOKEN, { labels: ["bug"] });
    assert.equal(labelled.statusCode, 200, labelled.body);
    const assigned = await s.send("POST", `/repos/acme/site/issues/${number}/assignees`, ZOE_TOKEN, {
      assignees: ["alice"],
    });
    assert.deepEqual(
      (assigned.json() as Json).assignees.map((a: Json) => a.login),
      ["alice"],
    );
    const closed = await s.send("PATCH", `/repos/acme/site/issues/${number}`, ZOE_TOKEN, { state: "closed" });
    assert.equal(closed.statusCode, 200, closed.body);
    assert.equal((closed.json() as Json).state, "closed");
    const renamed = await s.send("PATCH", `/repos/acme/site/issues/${number}`, ZOE_TOKEN, { title: "Zoe's now" });
    assert.equal(renamed.statusCode, 403, renamed.body);
    assert.equal((await s.send("POST", "/repos/acme/site/labels", ZOE_TOKEN, { name: "new" })).statusCode, 403);

    assert.equal(
      (await s.send("PUT", "/repos/acme/site/collaborators/zoe", ALICE_TOKEN, { permission: "pull" })).statusCode,
      204,
    );
    const refused = await s.send("POST", `/repos/acme/site/issues/${number}/labels`, ZOE_TOKEN, { labels: ["x"] });
    assert.equal(refused.statusCode, 403, refused.body);
    const reopen = await s.send("PATCH", `/repos/acme/site/issues/${number}`, ZOE_TOKEN, { state: "open" });
    assert.equal(reopen.statusCode, 403, reopen.body);
  });

  test("removing sends member.removed and no event; a collaborator may remove themselves", async () => {
    const events = (await s.json("/repos/acme/site/events")).length;
    const res = await s.send("DELETE", "/repos/acme/site/collaborators/olga", OLGA_TOKEN);
    assert.equal(res.statusCode, 204, res.body);
    const deliveries = await eventually(
      () => s.delivered("acme/site", 1),
      (all) => all.some((d) => d.action === "removed"),
    );
    const removed = deliveries.find((d) => d.event === "member" && d.action === "removed");
    assert.deepEqual([removed!.event, removed!.action, removed!.body.member.login], ["member", "removed", "olga"]);
    assert.equal(removed!.body.sender.login, "olga");
    assertWebhook("member", "removed", removed!.body);
    assert.equal((await s.json("/repos/acme/site/events")).length, events);
    const site = await s.json("/repos/acme/site", OLGA_TOKEN);
    assert.deepEqual(site.permissions.triage, false, "back to the organization's base role, read");
  });
});
