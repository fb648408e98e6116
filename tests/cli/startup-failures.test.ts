/**
 * A start that fails ends the process at once with status 1 and one line naming the cause and the flag that fixes
 * it, having closed whatever it had opened: a pool or a Redis connection left open would keep the process alive
 * (ioredis reconnects forever), which is how `EADDRINUSE` used to hang `feedgate serve`.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:net";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { feedgate } from "../helpers/cli.js";
import {
  createTestDatabase,
  REDIS_URL,
  skipUnlessPostgres,
  skipUnlessRedis,
  type TestDatabase,
} from "../helpers/services.js";

const services = (await skipUnlessPostgres()) || (await skipUnlessRedis());

/** Runs `feedgate serve ...` and expects it to exit by itself, within `ms`, with status 1. */
async function failedStart(args: string[], ms = 15_000) {
  const run = feedgate(["serve", ...args]);
  const timer = setTimeout(() => run.child.kill("SIGKILL"), ms);
  const exit = await run.done;
  clearTimeout(timer);
  assert.notEqual(exit.signal, "SIGKILL", `still running after ${ms} ms: something was left open\n${exit.stderr}`);
  assert.equal(exit.code, 1, exit.stderr);
  const lines = exit.stderr.trim().split("\n");
  assert.equal(lines.length, 1, `one line, no stack:\n${exit.stderr}`);
  return lines[0]!;
}

describe("feedgate serve when it cannot start", () => {
  let dir: string;
  let busy: Server;
  let busyPort: number;
  let database: TestDatabase | undefined;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "feedgate-start-"));
    busy = createServer().listen(0, "127.0.0.1");
    await once(busy, "listening");
    busyPort = (busy.address() as { port: number }).port;
    if (!services) database = await createTestDatabase();
  });
  after(async () => {
    busy.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a port in use: one line naming --port, status 1", async () => {
    const line = await failedStart(["--port", String(busyPort), "--db", join(dir, "a.db")]);
    assert.equal(
      line,
      `feedgate: cannot listen on 127.0.0.1:${busyPort}: the port is in use; choose another port with --port (or PORT)`,
    );
  });

  test("a metrics port in use: one line naming --metrics-port, and the API port is released", async () => {
    const line = await failedStart(["--port", "0", "--metrics-port", String(busyPort), "--db", join(dir, "b.db")]);
    assert.match(
      line,
      /^feedgate: cannot listen on 127\.0\.0\.1:\d+: the port is in use; choose another metrics port with --metrics-port$/,
    );
  });

  test("an unreachable PostgreSQL: one line naming --db and the URL without its password", async () => {
    const line = await failedStart(["--port", "0", "--db", "postgres://feedgate:hunter2@127.0.0.1:1/feedgate"]);
    assert.equal(
      line,
      "feedgate: cannot reach PostgreSQL at postgres://feedgate@127.0.0.1:1/feedgate (ECONNREFUSED); is it running? check --db (or FEEDGATE_DB)",
    );
  });

  test("a PostgreSQL database that does not exist: one line naming it and the createdb that makes it", {
    skip: services,
  }, async () => {
    const url = new URL(database!.url);
    url.pathname = "/feedgate_nobody_made_this";
    url.password = "hunter2";
    const line = await failedStart(["--port", "0", "--db", url.toString()]);
    url.password = "";
    assert.equal(
      line,
      `feedgate: database "feedgate_nobody_made_this" does not exist on the PostgreSQL server at ${url}; ` +
        `create it (createdb -h ${url.hostname} -p ${url.port} -U ${url.username} feedgate_nobody_made_this) or check --db (or FEEDGATE_DB)`,
    );
  });

  test("an unreachable Redis: one line naming --redis and the URL without its password, and the store is closed", async () => {
    const line = await failedStart([
      "--port",
      "0",
      "--db",
      join(dir, "c.db"),
      "--redis",
      "redis://:hunter2@127.0.0.1:1",
    ]);
    assert.equal(
      line,
      "feedgate: cannot reach Redis at redis://127.0.0.1:1 (ECONNREFUSED); is it running? check --redis (or FEEDGATE_REDIS)",
    );
  });

  test("a port in use with PostgreSQL and Redis: both connections are closed and the process ends", {
    skip: services,
  }, async () => {
    const line = await failedStart(["--port", String(busyPort), "--db", database!.url, "--redis", REDIS_URL]);
    assert.match(line, /the port is in use/);
  });
});
