/**
 * `feedgate serve` driven by a script or a test suite: it says it is ready, and where, in one line a shell can read
 * whatever the log level, and in a port file. Real processes and real sockets: what is tested is what a script sees.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { feedgate, runCli, waitForOutput, type CliOptions, type CliRun } from "../helpers/cli.js";

interface Ready { feedgate: string; url: string; port: number; pid: number; metrics_url?: string }

/** The ready line, once printed, parsed. */
async function ready(server: CliRun): Promise<Ready> {
  const [line] = await waitForOutput(server, /^\{"feedgate":"ready",.*\}$/m);
  return JSON.parse(line) as Ready;
}

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
    assert.deepEqual(readdirSync(dir).filter((name) => name.endsWith(".tmp")), [], "no temporary file left behind");

    const events = await fetch(`${line.url}/events`);
    assert.equal(events.status, 200);
    const exit = await stop(server);
    // Silent: the ready line is all stdout holds, and it comes in one piece with its keys in the documented order.
    assert.match(exit.stdout, /^\{"feedgate":"ready","url":"http:\/\/127\.0\.0\.1:\d+","port":\d+,"pid":\d+\}\n$/);
  });

  test("the ready line comes at --log-level warn with readable logs too, after the port is open; FEEDGATE_PORT_FILE works as the flag", async () => {
    const portFile = join(dir, "env-port");
    const server = serve(["--port", "0", "--metrics-port", "0", "--log-level", "warn", "--log-format", "pretty",
      "--db", join(dir, "b.db")], { env: { FEEDGATE_PORT_FILE: portFile } });
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
    assert.equal(exit.stderr, `feedgate: cannot write the port file ${portFile} (ENOENT); check --port-file (or FEEDGATE_PORT_FILE)\n`);
    assert.doesNotMatch(exit.stdout, /"feedgate":"ready"/);
    assert.ok(!existsSync(portFile));
  });

  test("--ephemeral serves from memory: the database FEEDGATE_DB names is never made, nor anything beside it", async () => {
    const disk = join(dir, "ephemeral");
    const server = serve(["--ephemeral", "--port", "0"], { env: { FEEDGATE_DB: join(disk, "feedgate.db") } });
    const { url } = await ready(server);
    assert.equal((await fetch(`${url}/events`)).status, 200);
    assert.equal((await fetch(`${url}/readyz`)).status, 200);
    await stop(server);
    assert.ok(!existsSync(disk), "nothing was written where FEEDGATE_DB points");
  });

  test("--ephemeral with --db is refused in one line, before anything is opened", async () => {
    const db = join(dir, "never", "feedgate.db");
    for (const args of [["--ephemeral", "--db", db], ["--db", db, "--ephemeral"], ["--ephemeral", "--db", ":memory:"]]) {
      const result = await runCli(["serve", "--port", "0", ...args]);
      assert.equal(result.code, 1, args.join(" "));
      assert.equal(result.stderr, "feedgate: --ephemeral and --db cannot be combined: --ephemeral is --db :memory:; give one of them\n");
      assert.equal(result.stdout, "");
    }
    assert.ok(!existsSync(join(dir, "never")));
  });
});
