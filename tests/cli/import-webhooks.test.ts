/**
 * `feedgate import` and `feedgate replay` queue webhook deliveries for the events they add, in the events' own
 * transactions; `--no-webhooks` queues none, and `--webhook-max-queue` bounds a hook's queue and says which hooks
 * it skipped.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers/cli.js";
import { ndjson } from "../helpers/ingest-fixtures.js";
import { SqliteStore } from "../../src/server/store/sqlite/sqlite-store.js";
import type { HookOwner, HookRow } from "../../src/server/store/hook-store.js";

const pushes = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    id: String(from + i),
    type: "PushEvent",
    actor: { login: "alice" },
    repo: { name: "alice/tools" },
    public: true,
    created_at: "2021-07-21T10:00:00Z",
    payload: { head: `h${from + i}` },
  }));

describe("import and replay queue webhook deliveries", () => {
  let dir: string;
  let db: string;
  let hook: HookRow;
  let owner: HookOwner;
  const file = (name: string, events: object[]) => {
    const path = join(dir, name);
    writeFileSync(path, `${ndjson(events)}\n`);
    return path;
  };
  const queued = async () => {
    const store = await SqliteStore.open(db);
    try {
      return await store.hooks.queued(hook.id);
    } finally {
      await store.close();
    }
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "feedgate-import-hooks-"));
    db = join(dir, "feedgate.db");
    assert.equal((await runCli(["import", file("first.ndjson", pushes(1, 1)), "--db", db])).code, 0);
    const store = await SqliteStore.open(db);
    owner = { kind: "repo", repoId: (await store.directory.findRepo("alice", "tools"))!.id };
    hook = await store.hooks.create(
      {
        owner,
        name: "web",
        active: true,
        events: ["push"],
        config: { url: "http://127.0.0.1:9/hook", contentType: "json", insecureSsl: "0", sealedSecret: null },
      },
      new Date(),
    );
    await store.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("an import queues one delivery per event added; --no-webhooks none", async () => {
    const imported = await runCli(["import", file("two.ndjson", pushes(10, 2)), "--db", db]);
    assert.equal(imported.code, 0, imported.stderr);
    assert.equal(await queued(), 2);
    const skipped = await runCli(["import", file("three.ndjson", pushes(20, 3)), "--no-webhooks", "--db", db]);
    assert.equal(skipped.code, 0, skipped.stderr);
    assert.equal(await queued(), 2, "nothing more queued");
  });

  test("--webhook-max-queue stops queueing for a full hook and says so, import and replay alike", async () => {
    const imported = await runCli([
      "import",
      file("four.ndjson", pushes(30, 4)),
      "--webhook-max-queue",
      "3",
      "--db",
      db,
    ]);
    assert.equal(imported.code, 0, imported.stderr);
    assert.equal(await queued(), 3);
    assert.match(
      imported.stderr,
      new RegExp(`webhooks: the queue of hook ${hook.id} was full \\(--webhook-max-queue\\)`),
    );
    const replayed = await runCli([
      "replay",
      file("five.ndjson", pushes(40, 2)),
      "--speed",
      "max",
      "--webhook-max-queue",
      "4",
      "--db",
      db,
    ]);
    assert.equal(replayed.code, 0, replayed.stderr);
    assert.equal(await queued(), 4);
    assert.match(replayed.stderr, /was full/);
    const refused = await runCli([
      "import",
      file("six.ndjson", pushes(50, 1)),
      "--webhook-max-queue",
      "none",
      "--db",
      db,
    ]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /webhook max queue must be a non-negative integer/);
  });
});
