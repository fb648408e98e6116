import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { feedgate, runCli, waitForOutput } from "../helpers/cli.js";
import { basic } from "../helpers/test-app.js";

const run = (args: string[], input?: string) => runCli(args, { input });

const KNOWN_TOKEN = "0123456789abcdef0123456789abcdef01234567";

describe("feedgate CLI", () => {
  let dir: string;
  let db: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "feedgate-cli-"));
    db = join(dir, "nested", "feedgate.db");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("migrate creates the database file and says it created the schema", async () => {
    const result = await run(["migrate", "--db", db]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /: created the schema \(\d+ migrations\)\n$/);
    assert.ok(existsSync(db));
  });

  test("user add creates a user; a second add of the same login fails with one clear line", async () => {
    assert.equal((await run(["user", "add", "alice", "--password", "first-password", "--db", db])).code, 0);
    const again = await run(["user", "add", "ALICE", "--password", "x", "--db", db]);
    assert.equal(again.code, 1);
    assert.equal(again.stderr.trim(), "feedgate: user ALICE already exists");
  });

  test("user add refuses an invalid login and a bad OTP secret", async () => {
    const badLogin = await run(["user", "add", "bad_login", "--password", "x", "--db", db]);
    assert.equal(badLogin.code, 1);
    assert.match(badLogin.stderr, /not a valid login/);
    const badSecret = await run(["user", "add", "bob", "--password", "x", "--otp-secret", "not!base32", "--db", db]);
    assert.equal(badSecret.code, 1);
    assert.match(badSecret.stderr, /OTP secret/);
  });

  test("user add with --otp-secret and --site-admin shows in user list", async () => {
    const added = await run([
      "user",
      "add",
      "carol",
      "--password",
      "pw",
      "--otp-secret",
      "JBSWY3DPEHPK3PXPJBSWY3DP",
      "--site-admin",
      "--db",
      db,
    ]);
    assert.equal(added.code, 0, added.stderr);
    const list = await run(["user", "list", "--db", db]);
    assert.match(list.stdout, /\n\d+ +alice +User +no +no +0 +no +/);
    assert.match(list.stdout, /\n\d+ +carol +User +yes +yes +0 +no +/);
  });

  test("user passwd reads the new password from stdin, and token add registers a known token", async () => {
    // At the production cost: the serve test below needs a password check slow enough to be in flight at SIGTERM.
    const passwd = await run(["user", "passwd", "alice", "--password-cost", "15", "--db", db], "second-password\n");
    assert.equal(passwd.code, 0, passwd.stderr);
    const stored = new Database(db, { readonly: true });
    assert.match(
      String(stored.prepare("SELECT password_hash FROM users WHERE login = 'alice'").pluck().get()),
      /^scrypt\$32768\$8\$1\$/,
    );
    stored.close();
    const token = await run([
      "token",
      "add",
      "alice",
      "--scopes",
      "repo,user:email,user",
      "--note",
      "ci",
      "--token",
      KNOWN_TOKEN,
      "--db",
      db,
    ]);
    assert.equal(token.code, 0, token.stderr);
    assert.equal(token.stdout.trim(), KNOWN_TOKEN);
    const minted = await run(["token", "add", "alice", "--db", db]);
    assert.match(minted.stdout.trim(), /^fgp_[0-9A-Za-z]{36}$/);
  });

  test("token add (or token create) --expires 30d stores an expiry 30 days from now, which token list shows", async () => {
    const before = Date.now();
    const added = await run(["token", "create", "alice", "--note", "expiring", "--expires", "30d", "--db", db]);
    assert.equal(added.code, 0, added.stderr);
    const stored = new Database(db, { readonly: true });
    const expiresAt = Date.parse(
      String(
        stored
          .prepare("SELECT expires_at FROM authorizations WHERE token_last_eight = ?")
          .pluck()
          .get(added.stdout.trim().slice(-8)),
      ),
    );
    stored.close();
    assert.ok(
      expiresAt >= before + 30 * 86_400_000 && expiresAt <= Date.now() + 30 * 86_400_000,
      new Date(expiresAt).toISOString(),
    );
    const list = await run(["token", "list", "alice", "--json", "--db", db]);
    const rows = list.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { note: string; expires_at: string | null });
    assert.equal(rows.find((r) => r.note === "expiring")!.expires_at, new Date(expiresAt).toISOString());
  });

  test("token add refuses unknown scopes, malformed token values and unknown users", async () => {
    for (const args of [
      ["--scopes", "repo,nope"],
      ["--token", "not-a-token"],
      ["--token", KNOWN_TOKEN.toUpperCase()],
      ["--expires", "soon"],
      ["--expires", "0d"],
    ]) {
      const result = await run(["token", "add", "alice", ...args, "--db", db]);
      assert.equal(result.code, 1, args.join(" "));
    }
    assert.match((await run(["token", "add", "nobody", "--db", db])).stderr, /no user "nobody"/);
  });

  test("serve answers with what the CLI stored, finishes in-flight requests on SIGTERM and closes the database", async () => {
    const server = feedgate(["serve", "--port", "0", "--db", db]);
    const [, url] = await waitForOutput(server, /Server listening at (http:\/\/127\.0\.0\.1:\d+)/);

    const byToken = await fetch(`${url}/nowhere`, { headers: { authorization: `token ${KNOWN_TOKEN}` } });
    assert.equal(byToken.status, 404);
    assert.equal(byToken.headers.get("x-oauth-scopes"), "repo, user");

    const oldPassword = await fetch(`${url}/authorizations`, {
      headers: { authorization: basic("alice", "first-password") },
    });
    assert.equal(oldPassword.status, 401);

    // A password check takes tens of milliseconds: the signal lands while this request is in flight.
    const inFlight = fetch(`${url}/authorizations`, { headers: { authorization: basic("alice", "second-password") } });
    await waitForOutput(server, /"url":"\/authorizations".*\n(?:.*\n)*?.*"url":"\/authorizations"/);
    server.child.kill("SIGTERM");
    const signalled = Date.now();
    const response = await inFlight;
    assert.equal(response.status, 200);
    const notes = ((await response.json()) as { note: string | null }[]).map((a) => a.note);
    assert.ok(notes.includes("ci"));

    const exit = await server.done;
    assert.equal(exit.code, 0, exit.stderr);
    // Not after the keep-alive timeout (72 s): the answer in flight closed its connection.
    assert.ok(Date.now() - signalled < 10_000, `exited ${Date.now() - signalled} ms after SIGTERM`);
    assert.ok(!existsSync(`${db}-wal`), "a cleanly closed SQLite database leaves no write-ahead log behind");
  });

  test("serve --demo on a fresh database prints a demo login, password and token that work", async (t) => {
    const fresh = join(dir, "demo.db");
    const server = feedgate(["serve", "--demo", "--port", "0", "--db", fresh]);
    // On stderr, apart from the log lines on stdout.
    const [, exports] = await waitForOutput(server, /export (FEEDGATE_URL=.*)\n/, 20_000, "stderr");
    await waitForOutput(server, /The API reference: http:\/\/127\.0\.0\.1:\d+\/docs /, 20_000, "stderr");
    const [, consoleUrl, consoleLogin, consolePassword] = await waitForOutput(
      server,
      /The console: (http:\/\/127\.0\.0\.1:\d+\/console\/) \(Username: (\S+), Password: (\S+)\)\n/,
      20_000,
      "stderr",
    );
    const vars = Object.fromEntries([...exports!.matchAll(/(\w+)='?([^' ]+)'?/g)].map((m) => [m[1], m[2]]));
    const list = await fetch(`${vars.FEEDGATE_URL}/authorizations`, {
      headers: { authorization: basic(vars.FEEDGATE_USER!, vars.FEEDGATE_PASSWORD!) },
    });
    assert.equal(list.status, 200);
    assert.equal((await fetch(`${vars.FEEDGATE_URL}/docs`)).status, 200, "the reference the banner names");
    assert.equal(consoleUrl, `${vars.FEEDGATE_URL}/console/`);
    assert.deepEqual(
      [consoleLogin, consolePassword],
      [vars.FEEDGATE_USER, vars.FEEDGATE_PASSWORD],
      "the demo credentials sign in to the console",
    );
    assert.match(
      await (await fetch(consoleUrl!)).text(),
      /Sign in to feedgate/,
      "the console's sign-in page, after its redirect",
    );
    const tokenCall = await fetch(`${vars.FEEDGATE_URL}/nowhere`, {
      headers: { authorization: `token ${vars.FEEDGATE_TOKEN}` },
    });
    assert.equal(tokenCall.status, 404);
    server.child.kill("SIGINT");
    const first = await server.done;
    assert.equal(first.code, 0);
    // stdout stays JSON lines a collector can read, ending with "stopped"; no secret reaches it.
    const logLines = first.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { msg: string });
    assert.equal(logLines.at(-1)!.msg, "stopped");
    assert.ok(!first.stdout.includes(vars.FEEDGATE_PASSWORD!) && !first.stdout.includes(vars.FEEDGATE_TOKEN!));

    // A second start cannot show them again (they are stored hashed): it shows the commands that make new ones, which work.
    const second = feedgate(["serve", "--demo", "--port", "0", "--db", fresh, "--log-level", "warn"]);
    // A failed assertion must not leave it running: it would hold the test process open.
    t.after(() => second.child.kill("SIGKILL"));
    const [ready] = await waitForOutput(second, /^\{"feedgate":"ready".*$/m);
    const { url } = JSON.parse(ready) as { url: string };
    await waitForOutput(second, /start afresh/, 20_000, "stderr");
    assert.equal(
      second.stderr,
      [
        "",
        "The demo account was created on an earlier start; its password and token were shown then, and are stored only as hashes.",
        "Set a new password (prompted, or read from stdin):",
        `  npx feedgate user passwd demo --db ${fresh}`,
        "Issue a new token (printed once; the old one keeps working until revoked):",
        `  npx feedgate token add demo --scopes repo,user,read:org --db ${fresh}`,
        `Or start afresh: stop the server and delete ${fresh}.`,
        "",
      ].join("\n"),
    );
    const [passwd, tokenAdd] = second.stderr
      .split("\n")
      .filter((line) => line.startsWith("  npx feedgate "))
      .map((line) => line.slice("  npx feedgate ".length).split(" "));
    assert.equal((await run(passwd!, "a-new-demo-password\n")).code, 0);
    const minted = await run(tokenAdd!);
    assert.equal(minted.code, 0, minted.stderr);
    assert.equal(
      (await fetch(`${url}/authorizations`, { headers: { authorization: basic("demo", "a-new-demo-password") } }))
        .status,
      200,
    );
    const byToken = await fetch(`${url}/user`, { headers: { authorization: `token ${minted.stdout.trim()}` } });
    assert.equal(byToken.status, 200);
    assert.equal(byToken.headers.get("x-oauth-scopes"), "repo, user, read:org");
    second.child.kill("SIGTERM");
    const exit = await second.done;
    assert.doesNotMatch(exit.stdout + exit.stderr, /password:/);
  });

  test("serve --demo on a database with users but no demo account makes none, and says why", async () => {
    const server = feedgate(["serve", "--demo", "--port", "0", "--db", db, "--log-level", "warn"]);
    await waitForOutput(server, /^\{"feedgate":"ready"/m);
    server.child.kill("SIGTERM");
    const exit = await server.done;
    assert.equal(
      exit.stderr,
      "The database has users already, so no demo account was made: --demo fills only an empty database.\n",
    );
  });

  test('serve --log-format pretty writes readable lines, not JSON, and a last "stopped" line', async () => {
    const server = feedgate(["serve", "--port", "0", "--db", join(dir, "pretty.db"), "--log-format", "pretty"]);
    await waitForOutput(server, /INFO.*: Server listening at http:\/\/127\.0\.0\.1:\d+/);
    server.child.kill("SIGTERM");
    const exit = await server.done;
    assert.equal(exit.code, 0, exit.stderr);
    // The one JSON line is the ready line, printed for scripts whatever the log format.
    assert.deepEqual(
      exit.stdout
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line).feedgate),
      ["ready"],
    );
    assert.match(exit.stdout.trim().split("\n").at(-1)!, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO.*: stopped$/);
  });
});
