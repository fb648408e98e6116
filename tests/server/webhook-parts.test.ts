/** The webhooks' small parts: sealed secrets, the retry schedule, GitHub's signature test vector, the flags. */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { createCipheriv, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { keyIdOf, SecretBox } from "../../src/server/webhooks/secret-box.js";
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
      assert.equal(
        SecretBox.atPath(file).open(sealed),
        "It's a Secret to Everybody",
        "another process with the same key file",
      );
      assert.throws(() => SecretBox.ephemeral().open(sealed), "another key cannot open it");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a key file of several keys: the first seals, every one opens; values sealed before key ids still open", () => {
    const dir = mkdtempSync(join(tmpdir(), "feedgate-keys-"));
    try {
      const file = join(dir, "webhook.key");
      const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
      writeFileSync(file, `${oldKey.toString("hex")}\n`);
      const running = SecretBox.atPath(file);
      const underOld = running.seal("s3cret");
      assert.equal(SecretBox.keyIdIn(underOld), keyIdOf(oldKey));
      // A value as feedgate sealed it before keys had ids: "v1:" and IV, tag and text, under the one key.
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", oldKey, iv);
      const text = Buffer.concat([cipher.update("legacy", "utf8"), cipher.final()]);
      const v1 = `v1:${Buffer.concat([iv, cipher.getAuthTag(), text]).toString("base64")}`;
      assert.equal(running.open(v1), "legacy");

      // A rotation writes the new key first: the running box opens what is sealed under it (reading the file again),
      // and seals under it from then on.
      writeFileSync(`${file}.tmp`, `${newKey.toString("hex")}\n${oldKey.toString("hex")}\n`);
      renameSync(`${file}.tmp`, file);
      const underNew = SecretBox.withKeys([newKey]).seal("fresh");
      assert.equal(running.open(underNew), "fresh");
      assert.equal(SecretBox.keyIdIn(running.seal("x")), keyIdOf(newKey));
      assert.deepEqual([running.open(underOld), running.open(v1)], ["s3cret", "legacy"], "the old key still opens");
      assert.throws(
        () => SecretBox.withKeys([newKey]).open(underOld),
        /sealed under a key this instance does not have/,
      );

      writeFileSync(file, "not a key\n");
      assert.throws(() => SecretBox.atPath(file).seal("x"), /line 1: a webhook key must be 64 hex digits/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("GitHub's signature test vector", () => {
    // ../shared/data/webhooks/headers.md: secret "It's a Secret to Everybody", payload "Hello, World!".
    assert.equal(
      signature("sha256", "It's a Secret to Everybody", Buffer.from("Hello, World!")),
      "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
    );
  });

  test("retries start at about a second and double, within +-20%, up to --webhook-max-backoff", () => {
    assert.equal(
      backoffMs(1, 600_000, () => 0.5),
      1000,
    );
    assert.equal(
      backoffMs(2, 600_000, () => 0.5),
      2000,
    );
    assert.equal(
      backoffMs(4, 600_000, () => 0.5),
      8000,
    );
    assert.equal(
      backoffMs(1, 600_000, () => 0),
      800,
    );
    assert.equal(
      backoffMs(1, 600_000, () => 1),
      1200,
    );
    assert.equal(
      backoffMs(30, 600_000, () => 0.5),
      600_000,
    );
  });

  test("allowed hosts: names by name, addresses and CIDRs by address", () => {
    const policy = AddressPolicy.parse("hooks.example.com, 10.0.0.0/8, ::1");
    assert.equal(policy.refusal("hooks.example.com"), null);
    assert.equal(policy.refusal("10.1.2.3"), null);
    assert.equal(policy.refusal("[::1]"), null);
    assert.match(policy.refusal("127.0.0.1")!, /not among --webhook-allowed-hosts/);
    assert.equal(policy.allowsAddress("11.0.0.1"), false);
    assert.throws(
      () => loadConfig({ webhookAllowedHosts: "10.0.0.0/99" }, {}),
      /webhook allowed hosts: "10.0.0.0\/99" is not a host name/,
    );
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
