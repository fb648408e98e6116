/**
 * `--stale-if-error` over a real outage of the driver FEEDGATE_TEST_STORE names: PostgreSQL behind a TCP proxy that
 * is cut; SQLite with another process holding the WAL index's read locks (what a stuck or crashed process holding the
 * file does), so every read ends in SQLITE_PROTOCOL. A public feed page answered to an anonymous request before the
 * outage is served again during it, marked stale, with its ETag (304 to a poller that has it), until the window has
 * passed; a caller's own view, a request with credentials, and a page nobody asked for get the 503 as before.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { buildApp } from "../../src/server/app.js";
import { loadConfig } from "../../src/server/config.js";
import { PostgresStore } from "../../src/server/store/postgres/postgres-store.js";
import { SqliteStore } from "../../src/server/store/sqlite/sqlite-store.js";
import type { Store } from "../../src/server/store/store.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { setPasswordCost } from "../../src/server/services/credentials.js";
import { AuthorizationService } from "../../src/server/services/authorizations.js";
import { RETRY_AFTER_SECONDS } from "../../src/server/errors.js";
import { STALE_WARNING } from "../../src/server/plugins/stale-if-error.js";
import { TcpProxy } from "../helpers/tcp-proxy.js";
import { testDriver } from "../helpers/store-drivers.js";
import { TestClock, TEST_PASSWORD_COST } from "../helpers/test-app.js";
import { event } from "../helpers/events.js";

/** An open store whose database can be made unreachable and reachable again. */
interface Unreachable {
  store: Store;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** PostgreSQL through a TCP proxy, with short timeouts so that the cut is noticed at once. */
async function postgresBehindProxy(url: string): Promise<Unreachable> {
  const direct = new URL(url);
  const proxy = new TcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  const viaProxy = new URL(url);
  viaProxy.port = String(await proxy.start());
  const config = loadConfig(
    { db: viaProxy.toString(), dbConnectTimeout: "1s", dbStatementTimeout: "2s", dbQueryTimeout: "3s" },
    {},
  );
  const store = await PostgresStore.open(config.db, config.database);
  return {
    store,
    async cut() {
      proxy.cut("reset");
    },
    async restore() {
      proxy.restore();
    },
    async close() {
      await store.close();
      await proxy.close();
    },
  };
}

/**
 * The WAL index's read-mark locks (bytes 123 to 127 of the `-shm` file, sqlite3's WAL_READ_LOCK(0..4)) held
 * exclusively by another process: no read transaction can begin, and SQLite gives up with SQLITE_PROTOCOL after
 * its retries (about ten seconds, the event loop blocked meanwhile: SQLite is synchronous). POSIX record locks belong
 * to a process, so the holder must be another one; Node has no call for them, Python does.
 */
const HOLD_READ_LOCKS = `
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 5, 123, os.SEEK_SET)
print("locked", flush=True)
sys.stdin.read()
`;

async function sqliteWithLockedFile(file: string): Promise<Unreachable> {
  const store = await SqliteStore.open(file);
  let holder: ChildProcess | undefined;
  return {
    store,
    async cut() {
      holder = spawn("python3", ["-c", HOLD_READ_LOCKS, `${file}-shm`], { stdio: ["pipe", "pipe", "inherit"] });
      const [line] = (await once(holder.stdout!, "data")) as [Buffer];
      assert.equal(line.toString().trim(), "locked");
    },
    async restore() {
      holder!.stdin!.end(); // the holder exits, and its locks go with it
      await once(holder!, "exit");
    },
    async close() {
      await store.close();
    },
  };
}

const driver = testDriver();
const python =
  driver.name === "sqlite" && spawnSync("python3", ["--version"]).status !== 0
    ? "python3 is not installed: it holds the SQLite file's locks from another process"
    : false;

describe(`stale feed pages during a database outage (${driver.name})`, { skip: driver.skip || python }, () => {
  const clock = new TestClock();
  let database: Awaited<ReturnType<typeof driver.create>>;
  let unreachable: Unreachable;
  let app: FastifyInstance;
  let token: string;

  before(async () => {
    setPasswordCost(TEST_PASSWORD_COST);
    database = await driver.create();
    unreachable =
      driver.name === "postgres" ? await postgresBehindProxy(database.db) : await sqliteWithLockedFile(database.db);
    const { store } = unreachable;
    await new IngestService(store, clock.now).seedWorld(
      {
        users: [{ login: "alice", password: "alice-password" }],
        repos: [{ full_name: "alice/tools" }, { full_name: "alice/secret", private: true }],
        events: [
          event("1", "WatchEvent", "alice", "alice/tools"),
          event("2", "PushEvent", "alice", "alice/secret", { public: false }),
          event("3", "ForkEvent", "alice", "alice/tools"),
        ],
      },
      { baseDir: "." },
    );
    const alice = (await store.users.findByLogin("alice"))!;
    token = (
      await new AuthorizationService(store, clock.now).issue(alice, {
        scopes: ["repo"],
        note: "stale",
        noteUrl: null,
        fingerprint: null,
      })
    ).token;
    const config = loadConfig(
      { db: database.db, logLevel: "silent", rateLimitAnonymous: 10_000, staleIfError: "60s" },
      {},
    );
    app = await buildApp({ config, store, clock });
  });

  after(async () => {
    await app?.close();
    await unreachable?.close();
    await database?.drop();
  });

  const anonymous = (url: string, headers: Record<string, string> = {}) => app.inject({ url, headers });
  const withToken = (url: string) => app.inject({ url, headers: { authorization: `token ${token}` } });

  function assertUnavailable(res: LightMyRequestResponse) {
    assert.equal(res.statusCode, 503, res.body);
    assert.equal(res.headers["retry-after"], String(RETRY_AFTER_SECONDS));
    assert.equal(res.headers.warning, undefined);
    assert.equal(res.headers.age, undefined);
  }

  test("a public page is served stale with Age and Warning within the window, 304 to its ETag, then 503", async () => {
    const fresh = await anonymous("/repos/alice/tools/events");
    assert.equal(fresh.statusCode, 200, fresh.body);
    assert.deepEqual(
      (fresh.json() as { id: string }[]).map((e) => e.id),
      ["3", "1"],
    );
    assert.equal(fresh.headers.age, undefined, "a fresh page has no Age");
    assert.equal(fresh.headers.warning, undefined);
    // alice's own view of her events, private ones included: recorded nowhere for others.
    const own = await withToken("/users/alice/events");
    assert.deepEqual(
      (own.json() as { id: string }[]).map((e) => e.id),
      ["3", "2", "1"],
    );

    await unreachable.cut();
    try {
      clock.advance(30_000);
      const stale = await anonymous("/repos/alice/tools/events");
      assert.equal(stale.statusCode, 200, stale.body);
      assert.equal(stale.body, fresh.body, "the page as last served");
      assert.equal(stale.headers.etag, fresh.headers.etag);
      assert.equal(stale.headers["content-type"], fresh.headers["content-type"]);
      assert.equal(stale.headers.age, "30");
      assert.equal(stale.headers.warning, STALE_WARNING);
      assert.equal(stale.headers["retry-after"], undefined);

      const notModified = await anonymous("/repos/alice/tools/events", {
        "if-none-match": fresh.headers.etag as string,
      });
      assert.equal(notModified.statusCode, 304);
      assert.equal(notModified.body, "");
      assert.equal(notModified.headers.etag, fresh.headers.etag);
      assert.equal(notModified.headers.warning, STALE_WARNING);

      // Credentials cannot be checked without the database, and a caller's own view is never kept.
      assertUnavailable(await withToken("/users/alice/events"));
      // Each read of a locked SQLite file takes SQLite's ten seconds of retries: these two, which ask nothing of the
      // driver the others do not, run on PostgreSQL only.
      if (driver.name === "postgres") {
        assertUnavailable(await withToken("/repos/alice/tools/events"));
        // A page nobody asked for before the outage.
        assertUnavailable(await anonymous("/repos/alice/tools/events?per_page=1"));
      }

      clock.advance(31_000); // 61 s since the database last gave the page
      assertUnavailable(await anonymous("/repos/alice/tools/events"));
    } finally {
      await unreachable.restore();
    }

    const again = await anonymous("/repos/alice/tools/events");
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.headers.warning, undefined, "served fresh once the database is back");
    assert.equal(again.headers.age, undefined);
    // The stale page and its 304, counted for the operator.
    assert.match((await app.inject({ url: "/metrics" })).body, /^feedgate_stale_responses_total 2$/m);
  });
});
