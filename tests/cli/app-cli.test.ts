/** `feedgate app create` and `feedgate app install`: an app registered on the database, its key written to a file. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers/cli.js";
import { startTestApp } from "../helpers/test-app.js";
import { WORLD } from "../helpers/client-world.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { SqliteStore } from "../../src/server/store/sqlite/sqlite-store.js";
import { SecretBox } from "../../src/server/webhooks/secret-box.js";

test("app create prints the id, slug and client id and writes the private key; app install installs it", async () => {
  const t = await startTestApp();
  const dir = await mkdtemp(join(tmpdir(), "feedgate-app-"));
  try {
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
    const keyFile = join(dir, "bot.pem");
    const cli = (...args: string[]) => runCli([...args, "--db", t.dbPath]);
    const created = await cli(
      "app",
      "create",
      "Issue Bot",
      "--owner",
      "alice",
      "--private-key-file",
      keyFile,
      "--permission",
      "issues=write",
      "--event",
      "issues",
    );
    assert.equal(created.code, 0, created.stderr);
    const [, id] = /^id (\d+)$/m.exec(created.stdout)!;
    assert.match(created.stdout, /^slug issue-bot$/m);
    assert.match(created.stdout, /^client id Iv23li\w+$/m);
    assert.match(await readFile(keyFile, "utf8"), /^-----BEGIN PRIVATE KEY-----/);
    assert.equal((await stat(keyFile)).mode & 0o777, 0o600);
    const installed = await cli("app", "install", id!, "alice", "--repository", "hello");
    assert.equal(installed.code, 0, installed.stderr);
    const [installation] = await t.store.apps.installations(Number(id));
    assert.equal(installation!.repositorySelection, "selected");
    const refused = await cli("app", "create", "X", "--owner", "nobody", "--private-key-file", join(dir, "x.pem"));
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /no account "nobody"/);
  } finally {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("seed seals a world's app webhook secret with the key serve opens it with, beside the database", async () => {
  const dir = await mkdtemp(join(tmpdir(), "feedgate-app-seed-"));
  try {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const world = {
      users: [{ login: "alice" }],
      apps: [
        {
          id: 1001,
          slug: "seeded-bot",
          owner: "alice",
          private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
          webhook_url: "http://127.0.0.1:9/hook",
          webhook_secret: "seeded-secret",
        },
      ],
    };
    await writeFile(join(dir, "world.json"), JSON.stringify(world));
    const db = join(dir, "feedgate.db");
    const seeded = await runCli(["seed", join(dir, "world.json"), "--db", db]);
    assert.equal(seeded.code, 0, seeded.stderr);
    const store = await SqliteStore.open(db);
    try {
      const [hook] = (await store.hooks.list({ kind: "app", appId: 1001 }, { limit: 1, offset: 0 })).rows;
      assert.ok(hook?.config.sealedSecret && !hook.config.sealedSecret.includes("seeded-secret"));
      assert.equal(SecretBox.atPath(`${db}.webhook-key`).open(hook.config.sealedSecret), "seeded-secret");
    } finally {
      await store.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
