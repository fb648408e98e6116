/** The webhooks' small parts: sealed secrets, the retry schedule, GitHub's signature test vector, the flags. */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SecretBox } from "../../src/server/webhooks/secret-box.js";
import { backoffMs, signature } from "../../src/server/webhooks/dispatcher.js";
import { AddressPolicy } from "../../src/server/webhooks/address-policy.js";
import { webhookEventName } from "../../src/api/webhook-events.js";
import { loadConfig } from "../../src/server/config.js";

describe("webhook parts", () => {
  test("a secret is sealed under a key file made on first use (mode 0600); the sealed text alone does not give it back", () => {
    const dir = mkdtempSync(join(tmpdir(), "feedgate-key-"));
    try {
      const file = join(dir, "nested", "webhook.key");
      const box = SecretBox.atPath(file);
      const sealed = box.seal("It's a Secret to Everybody");
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.match(readFileSync(file, "utf8"), /^[0-9a-f]{64}\n$/);
      assert.doesNotMatch(sealed, /Secret/);
      assert.notEqual(box.seal("It's a Secret to Everybody"), sealed, "a fresh IV each time");
      assert.equal(SecretBox.atPath(file).open(sealed), "It's a Secret to Everybody", "another process with the same key file");
      assert.throws(() => SecretBox.ephemeral().open(sealed), "another key cannot open it");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("GitHub's signature test vector", () => {
    // ../shared/data/webhooks/headers.md: secret "It's a Secret to Everybody", payload "Hello, World!".
    assert.equal(signature("sha256", "It's a Secret to Everybody", Buffer.from("Hello, World!")),
      "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17");
  });

  test("retries start at about a second and double, within +-20%, up to --webhook-max-backoff", () => {
    assert.equal(backoffMs(1, 600_000, () => 0.5), 1000);
    assert.equal(backoffMs(2, 600_000, () => 0.5), 2000);
    assert.equal(backoffMs(4, 600_000, () => 0.5), 8000);
    assert.equal(backoffMs(1, 600_000, () => 0), 800);
    assert.equal(backoffMs(1, 600_000, () => 1), 1200);
    assert.equal(backoffMs(30, 600_000, () => 0.5), 600_000);
  });

  test("allowed hosts: names by name, addresses and CIDRs by address", () => {
    const policy = AddressPolicy.parse("hooks.example.com, 10.0.0.0/8, ::1");
    assert.equal(policy.refusal("hooks.example.com"), null);
    assert.equal(policy.refusal("10.1.2.3"), null);
    assert.equal(policy.refusal("[::1]"), null);
    assert.match(policy.refusal("127.0.0.1")!, /not among --webhook-allowed-hosts/);
    assert.equal(policy.allowsAddress("11.0.0.1"), false);
    assert.throws(() => loadConfig({ webhookAllowedHosts: "10.0.0.0/99" }, {}), /webhook allowed hosts: "10.0.0.0\/99" is not a host name/);
    assert.throws(() => loadConfig({ webhookMaxAttempts: "0" }, {}), /webhook max attempts must be at least 1/);
    assert.equal(loadConfig({}, {}).webhooks.maxAttempts, 5);
    assert.equal(loadConfig({}, { FEEDGATE_WEBHOOK_MAX_BACKOFF: "30s" }).webhooks.maxBackoffMs, 30_000);
  });

  test("Events API types map to GitHub's webhook names; types without a webhook to none", () => {
    assert.equal(webhookEventName("PushEvent"), "push");
    assert.equal(webhookEventName("WatchEvent"), "watch");
    assert.equal(webhookEventName("PullRequestReviewCommentEvent"), "pull_request_review_comment");
    assert.equal(webhookEventName("GistEvent"), null);
    assert.equal(webhookEventName("constructor"), null);
  });
});
