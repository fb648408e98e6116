/**
 * Collaborators through the latest @octokit/rest (22.x), unmodified, against a live feedgate: the owner adds a
 * collaborator (an invitation), the invitee lists and accepts it, the owner checks, lists and reads the new
 * collaborator's permission, then removes them; the MemberEvent in the repository's feed is checked in the same test,
 * and the `member` webhooks are verified with @octokit/webhooks (GitHub's signature, the payload's shape).
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { Octokit } from "octokit-rest-latest";
import { Webhooks } from "@octokit/webhooks";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { ALICE_TOKEN, BOB_TOKEN } from "../helpers/client-world.js";
import { receiver } from "../helpers/webhook-receiver.js";
import { assertSchema } from "./schemas.js";

const SECRET = "member-secret";

describe("@octokit/rest 22 adding a collaborator who accepts, its webhooks verified by @octokit/webhooks", () => {
  let t: ListeningApp;
  const hook = receiver();
  const alice = () => new Octokit({ baseUrl: t.url, auth: ALICE_TOKEN });
  const bob = () => new Octokit({ baseUrl: t.url, auth: BOB_TOKEN });

  before(async () => {
    t = await startListeningApp();
    await alice().repos.createWebhook({
      owner: "alice",
      repo: "hello",
      config: { url: await hook.listen(), content_type: "json", secret: SECRET },
      events: ["member"],
    });
  });
  after(async () => {
    await t.close();
    await hook.close();
  });

  test("add, list invitations, accept, check, list, permission, remove: each answered as GitHub answers", async () => {
    const added = await alice().repos.addCollaborator({ owner: "alice", repo: "hello", username: "bob" });
    assert.equal(added.status, 201);
    assertSchema("repository-invitation", added.data);
    assert.equal(added.data.permissions, "write");
    await assert.rejects(alice().repos.checkCollaborator({ owner: "alice", repo: "hello", username: "bob" }), {
      status: 404,
    });

    const invitations = await bob().repos.listInvitationsForAuthenticatedUser();
    assert.deepEqual(
      invitations.data.map((i) => [i.id, i.repository.full_name, i.inviter?.login]),
      [[added.data.id, "alice/hello", "alice"]],
    );
    const accepted = await bob().repos.acceptInvitationForAuthenticatedUser({ invitation_id: added.data.id });
    assert.equal(accepted.status, 204);

    const check = await alice().repos.checkCollaborator({ owner: "alice", repo: "hello", username: "bob" });
    assert.equal(check.status, 204);
    const collaborators = await alice().repos.listCollaborators({ owner: "alice", repo: "hello" });
    assert.deepEqual(
      collaborators.data.map((c) => [c.login, c.role_name, c.permissions?.push]),
      [
        ["alice", "admin", true],
        ["bob", "write", true],
      ],
    );
    const level = await alice().repos.getCollaboratorPermissionLevel({
      owner: "alice",
      repo: "hello",
      username: "bob",
    });
    assert.deepEqual([level.data.permission, level.data.role_name, level.data.user?.login], ["write", "write", "bob"]);
    const hello = await bob().repos.get({ owner: "alice", repo: "hello" });
    assert.equal(hello.data.permissions?.push, true);

    const feed = await alice().activity.listRepoEvents({ owner: "alice", repo: "hello", per_page: 1 });
    const [event] = feed.data;
    const payload = event!.payload as { member: { login: string }; action: string };
    assert.deepEqual(
      [event!.type, event!.actor.login, payload.action, payload.member.login],
      ["MemberEvent", "alice", "added", "bob"],
    );

    const removed = await alice().repos.removeCollaborator({ owner: "alice", repo: "hello", username: "bob" });
    assert.equal(removed.status, 204);
    await assert.rejects(alice().repos.checkCollaborator({ owner: "alice", repo: "hello", username: "bob" }), {
      status: 404,
    });

    // The member webhooks: GitHub's signature with the hook's secret, and payloads @octokit/webhooks types and routes.
    const webhooks = new Webhooks({ secret: SECRET });
    const seen: string[] = [];
    webhooks.on("member", ({ payload }) => {
      seen.push(`${payload.action} ${payload.member?.login} by ${payload.sender.login}`);
      assert.equal(payload.repository.full_name, "alice/hello");
    });
    await hook.until(3); // the hook's ping, then added and removed
    for (const delivery of hook.received.filter((d) => d.headers["x-github-event"] === "member")) {
      assert.ok(await webhooks.verify(delivery.body, String(delivery.headers["x-hub-signature-256"])));
      await webhooks.receive({
        id: String(delivery.headers["x-github-delivery"]),
        name: "member",
        payload: JSON.parse(delivery.body),
      });
    }
    assert.deepEqual(seen, ["added bob by bob", "removed bob by alice"]);
  });
});
