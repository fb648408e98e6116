/**
 * Failover by promotion, on real clusters (helpers/pg-cluster.ts): a primary and its synchronous standby; while bots
 * open issues, the primary is killed with SIGKILL and the standby promoted. Every write is either acknowledged (201)
 * and found afterwards on the new primary, or refused with 503 and not applied; never a 500; the instance writes
 * again on its own within seconds of the promotion, and its feeds show what it wrote. Twice: with `--db` naming both
 * hosts, and with `--db` through PgBouncer (helpers/pgbouncer.ts), whose `[databases]` line the operator points at
 * the promoted host and reloads, while `--db-direct` names both hosts.
 */
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, type RunningServer } from "../../src/server/main.js";
import { loadConfig, type ConfigInput } from "../../src/server/config.js";
import { hashPassword } from "../../src/server/services/credentials.js";
import { AuthorizationService } from "../../src/server/services/authorizations.js";
import { TEST_PASSWORD_COST } from "../helpers/password-cost.js";
import { ClusterSet, skipUnlessClusters, type Cluster } from "../helpers/pg-cluster.js";
import { PgBouncer, skipUnlessPgBouncer } from "../helpers/pgbouncer.js";
import { assertNoneLost, startIssueBots } from "../helpers/issue-bots.js";
import { eventually, sleep } from "../helpers/wait.js";

const skip = await skipUnlessClusters();
const noPgBouncer = skip || (await skipUnlessPgBouncer());

/** A primary and its synchronous standby, ready. */
async function synchronousPair(clusters: ClusterSet): Promise<{ primary: Cluster; standby: Cluster }> {
  const primary = await clusters.primary();
  const standby = await clusters.standby(primary);
  // Synchronous: a commit is acknowledged once the standby has it, so the promotion keeps every acknowledged write.
  await primary.query("ALTER SYSTEM SET synchronous_standby_names = '*'");
  await primary.query("SELECT pg_reload_conf()");
  await eventually(
    async () =>
      (await primary.query<{ state: string }>("SELECT sync_state AS state FROM pg_stat_replication"))[0]?.state,
    (state) => state === "sync",
    { ms: 10_000, every: 50 },
  );
  return { primary, standby };
}

/** Both hosts as one URL, libpq's form: connections go to whichever is the primary (primary-finder.ts). */
const bothHosts = (primary: Cluster, standby: Cluster) =>
  `postgres://postgres@127.0.0.1:${primary.port},127.0.0.1:${standby.port}/postgres`;

/** A server on `settings`, with octo's token and its repository octo/tools. */
async function serveTools(settings: ConfigInput): Promise<{ server: RunningServer; token: string }> {
  const server = await startServer(
    loadConfig(
      {
        host: "127.0.0.1",
        port: 0,
        logLevel: "silent",
        passwordCost: TEST_PASSWORD_COST,
        dbConnectTimeout: "1s",
        ...settings,
      },
      {},
    ),
  );
  const user = await server.store.users.create({
    login: "octo",
    passwordHash: await hashPassword("octo-password"),
    otpSecret: null,
    siteAdmin: false,
  });
  const { token } = await new AuthorizationService(server.store, () => new Date()).issue(user, {
    scopes: ["repo"],
    note: "failover",
    noteUrl: null,
    fingerprint: null,
  });
  const made = await fetch(`${server.url}/user/repos`, {
    method: "POST",
    headers: { authorization: `token ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "tools" }),
  });
  assert.equal(made.status, 201);
  return { server, token };
}

/**
 * Bots opening issues on octo/tools while `primary` is killed with SIGKILL and, 0.3 s later, `promote` makes the
 * standby primary; then: only 201s and 503s, every acknowledged issue on the new primary once, and a write sent after
 * the kill acknowledged within seconds.
 */
async function failOverUnderWrites(
  t: { diagnostic(message: string): void },
  server: RunningServer,
  token: string,
  primary: Cluster,
  newPrimary: Cluster,
  promote: () => Promise<void>,
): Promise<void> {
  const bots = startIssueBots(server.url, token);
  let killedAt = 0;
  try {
    await bots.acknowledgeMore(20);
    await primary.kill();
    killedAt = performance.now();
    bots.mark();
    await sleep(300); // writes meanwhile find no primary
    await promote();
    await bots.acknowledgeMore(20);
  } finally {
    await bots.stop();
  }
  // The new primary is where the instance now reads.
  const stored = await newPrimary.query<{ number: number }>(
    "SELECT number FROM issues WHERE repo_id = (SELECT id FROM repos WHERE name = 'tools')",
  );
  assertNoneLost(
    bots,
    stored.map((row) => Number(row.number)),
  );
  const seconds = (bots.firstAfterMark - killedAt) / 1000;
  assert.ok(seconds > 0 && seconds < 15, `the first write sent after the kill was answered ${seconds} s after it`);
  t.diagnostic(
    `first write sent after the kill answered ${seconds.toFixed(2)} s after it (0.3 s of it before the promotion); ` +
      `${bots.acknowledged.length} acknowledged, all found; statuses ${JSON.stringify([...bots.statuses])}`,
  );
  const feed = await fetch(`${server.url}/repos/octo/tools/events?per_page=1`);
  assert.equal(feed.status, 200);
}

describe("failover by promotion with a synchronous standby", { skip }, () => {
  const clusters = new ClusterSet();
  let server: RunningServer | undefined;
  after(async () => {
    await server?.stop();
    await clusters.destroy();
  });

  test("kill -9 the primary mid-write and promote the standby: nothing acknowledged is lost, no 500", async (t) => {
    const { primary, standby } = await synchronousPair(clusters);
    const served = await serveTools({ db: bothHosts(primary, standby) });
    server = served.server;
    await failOverUnderWrites(t, served.server, served.token, primary, standby, () => standby.promote());
  });
});

describe("failover behind PgBouncer: the operator points it at the promoted host", { skip: noPgBouncer }, () => {
  const clusters = new ClusterSet();
  let bouncer: PgBouncer | undefined;
  let server: RunningServer | undefined;
  after(async () => {
    await server?.stop();
    await bouncer?.destroy();
    await clusters.destroy();
  });

  test("kill -9 the primary, promote, RELOAD PgBouncer on the new host: writes resume, none acknowledged lost", async (t) => {
    const { primary, standby } = await synchronousPair(clusters);
    // After a failed login (to the killed primary) PgBouncer waits server_login_retry before it tries again, the new
    // host too: 15 s by default, 1 s as docs/scale-out.md advises in front of a failover pair.
    bouncer = await PgBouncer.start(primary.url, {
      connectQuery: "SET statement_timeout = 15000",
      loginRetrySeconds: 1,
    });
    const served = await serveTools({ db: bouncer.url(), dbDirect: bothHosts(primary, standby) });
    server = served.server;
    await failOverUnderWrites(t, served.server, served.token, primary, standby, async () => {
      await standby.promote();
      await bouncer!.retarget(standby.url);
    });
    // The direct connection followed the promotion by itself: LISTEN hears writes on the new primary.
    let heard = 0;
    const stopListening = await served.server.store.events.listenForChanges(() => heard++);
    try {
      const opened = await fetch(`${served.server.url}/repos/octo/tools/issues`, {
        method: "POST",
        headers: { authorization: `token ${served.token}`, "content-type": "application/json" },
        body: JSON.stringify({ title: "Heard on the new primary" }),
      });
      assert.equal(opened.status, 201);
      assert.ok(
        await eventually(
          () => heard,
          (n) => n > 0,
          { ms: 5000 },
        ),
        "the direct connection's LISTEN, on the promoted host, heard the write",
      );
    } finally {
      await stopListening();
    }
  });
});
