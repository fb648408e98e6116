/**
 * The webhook receiver of docs/webhooks-and-streams.md (examples/webhook-receiver.mjs), run as the page runs it: a
 * separate Node process with @octokit/webhooks, fed by an organization hook created through the API with a secret.
 * Every delivery it prints passed the library's signature check.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { basic } from "../helpers/test-app.js";
import { ALICE } from "../helpers/client-world.js";

describe("the webhook receiver of docs/webhooks-and-streams.md", () => {
  let t: ListeningApp;
  before(async () => {
    t = await startListeningApp();
  });
  after(() => t.close());

  test("prints the ping and each event of the organization's repositories, signatures checked", async () => {
    const { spawn } = await import("node:child_process");
    const child = spawn(process.execPath, ["examples/webhook-receiver.mjs"], { env: { ...process.env, PORT: "0", WEBHOOK_SECRET: "s3cret" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const seen = async (pattern: RegExp) => {
      for (let i = 0; i < 500 && !pattern.test(stdout); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.match(stdout, pattern, stderr);
    };
    try {
      await seen(/receiving on (http:\/\/127\.0\.0\.1:\d+\/hook)/);
      const url = /receiving on (\S+)/.exec(stdout)![1]!;
      const created = await fetch(`${t.url}/orgs/acme/hooks`, {
        method: "POST", headers: { authorization: basic(ALICE.login, ALICE.password), "content-type": "application/json" },
        body: JSON.stringify({ name: "web", config: { url, content_type: "json", secret: "s3cret" }, events: ["*"] }),
      });
      assert.equal(created.status, 201);
      await seen(/^ping acme by alice \(delivery [0-9a-f-]{36}\)$/m);
      await t.ingest.ingestEvents([{ id: "660001", type: "IssuesEvent", actor: { login: "olga" }, repo: { name: "acme/site" },
        org: { login: "acme" }, public: true, created_at: "2026-01-15T09:00:00Z", payload: { action: "opened", issue: { number: 1 } } }]);
      await seen(/^issues\.opened acme\/site by olga \(delivery [0-9a-f-]{36}\)$/m);
      assert.equal(stderr, "", "no delivery was refused");
    } finally {
      child.kill();
    }
  });
});
