/**
 * `feedgate replay`: events arrive at their recorded pace divided by --speed, batch by batch, readable through the
 * feeds of a running app while the rest is still to come; --restamp, --new-ids, flag errors, and a stop on SIGINT
 * that leaves the database holding exactly the batches the summary counts. Real timers and a real store throughout:
 * the bounds on time are generous, the order exact. SQLite by default; FEEDGATE_TEST_STORE=postgres (the driver
 * matrix) runs the same on PostgreSQL, since each batch goes through that driver's ingest transaction.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { feedgate, runCli, waitForOutput } from "../helpers/cli.js";
import { ndjson, sampleLines } from "../helpers/ingest-fixtures.js";
import { event } from "../helpers/events.js";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { sleep } from "../helpers/wait.js";
import { withTopLevelValues } from "../../src/server/services/event-replay.js";

const T0 = Date.parse("2021-07-21T06:00:00Z");
/** GitHub's format for `seconds` after T0. */
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString().replace(".000Z", "Z");

interface FeedEvent {
  id: string;
  created_at: string;
  [key: string]: unknown;
}

describe("feedgate replay", () => {
  let t: TestApp;
  let dir: string;
  before(async () => {
    t = await startTestApp({ rateLimitAnonymous: 100_000 });
    dir = mkdtempSync(join(tmpdir(), "feedgate-replay-"));
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const file = (name: string, events: object[]) => {
    const path = join(dir, name);
    writeFileSync(path, `${ndjson(events)}\n`);
    return path;
  };
  /** The repository's feed, newest first; empty while the repository does not exist yet (404). */
  const feed = async (repo: string) => {
    const response = await t.app.inject({ method: "GET", url: `/repos/${repo}/events?per_page=100` });
    return response.statusCode === 404 ? [] : (response.json() as FeedEvent[]);
  };
  const sortedIds = (events: FeedEvent[]) => events.map((e) => e.id).sort();

  test("events arrive at their recorded pace / --speed, in batches in order, each readable before the next is stored", async () => {
    // Six recorded seconds in three moments; 7004 is earlier than 7003 before it (GH Archive is only roughly in order)
    // and goes in with it.
    const path = file("paced.ndjson", [
      event("7001", "PushEvent", "ann", "ann/paced", { created_at: at(0) }),
      event("7002", "PushEvent", "ben", "ann/paced", { created_at: at(0) }),
      event("7003", "WatchEvent", "ben", "ann/paced", { created_at: at(3) }),
      event("7004", "PushEvent", "ann", "ann/paced", { created_at: at(2) }),
      event("7005", "IssuesEvent", "ben", "ann/paced", { created_at: at(6) }),
      event("7006", "PushEvent", "ann", "ann/paced", { created_at: at(6) }),
    ]);
    // The app's first answer pays for its warm-up (seen at 1.5 s on a loaded machine) before the clock starts, so
    // that the first batch is seen when it is stored, not a second and a half later.
    await feed("ann/paced");
    const started = performance.now();
    let finished = false;
    const replay = runCli(["replay", path, "--db", t.dbPath, "--speed", "3"]).finally(() => (finished = true));
    // What the feed showed, each time it changed, and when.
    const states: { ms: number; ids: string[] }[] = [];
    while (!finished) {
      const ids = sortedIds(await feed("ann/paced"));
      if (ids.length > 0 && ids.join() !== states.at(-1)?.ids.join())
        states.push({ ms: performance.now() - started, ids });
      await sleep(20);
    }
    const result = await replay;
    const ms = performance.now() - started;
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /^replayed 6 events \(6\.0 s of recorded time\) in \d\.\d s at --speed 3 \(\d+ events\/s\): 6 added, 0 already present, 0 malformed lines skipped; (kept pace|fell behind by up to [\d.]+ s \(.*\))\n$/,
    );
    assert.ok(ms >= 1900 && ms < 8000, `took ${ms} ms, expected about 2000`);

    const last = sortedIds(await feed("ann/paced"));
    if (states.at(-1)?.ids.join() !== last.join()) states.push({ ms, ids: last });
    assert.deepEqual(
      states.map((s) => s.ids),
      [
        ["7001", "7002"],
        ["7001", "7002", "7003", "7004"],
        ["7001", "7002", "7003", "7004", "7005", "7006"],
      ],
    );
    // Due at 0, 1 and 2 s after the replay's start: nothing came early. That the first was readable before the last
    // was stored is the three states above; how far apart they were seen depends on the machine's load (a loaded
    // one delays the replay's start, so its first batch, more than its later ones), which the bench measures.
    assert.ok(
      states[1]!.ms >= 950 && states[2]!.ms >= 1900,
      `later batches seen at ${states[1]!.ms}, ${states[2]!.ms} ms`,
    );
    // Without --restamp, events keep their recorded times.
    assert.deepEqual(
      (await feed("ann/paced")).map((e) => [e.id, e.created_at]),
      [
        ["7006", at(6)],
        ["7005", at(6)],
        ["7003", at(3)],
        ["7004", at(2)],
        ["7002", at(0)],
        ["7001", at(0)],
      ],
    );
  });

  test("--restamp stamps each event with the moment it went in, keeping its id and every other byte (stdin, --speed max)", async () => {
    const comment = sampleLines().find((line) => line.includes('"type":"IssueCommentEvent"'))!;
    const recorded = JSON.parse(comment) as FeedEvent & {
      repo: { name: string };
      payload: { comment: { created_at: string } };
    };
    const before = Math.floor(Date.now() / 1000) * 1000;
    const result = await runCli(["replay", "-", "--db", t.dbPath, "--restamp", "--speed", "max"], {
      input: `${comment}\n`,
    });
    const after = Date.now();
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /^replayed 1 events \(0\.0 s of recorded time\) in [\d.]+ s at --speed max \(\d+ events\/s\): 1 added, 0 already present, 0 malformed lines skipped\n$/,
    );

    const [stored] = await feed(recorded.repo.name);
    assert.equal(stored!.id, recorded.id);
    const stamped = Date.parse(stored!.created_at);
    assert.ok(stamped >= before && stamped <= after, `${stored!.created_at} is not now`);
    assert.match(stored!.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // The payload is as recorded, its own created_at included.
    assert.deepEqual(stored, { ...recorded, created_at: stored!.created_at });
    assert.notEqual(stored!.created_at, recorded.created_at);
  });

  test("a second replay adds nothing (same ids) and says so; with --new-ids --restamp the same events arrive again as new", async () => {
    const path = file("twice.ndjson", [
      event("7101", "PushEvent", "ann", "ann/twice", { created_at: at(0) }),
      event("7102", "PushEvent", "ann", "ann/twice", { created_at: at(1) }),
    ]);
    const first = await runCli(["replay", path, "--db", t.dbPath, "--speed", "max"]);
    assert.match(first.stdout, /: 2 added, 0 already present/);
    const again = await runCli(["replay", path, "--db", t.dbPath, "--speed", "max"]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /: 0 added, 2 already present/);
    assert.equal(
      again.stderr,
      "2 events were stored already (same id) and were skipped; --new-ids replays them as new events\n",
    );

    for (const run of [1, 2]) {
      const result = await runCli(["replay", path, "--db", t.dbPath, "--speed", "max", "--new-ids", "--restamp"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /: 2 added, 0 already present/, `run ${run}`);
    }
    const events = await feed("ann/twice");
    assert.equal(events.length, 6);
    // Newest first: the second --new-ids run's, then the first's, each above GitHub's ids and rising in replay order.
    const fresh = events.slice(0, 4).map((e) => e.id);
    assert.ok(
      fresh.every((id) => /^\d{16}$/.test(id)),
      fresh.join(),
    );
    assert.deepEqual(
      fresh.map(BigInt),
      fresh.map(BigInt).sort((a, b) => (a < b ? 1 : -1)),
    );
    assert.deepEqual(
      events.slice(4).map((e) => [e.id, e.created_at]),
      [
        ["7102", at(1)],
        ["7101", at(0)],
      ],
    );
  });

  test("events stored already are not waited for: a second replay goes straight through, and new events after them keep their spacing from them", async () => {
    // Six recorded seconds at --speed 2: three seconds of waiting, the first time.
    const stored = [0, 2, 4, 6].map((second) =>
      event(String(7400 + second), "PushEvent", "ann", "ann/again", { created_at: at(second) }),
    );
    const path = file("again.ndjson", stored);
    assert.match(
      (await runCli(["replay", path, "--db", t.dbPath, "--speed", "max"])).stdout,
      /: 4 added, 0 already present/,
    );

    let started = performance.now();
    const again = await runCli(["replay", path, "--db", t.dbPath, "--speed", "2"]);
    let ms = performance.now() - started;
    assert.equal(again.code, 0, again.stderr);
    assert.match(
      again.stdout,
      /^replayed 4 events \(6\.0 s of recorded time\) in .*: 0 added, 4 already present, .*; kept pace\n$/,
    );
    // Waiting would take the 3,000 ms at least; what the run takes besides (opening the file, starting the write
    // worker) grows on a loaded machine, so the bound is the wait itself.
    assert.ok(ms < 3000, `took ${Math.round(ms)} ms, as if waiting 3000 for events it skipped`);

    // The same four, then one new event two recorded seconds after the last: due a second after the stored ones went in.
    const extended = file("extended.ndjson", [
      ...stored,
      event("7408", "PushEvent", "ann", "ann/again", { created_at: at(8) }),
    ]);
    started = performance.now();
    const resumed = await runCli(["replay", extended, "--db", t.dbPath, "--speed", "2"]);
    ms = performance.now() - started;
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stdout, /: 1 added, 4 already present, .*; kept pace\n$/);
    assert.ok(ms >= 950 && ms < 4000, `took ${Math.round(ms)} ms, expected about 1000 (not 4000)`);
    assert.deepEqual(sortedIds(await feed("ann/again")), ["7400", "7402", "7404", "7406", "7408"]);
  });

  test("a restamped body differs from the recorded text only in its top-level id and created_at", () => {
    // JSON.parse and stringify would round the payload's big number and drop the spaces; the nested created_at stays.
    const text =
      '{"id": "1", "payload": {"n": 12345678901234567890, "comment": {"created_at": "2021-07-21T06:00:00Z", "id": 7}}, "created_at" : "2021-07-21T06:00:00Z"}';
    assert.equal(
      withTopLevelValues(text, { id: '"99"', created_at: '"2026-01-01T00:00:00Z"' }),
      '{"id": "99", "payload": {"n": 12345678901234567890, "comment": {"created_at": "2021-07-21T06:00:00Z", "id": 7}}, "created_at" : "2026-01-01T00:00:00Z"}',
    );
  });

  describe("refuses, with one line and status 1, writing nothing", () => {
    const BAD: [string[], RegExp][] = [
      [
        ["--speed", "0"],
        /^feedgate: --speed must be a number above 0 \(60: an hour of events in a minute\) or max, got "0"$/,
      ],
      [["--speed", "fast"], /^feedgate: --speed must be a number above 0 .* or max, got "fast"$/],
      [["--speed=-2"], /^feedgate: --speed must be a number above 0 .* or max, got "-2"$/],
      [["--max-gap", "soon"], /^feedgate: --max-gap must be a number of seconds above 0, got "soon"$/],
      [["--progress-every", "0"], /^feedgate: --progress-every must be a number of seconds above 0, got "0"$/],
    ];
    for (const [flags, error] of BAD) {
      test(flags.join(" "), async () => {
        const path = file("ok.ndjson", [event("7201", "PushEvent", "ann", "ann/bad", { created_at: at(0) })]);
        const db = join(dir, "never.db");
        const result = await runCli(["replay", path, "--db", db, ...flags]);
        assert.equal(result.code, 1, result.stdout);
        assert.equal(result.stderr.split("\n").length, 2, result.stderr);
        assert.match(result.stderr.trimEnd(), error);
        assert.equal(result.stdout, "");
        assert.ok(!existsSync(db), "the database was opened");
      });
    }

    test("a missing file, named before the database is opened (one that does not answer here)", async () => {
      const missing = join(dir, "2021-07-21-15.json.gz");
      const result = await runCli(["replay", missing, "--db", "postgres://127.0.0.1:9/feedgate"]);
      assert.equal(result.code, 1);
      assert.match(
        result.stderr,
        new RegExp(
          `^feedgate: ${missing.replaceAll(/[.*+?^${}()|[\]\\/]/g, "\\$&")} does not exist; GH Archive files are at https://data\\.gharchive\\.org/.*\\n$`,
        ),
      );
      assert.equal(result.stderr.split("\n").length, 2);
    });
  });

  test("SIGINT stops after the batch in flight: a summary, status 130, and the database holds exactly the events counted", async () => {
    // One event a recorded second for a minute, at real time: the replay is stopped a few seconds in.
    const events = Array.from({ length: 60 }, (_, i) =>
      event(String(7300 + i), "PushEvent", "ann", "ann/stopped", { created_at: at(i) }),
    );
    const path = file("minute.ndjson", events);
    const run = feedgate(["replay", path, "--db", t.dbPath, "--speed", "1", "--progress-every", "0.1"]);
    await waitForOutput(run, /: [3-9] events, /, 20_000, "stderr");
    run.child.kill("SIGINT");
    const done = await run.done;
    assert.equal(done.code, 130, done.stderr);
    const summary =
      /^stopped by SIGINT: replayed (\d+) events \(.*\) in [\d.]+ s at --speed 1 \(\d+ events\/s\): (\d+) added, 0 already present, 0 malformed lines skipped; kept pace\n$/.exec(
        done.stdout,
      );
    assert.ok(summary, done.stdout);
    const added = Number(summary[2]);
    assert.ok(added >= 3 && added < 60, done.stdout);
    // The first `added` events, none after: each batch was one transaction, and none was cut short.
    const stored = (await feed("ann/stopped")).map((e) => e.id).sort();
    assert.deepEqual(
      stored,
      events.slice(0, added).map((e) => e.id),
    );
  });
});
