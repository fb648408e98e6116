/**
 * `feedgate backup` copies the SQLite file while a server serves and writes from it, and `feedgate restore` puts a
 * copy back: under a steady load of writes through HTTP, each backup holds every write acknowledged before it began,
 * and is consistent (of each writer's sequence of writes, a beginning: never a later write without an earlier one).
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { feedgate, runCli, waitForOutput } from "../helpers/cli.js";
import { ADMIN_LOGIN, firstIds, idsInFeeds as idsInDatabase, startWriteLoad } from "../helpers/write-load.js";
import { until } from "../helpers/wait.js";
import { migrateDatabase, SqliteStore } from "../../src/server/store/sqlite/sqlite-store.js";
import { LATEST_SCHEMA_VERSION } from "../../src/server/store/schema-version.js";
import Database from "better-sqlite3";

const WRITERS = 3;
const BACKUPS = 3;

/** What the SQLite database `db` holds of each writer's events. */
async function idsInFeeds(db: string): Promise<string[][]> {
  const store = await SqliteStore.open(db);
  try {
    return await idsInDatabase(db, store, WRITERS);
  } finally {
    await store.close();
  }
}

describe("feedgate backup and restore while a server takes writes", () => {
  let dir: string;
  let db: string;
  let server: ReturnType<typeof feedgate>;
  let url: string;
  /** Each writer's acknowledged event ids, in the order it wrote them (one write at a time per writer). */
  let acknowledged: string[][];
  /** For each backup: every writer's acknowledged count when it began, and its file. */
  const backups: { file: string; ackedBefore: number[] }[] = [];
  /** `feedgate restore` without --force over the database the server is writing. */
  let liveRestore: { code: number; stdout: string; stderr: string };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "feedgate-backup-"));
    db = join(dir, "feedgate.db");
    server = feedgate(
      ["serve", "--db", db, "--port", "0", "--log-level", "silent", "--rate-limit-authenticated", "1000000"],
      { env: { FEEDGATE_ADMIN: ADMIN_LOGIN } },
    );
    url = (await waitForOutput(server, /"url":"(http:[^"]+)"/))[1]!;

    const load = startWriteLoad(url, WRITERS);
    acknowledged = load.acknowledged;
    try {
      for (let b = 0; b < BACKUPS; b++) {
        // Some writes by every writer first, and between backups.
        const previous = backups.at(-1)?.ackedBefore ?? acknowledged.map(() => 0);
        await until(() => acknowledged.every((ids, w) => ids.length >= previous[w]! + 3), "writes before the backup");
        const file = join(dir, `backup-${b}.db`);
        const ackedBefore = acknowledged.map((ids) => ids.length);
        const result = await runCli(["backup", file, "--db", db]);
        assert.deepEqual([result.code, result.stderr], [0, ""]);
        assert.match(
          result.stdout,
          new RegExp(`^backed up ${db} to ${file} \\(schema version \\d+, [\\d.]+ MB\\)\\n$`),
        );
        backups.push({ file, ackedBefore });
      }
      liveRestore = await runCli(["restore", backups[0]!.file, "--db", db]);
      await until(
        () => acknowledged.every((ids, w) => ids.length >= backups.at(-1)!.ackedBefore[w]! + 3),
        "writes after the last backup",
      );
    } finally {
      await load.stop();
    }
    server.child.kill("SIGTERM");
    await server.done;
  });
  after(() => {
    if (server.child.exitCode === null) server.child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  test("writes went on while the backups were made", () => {
    for (const [b, { ackedBefore }] of backups.entries()) {
      assert.ok(
        ackedBefore.every((count) => count > 0),
        `backup ${b} began before every writer had written`,
      );
    }
    const after = acknowledged.map((ids, w) => ids.length - backups.at(-1)!.ackedBefore[w]!);
    assert.ok(
      after.every((count) => count >= 3),
      `writes after the last backup began: ${after}`,
    );
  });

  test("each backup, restored, holds every write acknowledged before it began, and a beginning of each writer's writes", async () => {
    for (const [b, { file, ackedBefore }] of backups.entries()) {
      const restored = join(dir, `restored-${b}.db`);
      const result = await runCli(["restore", file, "--db", restored]);
      assert.deepEqual([result.code, result.stderr], [0, ""]);
      const found = await idsInFeeds(restored);
      for (let w = 0; w < WRITERS; w++) {
        const held = found[w]!;
        assert.ok(
          held.length >= ackedBefore[w]!,
          `backup ${b}, writer ${w}: ${held.length} of the ${ackedBefore[w]} writes acknowledged before it`,
        );
        // A consistent copy: the first `held.length` writes of the writer, no gap. The last may be one whose answer
        // had not arrived yet (written, not yet acknowledged), so the ids are the writer's, in its order.
        assert.deepEqual(held, firstIds(w, held.length), `backup ${b}, writer ${w}`);
      }
    }
  });

  test("a restore over the database the server uses is refused without --force, saying it may be in use", () => {
    assert.deepEqual(
      [liveRestore.code, liveRestore.stdout, liveRestore.stderr],
      [
        1,
        "",
        `feedgate: ${db} exists and may be in use ` +
          "(stop the server first): restoring replaces everything in it; give --force to do so (nothing was written)\n",
      ],
    );
  });

  test("a backup made after the server stopped holds every acknowledged write (nothing was lost to the refused restore)", async () => {
    const file = join(dir, "final.db");
    assert.equal((await runCli(["backup", file, "--db", db])).code, 0);
    const restored = join(dir, "restored-final.db");
    assert.equal((await runCli(["restore", file, "--db", restored])).code, 0);
    assert.deepEqual(
      await idsInFeeds(restored),
      acknowledged.map((ids) => [...ids].sort((a, b) => Number(a) - Number(b))),
    );
  });
});

describe("feedgate backup and restore: what they refuse, in one line, writing nothing", () => {
  let dir: string;
  let db: string;
  const lines = (text: string) => text.split("\n").filter(Boolean);
  /** The files of the directory and their bytes: what "nothing written" is checked against. */
  const contents = () =>
    Object.fromEntries(
      readdirSync(dir, { withFileTypes: true }).map((entry) => [
        entry.name,
        entry.isDirectory() ? "a directory" : readFileSync(join(dir, entry.name)).toString("base64"),
      ]),
    );

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "feedgate-backup-"));
    db = join(dir, "feedgate.db");
    assert.equal((await runCli(["user", "add", "alice", "--password", "pw", "--db", db])).code, 0);
    assert.equal((await runCli(["backup", join(dir, "alice.db"), "--db", db])).code, 0);
    writeFileSync(join(dir, "notes.txt"), "not a database\n");
    mkdirSync(join(dir, "sub"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function refused(args: string[], line: string) {
    const before_ = contents();
    const result = await runCli(args);
    assert.deepEqual(
      [result.code, result.stdout, lines(result.stderr)],
      [1, "", [`feedgate: ${line}`]],
      args.join(" "),
    );
    assert.deepEqual(contents(), before_, `${args.join(" ")} wrote something`);
  }

  test("a backup path that exists, or is a directory", async () => {
    await refused(
      ["backup", join(dir, "notes.txt"), "--db", db],
      `${join(dir, "notes.txt")} exists: name a new file for the backup (nothing was written)`,
    );
    await refused(
      ["backup", join(dir, "sub"), "--db", db],
      `${join(dir, "sub")} is a directory: name a new file for the backup (nothing was written)`,
    );
    await refused(
      ["backup", join(dir, "nowhere", "b.db"), "--db", db],
      `${join(dir, "nowhere")} does not exist: create it, or name a file in a directory that does`,
    );
  });

  test("a database that is not there is not created by backing it up", async () => {
    await refused(
      ["backup", join(dir, "b.db"), "--db", join(dir, "missing.db")],
      `the database ${join(dir, "missing.db")} does not exist`,
    );
  });

  test("a restore of a file that is not a feedgate database", async () => {
    const target = join(dir, "restored.db");
    await refused(
      ["restore", join(dir, "notes.txt"), "--db", target],
      `the backup ${join(dir, "notes.txt")} is not a feedgate database`,
    );
    await refused(
      ["restore", join(dir, "sub"), "--db", target],
      `the backup ${join(dir, "sub")} is a directory, not a feedgate database`,
    );
    await refused(
      ["restore", join(dir, "none.db"), "--db", target],
      `the backup ${join(dir, "none.db")} does not exist`,
    );
    const plain = join(tmpdir(), `feedgate-plain-${process.pid}.db`);
    new Database(plain).exec("CREATE TABLE t (x)");
    try {
      await refused(["restore", plain, "--db", target], `the backup ${plain} is not a feedgate database`);
    } finally {
      rmSync(plain);
    }
  });

  test("a restore over a database that exists, without --force", async () => {
    await refused(
      ["restore", join(dir, "alice.db"), "--db", db],
      `${db} exists: restoring replaces everything in it; give --force to do so (nothing was written)`,
    );
  });

  test("a backup from a newer feedgate", async () => {
    const newer = join(tmpdir(), `feedgate-newer-${process.pid}.db`);
    copyFileSync(join(dir, "alice.db"), newer);
    const future = LATEST_SCHEMA_VERSION + 1;
    new Database(newer).prepare("INSERT INTO schema_migrations VALUES (?, 'future', '')").run(future);
    try {
      await refused(
        ["restore", newer, "--db", join(dir, "restored.db")],
        `the backup ${newer} is at schema version ${future}, ` +
          `newer than this feedgate's (${LATEST_SCHEMA_VERSION}): restore it with a feedgate that knows version ${future} (nothing was written)`,
      );
    } finally {
      rmSync(newer);
    }
  });

  test("on PostgreSQL, backup and restore print the pg_dump and pg_restore to run, without the password", async () => {
    const url = "postgres://feedgate:hunter2@db.example:5432/feedgate";
    await refused(
      ["backup", "feedgate.dump", "--db", url],
      "feedgate backup works on SQLite files; for PostgreSQL run " +
        "pg_dump --format=custom --file='feedgate.dump' 'postgres://feedgate@db.example:5432/feedgate' (nothing was written)",
    );
    await refused(
      ["restore", "feedgate.dump", "--db", url],
      "feedgate restore works on SQLite files; for PostgreSQL run " +
        "pg_restore --clean --if-exists --no-owner --dbname='postgres://feedgate@db.example:5432/feedgate' 'feedgate.dump' (nothing was written)",
    );
  });

  test("an in-memory database has nothing to back up", async () => {
    await refused(
      ["backup", join(dir, "m.db"), "--db", ":memory:"],
      "an in-memory database (--db :memory:) lives in one process only: nothing to backup",
    );
  });

  test("with --force, a restore replaces the database, and what was added since the backup is gone", async () => {
    assert.equal((await runCli(["user", "add", "bob", "--password", "pw", "--db", db])).code, 0);
    const result = await runCli(["restore", join(dir, "alice.db"), "--db", db, "--force"]);
    assert.deepEqual([result.code, result.stderr], [0, ""]);
    assert.equal(
      result.stdout,
      `restored ${join(dir, "alice.db")} to ${db} (replacing what was there): schema version ${LATEST_SCHEMA_VERSION}; ` +
        "restart any feedgate serving it\n",
    );
    const list = await runCli(["user", "list", "--json", "--db", db]);
    assert.deepEqual(
      lines(list.stdout).map((line) => (JSON.parse(line) as { login: string }).login),
      ["alice"],
    );
  });

  test("an older feedgate's backup is restored as it is, and the next feedgate migrate brings it to the latest version", async () => {
    const old = join(tmpdir(), `feedgate-old-${process.pid}.db`);
    const db5 = new Database(old);
    migrateDatabase(db5, 5);
    db5.close();
    const restored = join(dir, "from-version-5.db");
    try {
      const result = await runCli(["restore", old, "--db", restored]);
      assert.deepEqual([result.code, result.stderr], [0, ""]);
      assert.equal(
        result.stdout,
        `restored ${old} to ${restored}: schema version 5; the next start or \`feedgate migrate\` ` +
          `migrates it to version ${LATEST_SCHEMA_VERSION}\n`,
      );
      const migrate = await runCli(["migrate", "--db", restored]);
      assert.equal(
        migrate.stdout,
        `${restored}: applied ${LATEST_SCHEMA_VERSION - 5} migrations (now at version ${LATEST_SCHEMA_VERSION})\n`,
      );
    } finally {
      rmSync(old);
    }
  });
});
