/**
 * `feedgate serve` driven by a script or a test suite: it says it is ready, and where, in one line a shell can read
 * whatever the log level, and in a port file. Real processes and real sockets: what is tested is what a script sees.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { basic } from "../helpers/test-app.js";
import { event } from "../helpers/events.js";
import { feedgate, runCli, waitForOutput, type CliOptions, type CliRun } from "../helpers/cli.js";

const ALICE_TOKEN = "0123456789abcdef0123456789abcdef01234567";
/** A world for `--seed`: a user with a repository, a token and an event. */
const WORLD = {
  users: [{ login: "alice", password: "alice-password" }],
  repos: [{ full_name: "alice/site" }],
  tokens: [{ user: "alice", token: ALICE_TOKEN, scopes: ["admin:repo_hook"], note: "seeded" }],
  events: [event("900000000001", "PushEvent", "alice", "alice/site")],
};
const ADMIN_PASSWORD = "s3cret-admin-password";

interface Ready {
  feedgate: string;
  url: string;
  port: number;
  pid: number;
  metrics_url?: string;
}

/** The ready line, once printed, parsed. */
async function ready(server: CliRun): Promise<Ready> {
  const [line] = await waitForOutput(server, /^\{"feedgate":"ready",.*\}$/m);
  return JSON.parse(line) as Ready;
}

/** The messages of the JSON log lines on stdout, at info and above. */
const logMessages = (stdout: string) =>
  stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { msg?: string; level?: number })
    .filter((line) => (line.level ?? 0) >= 30)
    .map((line) => line.msg ?? "");

/** Stops the server as a script would, and returns how it ended. */
async function stop(server: CliRun) {
  server.child.kill("SIGTERM");
  const exit = await server.done;
  assert.equal(exit.code, 0, exit.stderr);
  return exit;
}

/** Every server started, so that one a failed test left running is stopped: it would keep the test process alive. */
const started: CliRun[] = [];
function serve(args: string[], options: CliOptions = {}): CliRun {
  const server = feedgate(["serve", ...args], options);
  started.push(server);
  return server;
}

describe("feedgate serve, for scripts", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "feedgate-scripted-"));
  });
  after(async () => {
    for (const server of started) {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
    }
    await Promise.all(started.map((server) => server.done));
    rmSync(dir, { recursive: true, force: true });
  });

  test("--port 0 --port-file: one ready line on stdout even with --log-level silent, and the port alone in the file", async () => {
    const portFile = join(dir, "port");
    const server = serve(["--port", "0", "--port-file", portFile, "--log-level", "silent", "--db", join(dir, "a.db")]);
    const line = await ready(server);
    assert.equal(line.feedgate, "ready");
    assert.equal(line.pid, server.child.pid);
    assert.equal(line.url, `http://127.0.0.1:${line.port}`);
    assert.ok(line.port > 0);
    assert.equal(readFileSync(portFile, "utf8"), String(line.port), "the number alone");
    assert.deepEqual(
      readdirSync(dir).filter((name) => name.endsWith(".tmp")),
      [],
      "no temporary file left behind",
    );

    const events = await fetch(`${line.url}/events`);
    assert.equal(events.status, 200);
    const exit = await stop(server);
    // Silent: the ready line is all stdout holds, and it comes in one piece with its keys in the documented order.
    assert.match(exit.stdout, /^\{"feedgate":"ready","url":"http:\/\/127\.0\.0\.1:\d+","port":\d+,"pid":\d+\}\n$/);
  });

  test("the ready line comes at --log-level warn with readable logs too, after the port is open; FEEDGATE_PORT_FILE works as the flag", async () => {
    const portFile = join(dir, "env-port");
    const server = serve(
      [
        "--port",
        "0",
        "--metrics-port",
        "0",
        "--log-level",
        "warn",
        "--log-format",
        "pretty",
        "--db",
        join(dir, "b.db"),
      ],
      { env: { FEEDGATE_PORT_FILE: portFile } },
    );
    const line = await ready(server);
    assert.equal(Number(readFileSync(portFile, "utf8")), line.port);
    assert.match(line.metrics_url!, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal((await fetch(`${line.metrics_url}/metrics`)).status, 200);
    const exit = await stop(server);
    assert.equal(exit.stdout.match(/"feedgate":"ready"/g)?.length, 1, exit.stdout);
  });

  test("a port file that cannot be written: one line naming --port-file, status 1, and the server does not stay up", async () => {
    const portFile = join(dir, "no-such-dir", "port");
    const server = serve(["--port", "0", "--port-file", portFile, "--db", join(dir, "c.db")]);
    const timer = setTimeout(() => server.child.kill("SIGKILL"), 20_000);
    const exit = await server.done;
    clearTimeout(timer);
    assert.equal(exit.code, 1, exit.stderr);
    assert.equal(
      exit.stderr,
      `feedgate: cannot write the port file ${portFile} (ENOENT); check --port-file (or FEEDGATE_PORT_FILE)\n`,
    );
    assert.doesNotMatch(exit.stdout, /"feedgate":"ready"/);
    assert.ok(!existsSync(portFile));
  });

  test("--ephemeral serves from memory: the database FEEDGATE_DB names is never made, nor anything beside it", async () => {
    const disk = join(dir, "ephemeral");
    const server = serve(["--ephemeral", "--port", "0"], { env: { FEEDGATE_DB: join(disk, "feedgate.db") } });
    const { url } = await ready(server);
    assert.equal((await fetch(`${url}/events`)).status, 200);
    assert.equal((await fetch(`${url}/readyz`)).status, 200);
    const exit = await stop(server);
    assert.ok(!existsSync(disk), "nothing was written where FEEDGATE_DB points");
    assert.ok(
      logMessages(exit.stdout).includes(
        "the database is in memory: nothing is written to disk, and it is gone when the server stops",
      ),
      exit.stdout,
    );
  });

  test("--test-controls warns in the log that any caller may wipe the data, and names a database file that outlives the process", async () => {
    const memory = serve(["--ephemeral", "--test-controls", "--port", "0", "--log-level", "warn"]);
    const { url } = await ready(memory);
    assert.equal((await fetch(`${url}/_feedgate/reset`, { method: "POST" })).status, 200);
    assert.ok(
      logMessages((await stop(memory)).stdout).includes(
        "test controls are on: any caller may reset the data, move the clock and make requests fail",
      ),
    );
    const file = serve(["--db", join(dir, "controls.db"), "--test-controls", "--port", "0", "--log-level", "warn"]);
    await ready(file);
    assert.ok(
      logMessages((await stop(file)).stdout).includes(
        "test controls are on with a database that outlives this process: any caller may wipe it through /_feedgate/reset",
      ),
    );
  });

  test("a --db file that does not exist is created with its folders, and the log says so at info; the next start does not", async () => {
    const db = join(dir, "new", "deeper", "feedgate.db");
    const created = `created a new database at ${db}`;
    const first = serve(["--port", "0", "--db", db]);
    await ready(first);
    assert.ok(logMessages((await stop(first)).stdout).includes(created));
    assert.ok(existsSync(db));
    const second = serve(["--port", "0", "--db", db]);
    await ready(second);
    const exit = await stop(second);
    assert.ok(!logMessages(exit.stdout).includes(created), exit.stdout);
    assert.ok(
      logMessages(exit.stdout).some((msg) => msg.startsWith("Server listening at")),
      "the log was read",
    );
  });

  test("--ephemeral with --db is refused in one line, before anything is opened", async () => {
    const db = join(dir, "never", "feedgate.db");
    for (const args of [
      ["--ephemeral", "--db", db],
      ["--db", db, "--ephemeral"],
      ["--ephemeral", "--db", ":memory:"],
    ]) {
      const result = await runCli(["serve", "--port", "0", ...args]);
      assert.equal(result.code, 1, args.join(" "));
      assert.equal(
        result.stderr,
        "feedgate: --ephemeral and --db cannot be combined: --ephemeral is --db :memory:; give one of them\n",
      );
      assert.equal(result.stdout, "");
    }
    assert.ok(!existsSync(join(dir, "never")));
  });

  test("--ephemeral --seed with FEEDGATE_ADMIN: the world and a site admin are there before the port opens, and no password is logged", async () => {
    const world = join(dir, "world.json");
    writeFileSync(world, JSON.stringify(WORLD));
    const disk = join(dir, "seeded-ephemeral");
    const server = serve(["--ephemeral", "--seed", world, "--port", "0"], {
      env: { FEEDGATE_ADMIN: `root:${ADMIN_PASSWORD}`, FEEDGATE_DB: join(disk, "feedgate.db") },
    });
    const { url } = await ready(server);
    const seeded = await fetch(`${url}/users/alice/events`);
    assert.deepEqual(
      ((await seeded.json()) as { id: string }[]).map((e) => e.id),
      ["900000000001"],
    );

    const root = { authorization: basic("root", ADMIN_PASSWORD), "content-type": "application/json" };
    const more = await fetch(`${url}/admin/world`, {
      method: "POST",
      headers: root,
      body: JSON.stringify({ events: [event("900000000002", "WatchEvent", "bob", "alice/site")] }),
    });
    assert.equal(more.status, 200, await more.clone().text());
    assert.equal(((await more.json()) as { events_added: number }).events_added, 1);
    const events = await fetch(`${url}/admin/events`, {
      method: "POST",
      headers: root,
      body: JSON.stringify([event("900000000003", "PushEvent", "alice", "alice/site")]),
    });
    assert.equal(events.status, 200);
    const feed = (await (await fetch(`${url}/repos/alice/site/events`)).json()) as { id: string }[];
    assert.deepEqual(feed.map((e) => e.id).sort(), ["900000000001", "900000000002", "900000000003"]);

    // A hook with a secret seals it with the webhook key: in memory too, nothing beside FEEDGATE_DB's file.
    const hook = await fetch(`${url}/repos/alice/site/hooks`, {
      method: "POST",
      headers: { authorization: `token ${ALICE_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({
        name: "web",
        config: { url: "http://127.0.0.1:9/hook", content_type: "json", secret: "hook-secret" },
      }),
    });
    assert.equal(hook.status, 201, await hook.clone().text());
    const exit = await stop(server);
    assert.ok(!existsSync(disk), "nothing was written where FEEDGATE_DB points");
    const logs = exit.stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { msg?: string; level?: number });
    assert.ok(
      logs.some((line) => line.msg === "created site administrator root (--admin)" && line.level === 30),
      exit.stdout,
    );
    assert.ok(
      logs.some((line) =>
        line.msg?.startsWith(`seeded ${world}: 1 user, 0 organizations, 1 repository, 1 token, 1 event`),
      ),
      exit.stdout,
    );
    assert.ok(!`${exit.stdout}${exit.stderr}`.includes(ADMIN_PASSWORD), "the admin's password was printed");
  });

  test("--admin naming a user that exists leaves it as it is, and says so in a warning", async () => {
    const db = join(dir, "existing-admin.db");
    assert.equal((await runCli(["user", "add", "root", "--password", "the-old-password", "--db", db])).code, 0);
    const server = serve(["--admin", `root:${ADMIN_PASSWORD}`, "--port", "0", "--db", db, "--log-level", "warn"]);
    const { url } = await ready(server);
    const status = async (password: string) =>
      (await fetch(`${url}/authorizations`, { headers: { authorization: basic("root", password) } })).status;
    assert.equal(await status("the-old-password"), 200);
    assert.equal(await status(ADMIN_PASSWORD), 401);
    const exit = await stop(server);
    assert.match(
      exit.stdout,
      /"level":40,.*"msg":"--admin: root exists already and was left as it is; the password given was not set"/,
    );
    assert.ok(!exit.stdout.includes(ADMIN_PASSWORD));
  });

  test("a bad --admin or FEEDGATE_ADMIN, or a --seed file that is not there: one line, status 1, no database made, no password shown", async () => {
    const db = join(dir, "never-admin", "feedgate.db");
    const cases: [string[], Record<string, string>, string][] = [
      [
        ["--admin", "root"],
        {},
        "feedgate: --admin: must be LOGIN:PASSWORD with neither part empty, such as root:change-me\n",
      ],
      [
        ["--admin", ":hunter2"],
        {},
        "feedgate: --admin: must be LOGIN:PASSWORD with neither part empty, such as root:change-me\n",
      ],
      [
        ["--admin", "root:"],
        {},
        "feedgate: --admin: must be LOGIN:PASSWORD with neither part empty, such as root:change-me\n",
      ],
      [
        [],
        { FEEDGATE_ADMIN: "hunter2" },
        "feedgate: FEEDGATE_ADMIN: must be LOGIN:PASSWORD with neither part empty, such as root:change-me\n",
      ],
      [
        [],
        { FEEDGATE_ADMIN: "bad_login:hunter2" },
        'feedgate: FEEDGATE_ADMIN: "bad_login" is not a valid login: use letters, digits and single hyphens (at most 39 characters)\n',
      ],
      [
        ["--seed", join(dir, "no-world.json")],
        {},
        `feedgate: ${join(dir, "no-world.json")}: does not exist; a world file is JSON such as demo/world.json\n`,
      ],
    ];
    for (const [args, env, line] of cases) {
      const result = await runCli(["serve", "--port", "0", "--db", db, ...args], { env });
      assert.deepEqual(
        [result.code, result.stderr, result.stdout],
        [1, line, ""],
        `${args.join(" ")} ${JSON.stringify(env)}`,
      );
    }
    assert.ok(!existsSync(join(dir, "never-admin")));
  });
});
