/**
 * feedgate behind a real PgBouncer in transaction pooling (helpers/pgbouncer.ts): `--db` through the pooler, whose
 * three server connections feedgate's ten share, and `--db-direct` to PostgreSQL itself for what needs a session
 * (postgres/direct.ts). Over real sockets: writes and reads with ETags and 304s, a stream on one instance woken by
 * another's write through the direct connection's LISTEN, what happens without `--db-direct` (refused at start: a
 * LISTEN would hear nothing), `feedgate import` and `migrate` given it as `serve` is, and PgBouncer killed and started
 * again under writes.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
import { startServer, type RunningServer } from "../../src/server/main.js";
import { loadConfig, type ConfigInput } from "../../src/server/config.js";
import { hashPassword } from "../../src/server/services/credentials.js";
import { poolerNote } from "../../src/server/startup-notes.js";
import { CHANGES_CHANNEL } from "../../src/server/store/migrations/index.js";
import { FEED_INDEXES } from "../../src/server/store/postgres/feed-indexes.js";
import { runCli } from "../helpers/cli.js";
import { SAMPLE_GZ } from "../helpers/ingest-fixtures.js";
import { TEST_PASSWORD_COST } from "../helpers/password-cost.js";
import { freePort } from "../helpers/pg-cluster.js";
import { PgBouncer, skipUnlessPgBouncer } from "../helpers/pgbouncer.js";
import { createTestDatabase, type TestDatabase } from "../helpers/services.js";
import { openRawStream, within } from "../helpers/sse.js";
import { basic } from "../helpers/test-app.js";
import { assertNoneLost, startIssueBots } from "../helpers/issue-bots.js";
import { eventually, sleep } from "../helpers/wait.js";

const skip = await skipUnlessPgBouncer();
/** What PgBouncer's server connections run first: the statement_timeout no client of a pooler can set. */
const CONNECT_QUERY = "SET statement_timeout = 15000";

describe("behind PgBouncer in transaction pooling", { skip }, () => {
  let database: TestDatabase;
  let bouncer: PgBouncer;
  let a: RunningServer;
  let b: RunningServer;
  let token: string;
  const started: RunningServer[] = [];

  const settings = (more: ConfigInput = {}) =>
    loadConfig(
      {
        db: bouncer.url(),
        dbDirect: database.url,
        host: "127.0.0.1",
        port: 0,
        logLevel: "silent",
        passwordCost: TEST_PASSWORD_COST,
        dbConnectTimeout: "1s",
        ...more,
      },
      {},
    );
  const serve = async (more?: ConfigInput) => {
    const server = await startServer(settings(more));
    started.push(server);
    return server;
  };
  const call = (server: RunningServer, path: string, init: { method?: string; body?: unknown; etag?: string } = {}) =>
    fetch(`${server.url}${path}`, {
      method: init.method ?? "GET",
      headers: {
        authorization: `token ${token}`,
        ...(init.body ? { "content-type": "application/json" } : {}),
        ...(init.etag ? { "if-none-match": init.etag } : {}),
      },
      ...(init.body ? { body: JSON.stringify(init.body) } : {}),
    });
  const openIssue = (server: RunningServer, title: string) =>
    call(server, "/repos/octo/tools/issues", { method: "POST", body: { title } });
  /** Reads the database itself, past the pooler. */
  const direct = async <R extends pg.QueryResultRow>(sql: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: database.url, connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      return (await client.query<R>(sql, values)).rows;
    } finally {
      await client.end();
    }
  };
  const transactions = async () =>
    Number(
      (await bouncer.admin<{ database: string; total_xact_count: string }>("SHOW STATS")).find(
        (row) => row.database === bouncer.database,
      )?.total_xact_count ?? 0,
    );

  before(async () => {
    // Migrated from the template (an empty one takes seconds): each start still checks it under the migrations'
    // advisory lock, on the direct connection.
    database = await createTestDatabase({ migrated: true });
    bouncer = await PgBouncer.start(database.url, { connectQuery: CONNECT_QUERY });
    a = await serve();
    b = await serve();
    await a.store.users.create({
      login: "octo",
      passwordHash: await hashPassword("octo-password"),
      otpSecret: null,
      siteAdmin: false,
    });
  });

  after(async () => {
    for (const server of started) await server.stop().catch(() => undefined);
    await bouncer?.destroy();
    await database?.drop();
  });

  test("an authorization, a repository and an issue written, a feed paged with its ETag and 304, all pooled", async () => {
    const before = await transactions();
    const made = await fetch(`${a.url}/authorizations`, {
      method: "POST",
      headers: { authorization: basic("octo", "octo-password"), "content-type": "application/json" },
      body: JSON.stringify({ scopes: ["repo"], note: "pgbouncer" }),
    });
    assert.equal(made.status, 201, await made.clone().text());
    ({ token } = (await made.json()) as { token: string });
    assert.equal((await call(a, "/user/repos", { method: "POST", body: { name: "tools" } })).status, 201);
    assert.equal((await openIssue(a, "Pooled")).status, 201);

    const first = await call(b, "/repos/octo/tools/events?per_page=1");
    assert.equal(first.status, 200);
    assert.match(first.headers.get("link") ?? "", /[?&]page=2>; rel="next"/);
    const etag = first.headers.get("etag")!;
    assert.ok(etag, "the page has an ETag");
    const second = await call(b, "/repos/octo/tools/events?per_page=1&page=2");
    assert.equal(second.status, 200);
    assert.equal(((await second.json()) as unknown[]).length, 1);
    const again = await call(b, "/repos/octo/tools/events?per_page=1", { etag });
    assert.equal(again.status, 304);
    assert.equal((await call(b, "/repos/octo/tools/issues/1")).status, 200);

    assert.ok((await transactions()) > before + 5, "the requests went through PgBouncer");
    assert.equal(a.store.pooledStatementTimeoutMs, 15_000, "the pooler's server connections run its connect_query");
    assert.equal(poolerNote(15_000, a.store.pooledStatementTimeoutMs), undefined);
    assert.match(poolerNote(20_000, 15_000)!.msg, /statement_timeout 15s, not --db-statement-timeout's 20s/);
    // The migrations' session lock was taken and released on the direct connection, not left on a pooled one.
    const locks = await direct<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
    );
    assert.equal(locks[0]!.n, 0);
  });

  test("a write through one instance wakes a stream on another: the direct connection's LISTEN hears it", async () => {
    let heard = 0;
    const stopListening = await b.store.events.listenForChanges(() => heard++);
    const stream = await openRawStream(b.url, "/repos/octo/tools/events", { authorization: `token ${token}` });
    try {
      assert.equal(stream.status, 200);
      const opened = await openIssue(a, "Streamed");
      assert.equal(opened.status, 201);
      const frame = await within(10_000, stream.next(), "the event on instance B's stream");
      assert.equal(JSON.parse(frame.data!).type, "IssuesEvent");
      assert.ok(
        await eventually(
          () => heard,
          (n) => n > 0,
          { ms: 5000 },
        ),
        "instance B was notified of A's write",
      );
    } finally {
      stream.close();
      await stopListening();
    }
  });

  test("a --db-direct of another database, of the pooler, or of nothing is refused at start in one line", async () => {
    const refused = async (dbDirect: string, db: string, message: RegExp) =>
      assert.rejects(startServer(settings({ dbDirect, db })), (error: Error) => {
        assert.equal(error.name, "StartupError");
        assert.match(error.message, message);
        assert.doesNotMatch(error.message, /\n/);
        return true;
      });
    const elsewhere = new URL(database.url);
    elsewhere.pathname = "/postgres";
    await refused(
      elsewhere.toString(),
      bouncer.url(),
      /^postgres:\/\/postgres@127\.0\.0\.1:5432\/postgres is not the database --db reaches \(a NOTIFY sent through --db did not arrive there\): check --db-direct/,
    );
    await refused(
      bouncer.url(),
      bouncer.url(),
      /is a pooler, as it refused a startup parameter: --db-direct \(or FEEDGATE_DB_DIRECT\) must reach PostgreSQL itself$/,
    );
    const nothing = `postgres://postgres@127.0.0.1:${await freePort()}/x`;
    await refused(
      nothing,
      bouncer.url(),
      /^cannot reach PostgreSQL at .* \(ECONNREFUSED\); is it running\? check --db-direct \(or FEEDGATE_DB_DIRECT\)$/,
    );
    await refused(
      database.url,
      ":memory:",
      /^--db-direct \(or FEEDGATE_DB_DIRECT\) needs a postgres:\/\/ --db: SQLite has no pooler$/,
    );
  });

  test("without --db-direct: refused at start, with a statement timeout or with none; a LISTEN there hears nothing", async () => {
    for (const dbStatementTimeout of ["15s", "0"]) {
      await assert.rejects(startServer(settings({ dbDirect: undefined, dbStatementTimeout })), (error: Error) => {
        assert.equal(error.name, "StartupError");
        assert.match(
          error.message,
          /refused the startup parameter statement_timeout, as PgBouncer does: .*--db-direct/,
        );
        assert.doesNotMatch(error.message, /\n/);
        return true;
      });
    }

    // Why: a LISTEN through the pooler is taken on a server connection that goes back to the pool at once, and
    // PgBouncer drops what PostgreSQL sends it later.
    const deaf = new pg.Client({ connectionString: bouncer.url(), connectionTimeoutMillis: 5000 });
    await deaf.connect();
    let deafHeard = 0;
    let heard = 0;
    deaf.on("notification", () => deafHeard++);
    const stop = await a.store.events.listenForChanges(() => heard++);
    try {
      await deaf.query(`LISTEN ${CHANGES_CHANNEL}`);
      assert.equal((await openIssue(a, "Unheard through the pooler")).status, 201);
      assert.ok(
        await eventually(
          () => heard,
          (n) => n > 0,
          { ms: 5000 },
        ),
        "the direct LISTEN heard the write",
      );
      await sleep(500); // the pooled one had as long again
      assert.equal(deafHeard, 0, "a LISTEN through PgBouncer's transaction pooling hears nothing");
    } finally {
      await deaf.end();
      await stop();
    }
  });

  test("`feedgate import` through PgBouncer takes --db-direct as serve does; without it, serve's one line", async () => {
    // A database of its own: only an import into an empty events table defers the feed indexes and builds them after.
    const empty = await createTestDatabase({ migrated: true });
    const pooler = await PgBouncer.start(empty.url, { connectQuery: CONNECT_QUERY });
    const count = async (sql: string) => {
      const client = new pg.Client({ connectionString: empty.url, connectionTimeoutMillis: 5000 });
      await client.connect();
      try {
        return (await client.query<{ n: number }>(sql)).rows[0]!.n;
      } finally {
        await client.end();
      }
    };
    const events = () => count("SELECT count(*)::int AS n FROM events");
    try {
      const refusal = await startServer(settings({ db: pooler.url(), dbDirect: undefined })).then(
        () => assert.fail("serve started through PgBouncer without --db-direct"),
        (error: Error) => error.message,
      );
      const refused = await runCli(["import", SAMPLE_GZ, "--db", pooler.url()]);
      assert.deepEqual([refused.code, refused.stderr, refused.stdout], [1, `feedgate: ${refusal}\n`, ""]);
      assert.equal(await events(), 0, "nothing was imported");

      const imported = await runCli(["import", SAMPLE_GZ, "--db", pooler.url(), "--db-direct", empty.url]);
      assert.equal(imported.code, 0, imported.stderr);
      assert.match(imported.stdout, /800 lines, 800 events added/);
      assert.match(imported.stderr, /building feed indexes: done.*\n.*vacuuming and analyzing the events: done/s);
      assert.equal(await events(), 800);
      const indexes = FEED_INDEXES.map((sql) => /^CREATE INDEX (\w+)/.exec(sql)![1]!);
      assert.equal(
        await count(`SELECT count(*)::int AS n FROM pg_indexes WHERE indexname IN (${indexes.map((i) => `'${i}'`)})`),
        indexes.length,
        "the feed indexes were built",
      );
      const migrated = await runCli(["migrate", "--db", pooler.url()], { env: { FEEDGATE_DB_DIRECT: empty.url } });
      assert.equal(migrated.code, 0, migrated.stderr);
      assert.match(migrated.stdout, /already up to date/);
      // The migrations' session lock was the direct connection's, not left on a pooled one.
      assert.equal(
        await count(
          "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
        ),
        0,
      );
    } finally {
      await pooler.destroy();
      await empty.drop();
    }
  });

  test("PgBouncer killed and started again under writes: every acknowledged write kept, only 503s, no crash", async (t) => {
    let heard = 0;
    const stopListening = await b.store.events.listenForChanges(() => heard++);
    const bots = startIssueBots(a.url, token);
    let heardAtRestart = 0;
    try {
      await bots.acknowledgeMore(20);
      await bouncer.kill();
      await sleep(300); // writes meanwhile find no pooler
      await bouncer.start();
      heardAtRestart = heard;
      await bots.acknowledgeMore(20);
    } finally {
      await bots.stop();
      await stopListening();
    }

    const stored = await direct<{ number: number }>(
      "SELECT number FROM issues WHERE repo_id = (SELECT id FROM repos WHERE name = 'tools')",
    );
    assertNoneLost(
      bots,
      stored.map((row) => Number(row.number)),
    );
    assert.ok(heard > heardAtRestart, "the direct connection's LISTEN, which PgBouncer never held, heard on");
    assert.equal((await fetch(`${a.url}/readyz`)).status, 200);
    assert.equal((await call(b, "/repos/octo/tools/events?per_page=1")).status, 200);
    t.diagnostic(`${bots.acknowledged.length} acknowledged, all found; statuses ${JSON.stringify([...bots.statuses])}`);
  });
});
