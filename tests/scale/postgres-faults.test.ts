/**
 * PostgreSQL going away under a running instance: the network cut (a TCP proxy the test controls), the server
 * killing backends (`pg_terminate_backend()`) while a feed or authorization transaction is open. The process stays
 * up (an unheard pg "error" event would end this very test process), requests during the fault get 503 in
 * GitHub's shape with Retry-After, and the first requests after the fault succeed without a restart.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import pg from "pg";
import { buildApp } from "../../src/server/app.js";
import { loadConfig } from "../../src/server/config.js";
import { PostgresStore } from "../../src/server/store/postgres/postgres-store.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { AuthorizationService } from "../../src/server/services/authorizations.js";
import { createAccount } from "../../src/server/services/users.js";
import { RETRY_AFTER_SECONDS } from "../../src/server/errors.js";
import { TcpProxy } from "../helpers/tcp-proxy.js";
import { createTestDatabase, skipUnlessPostgres, type TestDatabase } from "../helpers/services.js";
import { event } from "../helpers/events.js";
import { basic } from "../helpers/test-app.js";
import { eventually, sleep } from "../helpers/wait.js";
import { within } from "../helpers/sse.js";

const skip = await skipUnlessPostgres();
/** Turns a hang into a failure; no machine takes this long to answer. */
const HANG_GUARD_MS = 60_000;

describe("an instance whose PostgreSQL fails", { skip }, () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let store: PostgresStore;
  let app: FastifyInstance;
  let token: string;
  const logged: string[] = [];

  before(async () => {
    database = await createTestDatabase();
    const direct = new URL(database.url);
    proxy = new TcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = new URL(database.url);
    viaProxy.port = String(await proxy.start());
    // Short limits, so a blackholed database is noticed in seconds.
    const config = loadConfig(
      {
        db: viaProxy.toString(),
        logLevel: "silent",
        feedCacheMb: 0,
        rateLimitAnonymous: 100_000,
        dbConnectTimeout: "1s",
        dbStatementTimeout: "2s",
        dbQueryTimeout: "3s",
      },
      {},
    );
    store = await PostgresStore.open(config.db, config.database);
    const alice = await createAccount(store, { login: "alice", password: "alice-password" });
    token = (
      await new AuthorizationService(store, () => new Date()).issue(alice, {
        scopes: ["repo"],
        note: "faults",
        noteUrl: null,
        fingerprint: null,
      })
    ).token;
    await new IngestService(store, () => new Date()).ingestEvents(
      ["1", "2", "3"].map((id) => event(id, "WatchEvent", "alice", "alice/tools")),
    );
    const logger = (await import("pino")).default({ level: "error" }, { write: (line: string) => logged.push(line) });
    app = await buildApp({ config, store, logger });
  });

  after(async () => {
    await app?.close();
    await store?.close();
    await proxy?.close();
    await database?.drop();
  });

  const requests = () => [
    app.inject({ url: "/events" }),
    app.inject({ url: "/repos/alice/tools/events", headers: { authorization: `token ${token}` } }),
    app.inject({ url: "/authorizations", headers: { authorization: basic("alice", "alice-password") } }),
  ];

  function assertUnavailable(res: LightMyRequestResponse) {
    assert.equal(res.statusCode, 503, res.body);
    assert.equal(res.headers["retry-after"], String(RETRY_AFTER_SECONDS));
    assert.deepEqual(Object.keys(res.json()).sort(), ["documentation_url", "message"]);
    assert.match(res.json().message, /^Service Unavailable: the database cannot be reached/);
    assert.doesNotMatch(res.body, /pg|postgres|terminated|at \w+ \(/i, "no internals in the body");
  }

  async function assertServing() {
    for (const res of await Promise.all(requests())) assert.equal(res.statusCode, 200, res.body);
  }

  test("a cut network: 503 with Retry-After during the cut, served again on the first requests after it", async () => {
    await assertServing();
    proxy.cut("reset");
    const refused: LightMyRequestResponse[] = [];
    for (let round = 0; round < 5; round++) refused.push(...(await Promise.all(requests())));
    refused.forEach(assertUnavailable);
    proxy.restore();
    await assertServing();
    // Each 503 is logged once, with its request id and the driver's error as the cause.
    for (const res of refused) {
      const lines = logged
        .map((line) => JSON.parse(line))
        .filter((line) => line.reqId === res.headers["x-github-request-id"]);
      assert.equal(lines.length, 1, JSON.stringify(lines));
      assert.match(lines[0].msg, /^Service Unavailable: the database cannot be reached/);
      assert.ok(lines[0].err?.message, "the cause is logged");
    }
  });

  test("a blackholed network: requests end in 503 through the configured timeouts instead of hanging", async () => {
    await assertServing();
    proxy.cut("blackhole");
    // Without the timeouts set above (3 s for a query) these would wait for ever; the guard only turns that into a
    // failure, far past what any machine takes.
    for (const res of await within(HANG_GUARD_MS, Promise.all(requests()), "the requests during the blackhole"))
      assertUnavailable(res);
    proxy.restore();
    // Pooled connections the blackhole swallowed are found dead on their next use (and dropped): served again,
    // without a restart. A pool that kept them would never serve again.
    const served = async () => {
      while (!(await Promise.all(requests())).every((res) => res.statusCode === 200));
    };
    await within(HANG_GUARD_MS, served(), "served again after the network came back");
    await assertServing();
  });

  test("load through a 2-second outage: only 200 and 503, and recovery as soon as the database is back", async () => {
    const statuses = new Map<number, number>();
    let restored = false;
    let afterRestore: number[] = [];
    const load = (async () => {
      for (;;) {
        const begunAfterRestore = restored;
        const answers = await Promise.all(requests());
        for (const res of answers) statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        if (begunAfterRestore) {
          afterRestore = answers.map((res) => res.statusCode);
          return;
        }
      }
    })();
    await sleep(500);
    proxy.cut("reset");
    await sleep(2000);
    proxy.restore();
    restored = true;
    await load;
    assert.deepEqual([...statuses.keys()].sort(), [200, 503], JSON.stringify([...statuses]));
    // As soon as the database is back: the first requests sent after it are served, none waits out a read stuck on
    // a dead connection (the statement timeout's 503), however long the machine takes to answer them.
    assert.deepEqual(afterRestore, [200, 200, 200], "the first requests after the database came back");
  });

  /** Holds `table` locked from a direct connection, so the instance's next read of it waits inside its transaction. */
  async function withTableLocked(table: string, during: (admin: pg.Client) => Promise<void>) {
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query("BEGIN");
      await admin.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
      await during(admin);
      await admin.query("ROLLBACK");
    } finally {
      await admin.end();
    }
  }

  /** The instance's backends waiting for a lock: its open transactions. */
  async function waitingBackends(admin: pg.Client): Promise<number[]> {
    const { rows } = await eventually(
      () =>
        admin.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'",
        ),
      (found) => found.rows.length > 0,
      { ms: 2000, every: 20 },
    );
    if (rows.length > 0) return rows.map((r) => r.pid);
    throw new Error("no request reached its transaction");
  }

  for (const [name, table, request] of [
    [
      "feed",
      "events",
      () => app.inject({ url: "/repos/alice/tools/events", headers: { authorization: `token ${token}` } }),
    ],
    [
      "authorization list",
      "authorizations",
      () => app.inject({ url: "/authorizations", headers: { authorization: basic("alice", "alice-password") } }),
    ],
  ] as const) {
    test(`pg_terminate_backend() during an open ${name} transaction: 503, the process stays up, the next request is served`, async () => {
      await assertServing();
      await withTableLocked(table, async (admin) => {
        const pending = request();
        for (const pid of await waitingBackends(admin)) await admin.query("SELECT pg_terminate_backend($1)", [pid]);
        assertUnavailable(await pending);
      });
      await assertServing();
    });

    test(`the network cut during an open ${name} transaction: 503, the process stays up, the next request is served`, async () => {
      await assertServing();
      await withTableLocked(table, async (admin) => {
        const pending = request();
        await waitingBackends(admin);
        proxy.cut("reset");
        assertUnavailable(await pending);
        proxy.restore();
      });
      await assertServing();
    });
  }
});
