/**
 * Failover by promotion, on real clusters (helpers/pg-cluster.ts): `--db` names a primary and its synchronous standby;
 * while bots open issues, the primary is killed with SIGKILL and the standby promoted. Every write is either
 * acknowledged (201) and found afterwards on the new primary, or refused with 503 and not applied; never a 500; the
 * instance writes again on its own within seconds of the promotion, and its feeds show what it wrote.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, type RunningServer } from "../../src/server/main.js";
import { loadConfig } from "../../src/server/config.js";
import { hashPassword } from "../../src/server/services/credentials.js";
import { AuthorizationService } from "../../src/server/services/authorizations.js";
import { TEST_PASSWORD_COST } from "../helpers/password-cost.js";
import { ClusterSet, skipUnlessClusters, type Cluster } from "../helpers/pg-cluster.js";
import { eventually, sleep } from "../helpers/wait.js";

const skip = await skipUnlessClusters();

describe("failover by promotion with a synchronous standby", { skip }, () => {
  const clusters = new ClusterSet();
  let primary: Cluster;
  let standby: Cluster;
  let server: RunningServer;
  let token: string;

  const write = (title: string) =>
    fetch(`${server.url}/repos/octo/tools/issues`, {
      method: "POST",
      headers: { authorization: `token ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ title }),
    });

  before(async () => {
    primary = await clusters.primary();
    standby = await clusters.standby(primary);
    // Synchronous: a commit is acknowledged once the standby has it, so the promotion keeps every acknowledged write.
    await primary.query("ALTER SYSTEM SET synchronous_standby_names = '*'");
    await primary.query("SELECT pg_reload_conf()");
    await eventually(
      async () =>
        (await primary.query<{ state: string }>("SELECT sync_state AS state FROM pg_stat_replication"))[0]?.state,
      (state) => state === "sync",
      { ms: 10_000, every: 50 },
    );
    const db = `postgres://postgres@127.0.0.1:${primary.port},127.0.0.1:${standby.port}/postgres`;
    server = await startServer(
      loadConfig(
        {
          db,
          host: "127.0.0.1",
          port: 0,
          logLevel: "silent",
          passwordCost: TEST_PASSWORD_COST,
          dbConnectTimeout: "1s",
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
    ({ token } = await new AuthorizationService(server.store, () => new Date()).issue(user, {
      scopes: ["repo"],
      note: "failover",
      noteUrl: null,
      fingerprint: null,
    }));
    const made = await fetch(`${server.url}/user/repos`, {
      method: "POST",
      headers: { authorization: `token ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "tools" }),
    });
    assert.equal(made.status, 201);
  });

  after(async () => {
    await server?.stop();
    await clusters.destroy();
  });

  test("kill -9 the primary mid-write and promote the standby: nothing acknowledged is lost, no 500", async (t) => {
    const acknowledged: number[] = [];
    const statuses = new Map<number, number>();
    let killedAt = 0;
    let firstAfterPromotion = 0;
    let stop = false;
    const bot = async (name: string) => {
      for (let i = 0; !stop; i++) {
        const res = await write(`${name} ${i}`).catch(() => undefined);
        const status = res?.status ?? 0;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status === 201) {
          acknowledged.push(((await res!.json()) as { number: number }).number);
          if (killedAt && !firstAfterPromotion) firstAfterPromotion = performance.now();
        } else {
          await res?.body?.cancel();
          await sleep(20);
        }
      }
    };
    const bots = ["a", "b", "c", "d"].map(bot);
    await eventually(
      () => acknowledged.length,
      (n) => n >= 20,
      { ms: 20_000, every: 10 },
    );
    const beforeKill = acknowledged.length;
    await primary.kill();
    killedAt = performance.now();
    await sleep(300); // writes meanwhile find no primary
    await standby.promote();
    await eventually(
      () => firstAfterPromotion,
      (t) => t > 0,
      { ms: 20_000, every: 20 },
    );
    await eventually(
      () => acknowledged.length,
      (n) => n >= beforeKill + 20,
      { ms: 20_000, every: 10 },
    );
    stop = true;
    await Promise.all(bots);

    assert.deepEqual(
      [...statuses.keys()].filter((s) => s !== 201 && s !== 503),
      [],
      `only 201s and 503s: ${JSON.stringify([...statuses])}`,
    );
    assert.ok((statuses.get(503) ?? 0) > 0, "writes were refused while there was no primary");
    // Every acknowledged issue is on the new primary (where the instance now reads), once each.
    const stored = await standby.query<{ number: number }>(
      "SELECT number FROM issues WHERE repo_id = (SELECT id FROM repos WHERE name = 'tools')",
    );
    const numbers = new Set(stored.map((row) => Number(row.number)));
    assert.deepEqual(
      acknowledged.filter((n) => !numbers.has(n)),
      [],
      "no acknowledged issue was lost",
    );
    assert.equal(new Set(acknowledged).size, acknowledged.length);
    const seconds = (firstAfterPromotion - killedAt) / 1000;
    assert.ok(seconds < 15, `the first write after the kill was answered ${seconds} s after it`);
    t.diagnostic(
      `first write answered ${seconds.toFixed(2)} s after the kill (0.3 s of it before the promotion); ` +
        `${acknowledged.length} acknowledged, all found; statuses ${JSON.stringify([...statuses])}`,
    );
    const feed = await fetch(`${server.url}/repos/octo/tools/events?per_page=1`);
    assert.equal(feed.status, 200);
  });
});
