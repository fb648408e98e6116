/**
 * On PostgreSQL, `feedgate backup` and `feedgate restore` print the pg_dump and pg_restore commands to run instead of
 * doing anything; this proves the commands they print work: a pg_dump made while a server takes writes through HTTP,
 * restored into a new database, holds every write acknowledged before the dump began, consistently, and the restored
 * database serves and takes writes (its sequences came along).
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { feedgate, runCli, waitForOutput } from "../helpers/cli.js";
import { createTestDatabase, skipOutsideCi, skipUnlessPostgres, type TestDatabase } from "../helpers/services.js";
import { until } from "../helpers/wait.js";
import { ADMIN_LOGIN, firstIds, idsInFeeds, startWriteLoad } from "../helpers/write-load.js";
import { PostgresStore } from "../../src/server/store/postgres/postgres-store.js";
import { buildApp } from "../../src/server/app.js";
import { loadConfig } from "../../src/server/config.js";
import { basic } from "../helpers/test-app.js";
import { TEST_PASSWORD_COST } from "../helpers/password-cost.js";

const WRITERS = 3;
const sh = promisify(execFile);
const hasTools = await sh("sh", ["-c", "command -v pg_dump && command -v pg_restore"]).then(
  () => true,
  () => false,
);
const skip =
  (await skipUnlessPostgres()) || skipOutsideCi(hasTools ? false : "pg_dump and pg_restore are not installed");

/** The command a `feedgate backup|restore` line on PostgreSQL says to run. */
function printedCommand(stderr: string): string {
  const match = /for PostgreSQL run (.*) \(nothing was written\)\n$/.exec(stderr);
  assert.ok(match, stderr);
  return match[1]!;
}

describe("on PostgreSQL, the pg_dump and pg_restore that feedgate backup and restore print", { skip }, () => {
  let dir: string;
  let source: TestDatabase;
  let target: TestDatabase;
  let server: ReturnType<typeof feedgate>;
  let acknowledged: string[][];
  let ackedBefore: number[];
  let ackedAfter: number[];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "feedgate-pg-backup-"));
    source = await createTestDatabase();
    target = await createTestDatabase();
    server = feedgate(
      ["serve", "--db", source.url, "--port", "0", "--log-level", "silent", "--rate-limit-authenticated", "1000000"],
      { env: { FEEDGATE_ADMIN: ADMIN_LOGIN } },
    );
    const url = (await waitForOutput(server, /"url":"(http:[^"]+)"/))[1]!;
    const load = startWriteLoad(url, WRITERS);
    acknowledged = load.acknowledged;
    try {
      await until(() => load.counts().every((count) => count >= 3), "writes before the dump");
      const backup = await runCli(["backup", join(dir, "feedgate.dump"), "--db", source.url]);
      assert.equal(backup.code, 1);
      ackedBefore = load.counts();
      await sh("sh", ["-c", printedCommand(backup.stderr)]);
      ackedAfter = load.counts();
      // The writers never paused: they went on after the dump too.
      await until(() => load.counts().every((count, w) => count > ackedAfter[w]!), "writes after the dump");
    } finally {
      await load.stop();
    }
    server.child.kill("SIGTERM");
    await server.done;
  });
  after(async () => {
    if (server.child.exitCode === null) server.child.kill("SIGKILL");
    await source?.drop();
    await target?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("the dump was made while every writer went on writing", () => {
    assert.ok(
      ackedBefore.every((count) => count >= 3),
      `writes before the dump: ${ackedBefore}`,
    );
    assert.ok(
      acknowledged.every((ids, w) => ids.length > ackedAfter[w]!),
      "writes after the dump",
    );
  });

  test("restored with the printed pg_restore, the dump holds every write acknowledged before it, and a beginning of each writer's", async () => {
    const restore = await runCli(["restore", join(dir, "feedgate.dump"), "--db", target.url]);
    assert.equal(restore.code, 1);
    await sh("sh", ["-c", printedCommand(restore.stderr)]);
    const store = await PostgresStore.open(target.url);
    try {
      assert.equal(store.migratedAtOpen.applied, 0, "the dump's schema is the latest already");
      const found = await idsInFeeds(target.url, store, WRITERS);
      for (let w = 0; w < WRITERS; w++) {
        const held = found[w]!;
        assert.ok(
          held.length >= ackedBefore[w]!,
          `writer ${w}: ${held.length} of the ${ackedBefore[w]} writes acknowledged before the dump`,
        );
        assert.deepEqual(held, firstIds(w, held.length), `writer ${w}`);
        assert.ok(held.length <= acknowledged[w]!.length + 1, `writer ${w}: more than was written`);
      }
      // The restored database takes new writes: its identities and sequences were restored with their positions.
      const app = await buildApp({
        config: loadConfig({ db: target.url, logLevel: "silent", passwordCost: TEST_PASSWORD_COST }, {}),
        store,
      });
      try {
        const added = await app.inject({
          method: "POST",
          url: "/admin/events",
          headers: { authorization: basic("root", "change-me") },
          payload: [{ id: "99", type: "WatchEvent", actor: { login: "after" }, repo: { name: "load/r0" } }],
        });
        assert.deepEqual([added.statusCode, added.json().events_added], [200, 1], added.body);
        const token = await app.inject({
          method: "POST",
          url: "/authorizations",
          headers: { authorization: basic("root", "change-me") },
          payload: { scopes: ["repo"], note: "after the restore" },
        });
        assert.equal(token.statusCode, 201, token.body);
      } finally {
        await app.close();
      }
    } finally {
      await store.close();
    }
  });
});
