/**
 * The webhook receiver of docs/webhooks-and-streams.md (examples/webhook-receiver.mjs), run as the page runs it: a
 * separate Node process with @octokit/webhooks, fed by an organization hook created through the API with a secret.
 * Every delivery it prints passed the library's signature check, in both content types GitHub sends (a hook created
 * without `content_type` is `form`, as on GitHub).
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

  /** Runs the example; `seen` waits for a line of its output. */
  async function runReceiver() {
    const { spawn } = await import("node:child_process");
    const child = spawn(process.execPath, ["examples/webhook-receiver.mjs"], {
      env: { ...process.env, PORT: "0", WEBHOOK_SECRET: "s3cret" },
    });
    const out = { stdout: "", stderr: "" };
    child.stdout.on("data", (chunk: Buffer) => (out.stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (out.stderr += chunk.toString()));
    const seen = async (pattern: RegExp, where: "stdout" | "stderr" = "stdout") => {
      for (let i = 0; i < 500 && !pattern.test(out[where]); i++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      assert.match(out[where], pattern, out.stderr);
    };
    await seen(/receiving on (http:\/\/127\.0\.0\.1:\d+\/hook)/);
    return { child, out, seen, url: /receiving on (\S+)/.exec(out.stdout)![1]! };
  }

  test("prints the ping and each event of the organization's repositories, signatures checked", async () => {
    const { child, out, seen, url } = await runReceiver();
    try {
      const created = await fetch(`${t.url}/orgs/acme/hooks`, {
        method: "POST",
        headers: { authorization: basic(ALICE.login, ALICE.password), "content-type": "application/json" },
        body: JSON.stringify({ name: "web", config: { url, content_type: "json", secret: "s3cret" }, events: ["*"] }),
      });
      assert.equal(created.status, 201);
      await seen(/^ping acme by alice \(delivery [0-9a-f-]{36}\)$/m);
      await t.ingest.ingestEvents([
        {
          id: "660001",
          type: "IssuesEvent",
          actor: { login: "olga" },
          repo: { name: "acme/site" },
          org: { login: "acme" },
          public: true,
          created_at: "2026-01-15T09:00:00Z",
          payload: { action: "opened", issue: { number: 1 } },
        },
      ]);
      await seen(/^issues\.opened acme\/site by olga \(delivery [0-9a-f-]{36}\)$/m);
      assert.equal(out.stderr, "", "no delivery was refused");
    } finally {
      child.kill();
    }
  });

  test("a hook created without content_type (form, as on GitHub) is received too; a forged delivery is refused", async () => {
    const { child, out, seen, url } = await runReceiver();
    try {
      const created = await fetch(`${t.url}/repos/alice/hello/hooks`, {
        method: "POST",
        headers: { authorization: basic(ALICE.login, ALICE.password), "content-type": "application/json" },
        body: JSON.stringify({ name: "web", config: { url, secret: "s3cret" }, events: ["push"] }),
      });
      assert.equal(created.status, 201);
      assert.equal(((await created.json()) as { config: { content_type: string } }).config.content_type, "form");
      await seen(/^ping alice\/hello by alice \(delivery [0-9a-f-]{36}\)$/m);
      assert.equal(out.stderr, "", "the form-encoded ping was accepted");
      const forged = await fetch(url, {
        method: "POST",
        body: "payload=%7B%7D",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "x-github-event": "ping",
          "x-github-delivery": "x",
          "x-hub-signature-256": `sha256=${"0".repeat(64)}`,
        },
      });
      assert.equal(forged.status, 401);
      await seen(/refused a delivery: signature does not match/, "stderr");
    } finally {
      child.kill();
    }
  });
});
