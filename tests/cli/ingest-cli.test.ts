import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { feedgate, runCli, waitForOutput } from "../helpers/cli.js";
import { SAMPLE, SAMPLE_GZ, ids, ndjson, sampleLines, snapshot } from "../helpers/ingest-fixtures.js";
import { event } from "../helpers/events.js";
import Database from "better-sqlite3";
import { currentOtp } from "../../src/server/services/credentials.js";
import { basic } from "../helpers/test-app.js";

const run = (args: string[], input?: string | Buffer) => runCli(args, { input });

/** A path as a literal part of a pattern. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const OTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DP";
const ALICE_TOKEN = "0123456789abcdef0123456789abcdef01234567";

const WORLD = {
  users: [
    { login: "alice", password: "alice-password", following: ["bob"] },
    { login: "carol", password: "carol-password", otp_secret: OTP_SECRET },
  ],
  orgs: [{ login: "acme", members: ["alice"] }],
  repos: [{ full_name: "acme/secret", private: true }],
  tokens: [{ user: "alice", token: ALICE_TOKEN, scopes: ["repo"], note: "seeded" }],
  events: [event("900000000001", "PushEvent", "bob", "bob/site")],
  events_files: ["sample.ndjson.gz"],
  issue_events: [
    {
      repo: "bob/site",
      id: "900000000101",
      event: "closed",
      actor: { login: "bob" },
      created_at: "2021-07-21T10:00:00Z",
      issue: { number: 1, title: "Done", state: "closed" },
    },
  ],
};

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), "feedgate-ingest-cli-"));
  copyFileSync(SAMPLE_GZ, join(dir, "sample.ndjson.gz"));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a file into the test folder and returns its path. */
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe("feedgate seed", () => {
  let db: string;
  let world: string;
  before(() => {
    db = join(dir, "seed.db");
    world = file("world.json", JSON.stringify(WORLD));
  });

  test("loads a world file, events files included, and prints what the file held and what it added", async () => {
    const result = await run(["seed", world, "--db", db]);
    assert.equal(result.code, 0, result.stderr);
    // A fresh database: every row was added, the accounts and repositories that only events name included.
    const rows = await snapshot(db);
    const accounts = (type: string) => rows.users!.filter((u) => (u as { type: string }).type === type).length;
    assert.equal(
      result.stdout,
      `seeded ${world}: 2 users, 1 organization, 1 repository, 1 token, 801 events, 1 issue event\n` +
        `added: ${accounts("User")} users, ${accounts("Organization")} organizations, ${rows.repos!.length} repositories, ` +
        "1 token, 801 events (0 already present), 1 issue event (0 already present)\n",
    );
    assert.ok(accounts("User") > 2 && rows.repos!.length > 1);
  });

  test("seeding the same file again adds nothing and changes no row, count or password hash", async () => {
    const before = await snapshot(db);
    const result = await run(["seed", world, "--db", db]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stdout,
      `seeded ${world}: 2 users, 1 organization, 1 repository, 1 token, 801 events, 1 issue event\n` +
        "added: 0 users, 0 organizations, 0 repositories, 0 tokens, 0 events (801 already present), 0 issue events (1 already present)\n",
    );
    assert.deepEqual(await snapshot(db), before);
  });

  /** Each bad world also brings a new user and event, which must not be written. */
  const NEWCOMER = {
    users: [{ login: "newcomer", password: "pw" }],
    events: [event("900000000002", "PushEvent", "newcomer", "newcomer/x")],
  };
  const BAD: { problem: string; name: string; text: string; error: string | RegExp }[] = [
    {
      problem: "a repository name without a slash",
      name: "bad-repo.json",
      error: 'repos[1].full_name: must be "owner/name"',
      text: JSON.stringify({ ...NEWCOMER, repos: [{ full_name: "a/b" }, { full_name: "ab" }] }),
    },
    {
      problem: "an event without a repository",
      name: "bad-event.json",
      error: 'events[0].repo.name: must be "owner/name"',
      text: JSON.stringify({ events: [{ ...event("900000000003", "PushEvent", "x", "x/y"), repo: undefined }] }),
    },
    {
      problem: "an events file with a line that is not JSON",
      name: "bad-lines.json",
      error: "broken.ndjson:2: is not valid JSON",
      text: JSON.stringify({ ...NEWCOMER, events_files: ["broken.ndjson"] }),
    },
    {
      problem: "a token for an unknown user, found while writing",
      name: "bad-token.json",
      error: "tokens[0]: no user ghost",
      text: JSON.stringify({
        ...NEWCOMER,
        tokens: [{ user: "ghost", token: "abababababababababababababababababababab" }],
      }),
    },
    {
      problem: "a file that is not JSON",
      name: "bad-json.json",
      error: /bad-json\.json: is not valid JSON$/,
      text: "{ users: [] }",
    },
  ];
  for (const { problem, name, text, error } of BAD) {
    test(`a world file with ${problem} exits 1 naming the entry, and writes nothing`, async () => {
      file("broken.ndjson", `${ndjson([event("900000000004", "PushEvent", "newcomer", "newcomer/y")])}\n{"id":\n`);
      const path = file(name, text);
      const before = await snapshot(db);
      const result = await run(["seed", path, "--db", db]);
      assert.equal(result.code, 1);
      assert.equal(result.stdout, "");
      if (typeof error === "string") assert.equal(result.stderr, `feedgate: ${error}\n`);
      else assert.match(result.stderr.trim(), error);
      assert.deepEqual(await snapshot(db), before);
    });
  }
});

describe("feedgate import", () => {
  let db: string;
  before(() => {
    db = join(dir, "import.db");
  });

  test("imports the real GH Archive sample, plain then gzip: 800 events, then none again", async () => {
    const plain = await run(["import", SAMPLE, "--db", db]);
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(
      plain.stdout,
      new RegExp(`^${literal(SAMPLE)}: 800 lines, 800 events added, 0 already present, 0 malformed lines skipped\n`),
    );
    assert.match(plain.stdout, /\nimported 800 events in [\d.]+ s \(\d+ events\/s\)\n$/);

    const gzip = await run(["import", SAMPLE_GZ, "--db", db]);
    assert.equal(gzip.code, 0, gzip.stderr);
    assert.match(
      gzip.stdout,
      new RegExp(`^${literal(SAMPLE_GZ)}: 800 lines, 0 events added, 800 already present, 0 malformed lines skipped\n`),
    );
    assert.match(gzip.stdout, /\nimported 0 events in /);
  });

  const mixed = () =>
    [
      JSON.stringify(event("910000000001", "PushEvent", "mixer", "mixer/a")),
      '{"id": "9',
      JSON.stringify({ ...event("910000000002", "PushEvent", "mixer", "mixer/a"), repo: {} }),
      "",
      JSON.stringify(event("910000000003", "PushEvent", "mixer", "mixer/a")),
    ].join("\n");

  test("skips malformed lines, reporting each as file:line on stderr, and imports the rest", async () => {
    const path = file("mixed.ndjson", mixed());
    const result = await run(["import", path, "--db", db]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, new RegExp(`skipped ${literal(path)}:2: is not valid JSON\n`));
    assert.match(result.stderr, new RegExp(`skipped ${literal(path)}:3\\.repo\\.name: must be "owner/name"\n`));
    assert.match(
      result.stdout,
      new RegExp(`^${literal(path)}: 4 lines, 2 events added, 0 already present, 2 malformed lines skipped\n`),
    );
  });

  test("--strict aborts a file at its first malformed line with nothing from it written; earlier files stay", async () => {
    const good = file("good.ndjson", ndjson([event("920000000001", "PushEvent", "strict", "strict/a")]));
    const bad = file("strict.ndjson", mixed().replaceAll("91000000000", "92100000000"));
    const before = await snapshot(db);
    const result = await run(["import", good, bad, "--strict", "--db", db]);
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr
        .split("\n")
        .filter((l) => l.startsWith("feedgate:"))
        .join("\n"),
      `feedgate: ${bad}:2: is not valid JSON`,
    );
    assert.match(result.stdout, new RegExp(`^${literal(good)}: 1 lines, 1 events added`));
    const added = ((await snapshot(db)).events as { id: number }[]).filter(
      (e) => !(before.events as { id: number }[]).some((b) => b.id === e.id),
    );
    assert.deepEqual(
      added.map((e) => e.id),
      [920000000001],
    );
  });

  test("CRLF line ends, no final line break and characters cut by the reader's 1 MiB reads: every body kept byte for byte", async () => {
    const [first, second] = sampleLines().map(
      (line) => JSON.parse(line) as { id: string; payload: Record<string, unknown> },
    );
    // A 1.2 MB run of three-byte characters, placed so that the file's first 1 MiB read ends inside one.
    const build = (filler: string) => {
      const one = JSON.stringify({
        ...first!,
        id: "950000000001",
        payload: { ...first!.payload, filler, text: "€".repeat(400_000) },
      });
      return { one, runStart: Buffer.byteLength(one.slice(0, one.indexOf("€"))) };
    };
    let filler = "";
    while ((1024 * 1024 - build(filler).runStart) % 3 !== 1) filler += "x";
    const lines = [
      build(filler).one,
      JSON.stringify({ ...second!, id: "950000000002", payload: { text: "naïve 🚀 ✓" } }),
    ];
    const path = file("crlf.ndjson", lines.join("\r\n"));
    const target = join(dir, "crlf.db");

    const result = await run(["import", path, "--db", target]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      new RegExp(`^${literal(path)}: 2 lines, 2 events added, 0 already present, 0 malformed lines skipped\n`),
    );
    const stored = (await snapshot(target)).events as { id: number; body: string }[];
    assert.deepEqual(
      stored.map((e) => e.body),
      lines,
    );
  });

  test("an import into a database without events builds the feed indexes once, at the end; a stopped one is repaired at the next open", async () => {
    const indexes = (path: string) => {
      const handle = new Database(path, { readonly: true });
      try {
        return handle
          .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events' ORDER BY name")
          .all();
      } finally {
        handle.close();
      }
    };
    const migrated = join(dir, "indexes-migrated.db");
    assert.equal((await run(["migrate", "--db", migrated])).code, 0);
    const expected = indexes(migrated);
    assert.equal(
      expected.length,
      7,
      "the four feed indexes of migration 2, the arrival index of migration 9, retention's of migration 16 and the pushes' of migration 40",
    );

    const imported = join(dir, "indexes-imported.db");
    const result = await run(["import", SAMPLE_GZ, "--db", imported]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(indexes(imported), expected);

    // As if an import had been stopped between dropping the indexes and building them again.
    const handle = new Database(imported);
    handle.exec("DROP INDEX events_by_repo; DROP INDEX events_public");
    handle.close();
    assert.equal((await run(["migrate", "--db", imported])).code, 0);
    assert.deepEqual(indexes(imported), expected);
  });

  test("- reads standard input, skipping malformed lines as -:line", async () => {
    const input = `${JSON.stringify(event("930000000001", "PushEvent", "piper", "piper/a"))}\nnot json\n`;
    const result = await run(["import", "-", "--db", db], input);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /skipped -:2: is not valid JSON\n/);
    assert.match(result.stdout, /^-: 2 lines, 1 events added, 0 already present, 1 malformed lines skipped\n/);
  });

  test("- with --strict writes nothing from standard input when a line is malformed, and all of it otherwise", async () => {
    const valid = JSON.stringify(event("940000000001", "PushEvent", "piper", "piper/b"));
    const before = await snapshot(db);
    const refused = await run(["import", "-", "--strict", "--db", db], `${valid}\nnot json\n`);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /feedgate: -:2: is not valid JSON\n$/);
    assert.deepEqual(await snapshot(db), before);

    const accepted = await run(["import", "-", "--strict", "--db", db], `${valid}\n`);
    assert.equal(accepted.code, 0, accepted.stderr);
    assert.match(accepted.stdout, /^-: 1 lines, 1 events added, 0 already present, 0 malformed lines skipped\n/);
  });

  test("standard input may be gzip, detected from its bytes", async () => {
    const result = await run(["import", "-", "--db", join(dir, "stdin-gzip.db")], readFileSync(SAMPLE_GZ));
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^-: 800 lines, 800 events added/);
  });

  test("standard input named twice is refused", async () => {
    const result = await run(["import", "-", "-", "--db", db], "");
    assert.equal(result.code, 1);
    assert.equal(result.stderr, "feedgate: standard input (-) can be imported once\n");
  });
});

describe("a seeded and imported database, served", () => {
  /** Real sample facts: Neacy watched bytedance/flutter_ume before ck19940316 starred it (17246339565); Tikhonov-Chen
   * forked l0o0/jasminum (17245515735); inbarhavilio added yuvalbloom to inbarhavilio/ADT_List (17244792545);
   * six events name the Lombiq organization. */
  const LOMBIQ = ["17244207697", "17244791752", "17244792061", "17245514739", "17245515236", "17246339877"];
  /** Later events the sample does not have: one in the fork, and one that shows ADT_List is private. */
  const FOLLOW_UPS = [
    event("950000000001", "PushEvent", "Tikhonov-Chen", "Tikhonov-Chen/jasminum", {
      created_at: "2021-07-21T10:00:00Z",
    }),
    event("950000000002", "PushEvent", "inbarhavilio", "inbarhavilio/ADT_List", {
      public: false,
      created_at: "2021-07-21T10:01:00Z",
    }),
  ];
  const TOKENS = {
    memberRepo: "1111111111111111111111111111111111111111",
    memberUser: "2222222222222222222222222222222222222222",
    strangerRepo: "3333333333333333333333333333333333333333",
  };
  let server: ReturnType<typeof feedgate>;
  let url: string;
  const get = (path: string, authorization?: string) =>
    fetch(`${url}${path}`, { headers: authorization ? { authorization } : {} });
  const feedIds = async (path: string, authorization?: string) => {
    const res = await get(path, authorization);
    assert.equal(res.status, 200, path);
    return ids(await res.text());
  };

  before(async () => {
    const db = join(dir, "served.db");
    const world = file("served-world.json", JSON.stringify({ ...WORLD, events_files: [] }));
    const steps = [
      ["seed", world],
      ["import", SAMPLE_GZ, file("follow-ups.ndjson", ndjson(FOLLOW_UPS))],
      ["user", "add", "stranger", "--password", "stranger-password"],
      ["token", "add", "yuvalbloom", "--scopes", "repo", "--token", TOKENS.memberRepo],
      ["token", "add", "yuvalbloom", "--scopes", "user", "--token", TOKENS.memberUser],
      ["token", "add", "stranger", "--scopes", "repo", "--token", TOKENS.strangerRepo],
    ];
    for (const step of steps) {
      const result = await run([...step, "--db", db]);
      assert.equal(result.code, 0, `${step.join(" ")}: ${result.stderr}`);
    }
    server = feedgate(["serve", "--port", "0", "--db", db, "--rate-limit-anonymous", "1000"]);
    [, url = ""] = await waitForOutput(server, /Server listening at (http:\/\/127\.0\.0\.1:\d+)/);
  });
  after(async () => {
    server.child.kill("SIGTERM");
    await server.done;
  });

  test("seeded users log in with their password, and with a one-time password when they have a secret", async () => {
    assert.equal((await get("/authorizations", basic("alice", "alice-password"))).status, 200);
    assert.equal((await get("/authorizations", basic("carol", "carol-password"))).status, 401);
    const withOtp = await fetch(`${url}/authorizations`, {
      headers: { authorization: basic("carol", "carol-password"), "x-github-otp": currentOtp(OTP_SECRET, new Date()) }, // a real process: its clock is the wall clock
    });
    assert.equal(withOtp.status, 200);
  });

  test("a seeded token authenticates, and its owner's seeded relations drive the feeds", async () => {
    const res = await get("/users/alice/received_events", `token ${ALICE_TOKEN}`);
    assert.equal(res.headers.get("x-oauth-scopes"), "repo");
    assert.deepEqual(ids(await res.text()), ["900000000001"]); // bob's, followed
    assert.equal((await get("/repos/acme/secret/events")).status, 404);
    assert.equal((await get("/repos/acme/secret/events", `token ${ALICE_TOKEN}`)).status, 200);
    assert.deepEqual(await feedIds("/repos/bob/site/issues/events"), ["900000000101"]);
  });

  test("WatchEvent: the watcher receives the watched repository's later events", async () => {
    const received = await feedIds("/users/Neacy/received_events");
    assert.ok(received.includes("17246339565"), "ck19940316's later event in bytedance/flutter_ume");
  });

  test("ForkEvent: the fork joins its parent's network, both ways", async () => {
    assert.ok(
      (await feedIds("/networks/l0o0/jasminum/events")).includes("950000000001"),
      "the fork's event, in the parent's network",
    );
    assert.ok(
      (await feedIds("/networks/Tikhonov-Chen/jasminum/events")).includes("17245515735"),
      "the parent's, in the fork's",
    );
  });

  test("public: false makes the repository private: anonymous callers and strangers get 404", async () => {
    assert.equal((await get("/repos/inbarhavilio/ADT_List/events")).status, 404);
    assert.equal((await get("/repos/inbarhavilio/ADT_List/events", `token ${TOKENS.strangerRepo}`)).status, 404);
  });

  test("MemberEvent: the added member reads the private repository's feed with a repo token, not without one", async () => {
    assert.equal((await get("/repos/inbarhavilio/ADT_List/events", `token ${TOKENS.memberUser}`)).status, 404);
    const feed = await feedIds("/repos/inbarhavilio/ADT_List/events", `token ${TOKENS.memberRepo}`);
    assert.deepEqual(feed.slice(0, 1), ["950000000002"]);
    assert.ok(feed.includes("17244792545"));
  });

  test("an event's org lists it in /orgs/:org/events", async () => {
    assert.deepEqual((await feedIds("/orgs/Lombiq/events")).sort(), LOMBIQ);
  });
});
