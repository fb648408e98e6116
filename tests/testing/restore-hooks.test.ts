/**
 * Whether a hook would receive an action's webhooks is remembered between requests under the `hooks` and `repos`
 * numbers (store/remembering-store.ts); putting an image back restores hooks without their triggers, and raises
 * every number instead (state-store.ts's RAISE_EVERY_VERSION): a hook the image holds receives the next action's
 * webhook, though the action before the restore found none. (It fails with neither number raised.)
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startFeedgate, type Feedgate } from "../../src/testing/index.js";

describe("feedgate/testing: hooks put back by a restore", () => {
  let fg: Feedgate;
  before(async () => {
    fg = await startFeedgate({ world: { users: [{ login: "octocat" }], repos: [{ full_name: "octocat/hello" }] } });
  });
  after(() => fg.close());

  it("a hook the image holds gets the next action's webhook, though the one before found no hook", async () => {
    const inbox = await fg.receiver();
    const headers = { authorization: `token ${await fg.token("octocat")}`, "content-type": "application/json" };
    const send = (method: string, path: string, body?: object) =>
      fg.fetch(`${fg.url}${path}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
    const made = await send("POST", "/repos/octocat/hello/hooks", {
      config: { url: inbox.url, content_type: "json" },
      events: ["issues"],
    });
    assert.equal(made.status, 201);
    const { id } = (await made.json()) as { id: number };
    const image = await fg.snapshot();
    assert.equal((await send("DELETE", `/repos/octocat/hello/hooks/${id}`)).status, 204);
    assert.equal((await send("POST", "/repos/octocat/hello/issues", { title: "No hook hears this" })).status, 201);

    await fg.restore(image);
    assert.equal((await send("POST", "/repos/octocat/hello/issues", { title: "The hook is back" })).status, 201);
    const delivered = await inbox.next({ event: "issues" }, 5_000);
    assert.equal((delivered.body as { issue: { title: string } }).issue.title, "The hook is back");
    assert.deepEqual(
      inbox.received.map((d) => d.event),
      ["ping", "issues"],
      "the ping when it was made, then the issue opened after the restore; none while it was gone",
    );
  });
});
