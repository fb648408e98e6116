/**
 * Webhook operations as delivery services run them, each over real sockets to a real receiver, on both drivers (the
 * matrix runs tests/server on PostgreSQL too): `--webhook-retries github` (one attempt, the failure kept for a
 * redelivery someone asks for, which alone says `redelivery: true`), `--webhook-disable-after`, and the bulk
 * redelivery of failed deliveries (each once), through the API and the console.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import pino from "pino";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { basic, TestClock } from "../helpers/test-app.js";
import type { HookOwner, HookRow } from "../../src/server/store/hook-store.js";
import { receiver, type Receiver } from "../helpers/webhook-receiver.js";
import { eventually, sleep } from "../helpers/wait.js";
import { event } from "../helpers/events.js";
import { ALICE } from "../helpers/client-world.js";
import { csrfOf, form, FORM, sessionOf } from "../helpers/console-forms.js";

const JSON_AUTH = { authorization: basic(ALICE.login, ALICE.password), "content-type": "application/json" };
let nextId = 700_000;
const push = (repo = "alice/hello") =>
  event(String(nextId++), "PushEvent", "alice", repo, {
    created_at: "2026-01-15T09:00:00Z",
    payload: { push_id: 1, size: 1, ref: "refs/heads/main", head: "abc", before: "000", commits: [] },
  });

async function repoOf(t: ListeningApp, fullName: string): Promise<HookOwner> {
  const [owner, name] = fullName.split("/");
  return { kind: "repo", repoId: (await t.store.directory.findRepo(owner!, name!))!.id };
}

const createHook = (t: ListeningApp, owner: HookOwner, url: string) =>
  t.store.hooks.create(
    {
      owner,
      name: "web",
      active: true,
      events: ["push"],
      config: { url, contentType: "json", insecureSsl: "0", sealedSecret: null },
    },
    t.clock.now(),
  );

/** A receiver that answers `status.code`, which the test changes. */
async function switchable(code = 200): Promise<{ r: Receiver; url: string; status: { code: number } }> {
  const status = { code };
  const r = receiver(() => status.code);
  return { r, url: await r.listen(), status };
}

const metricsText = async (t: ListeningApp) => (await t.app.inject({ url: "/metrics" })).body;
const metric = (text: string, name: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
};

describe("--webhook-retries github", () => {
  let t: ListeningApp;
  before(async () => {
    t = await startListeningApp({ webhookRetries: "github" });
  });
  after(() => t.close());

  test("one attempt, as GitHub: the failure is kept, not retried; a redelivery asked for is the one marked redelivery: true", async () => {
    const { r, url, status } = await switchable(500);
    const hello = await repoOf(t, "alice/hello");
    const hook = await createHook(t, hello, url);
    try {
      await t.ingest.ingestEvents([push()]);
      await r.until(1);
      await sleep(1500); // a durable server would have retried after about a second
      assert.equal(r.received.length, 1, "no automatic retry");
      const [failed, ...rest] = await t.store.hooks.deliveries(hook.id, 10, null);
      assert.equal(rest.length, 0);
      assert.equal(failed!.statusCode, 500);
      assert.equal(failed!.redelivery, false);
      assert.equal(await t.store.hooks.queued(hook.id), 0, "nothing left in the queue: the record keeps it");

      status.code = 200;
      const again = await t.app.inject({
        method: "POST",
        url: `/repos/alice/hello/hooks/${hook.id}/deliveries/${failed!.id}/attempts`,
        headers: JSON_AUTH,
      });
      assert.equal(again.statusCode, 202);
      const records = await eventually(
        () => t.store.hooks.deliveries(hook.id, 10, null),
        (rows) => rows.length >= 2,
      );
      assert.deepEqual(
        records.map((d) => [d.guid, d.statusCode, d.redelivery]),
        [
          [failed!.guid, 200, true],
          [failed!.guid, 500, false],
        ],
      );
      const listed = await t.app.inject({ url: `/repos/alice/hello/hooks/${hook.id}/deliveries`, headers: JSON_AUTH });
      assert.deepEqual(
        (listed.json() as { redelivery: boolean }[]).map((d) => d.redelivery),
        [true, false],
        "as the API shows them",
      );
    } finally {
      await t.store.hooks.delete(hello, hook.id);
      await r.close();
    }
  });
});

describe("--webhook-disable-after", () => {
  let t: ListeningApp;
  const lines: Record<string, unknown>[] = [];
  before(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split("\n").filter(Boolean))
          lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    t = await startListeningApp(
      { webhookRetries: "github", webhookDisableAfter: "1h" },
      new TestClock(),
      pino({ level: "info" }, sink),
    );
  });
  after(() => t.close());

  test("a hook failing every attempt for the setting's time is made inactive, logged, counted, shown in the console; reactivating it starts afresh", async () => {
    const { r, url, status } = await switchable(503);
    const hello = await repoOf(t, "alice/hello");
    const hook = await createHook(t, hello, url);
    const stored = () => t.store.hooks.find(hello, hook.id) as Promise<HookRow>;
    const attempts = (n: number) =>
      eventually(
        () => t.store.hooks.deliveries(hook.id, 20, null),
        (rows) => rows.length >= n,
      );
    try {
      const start = t.clock.now();
      await t.ingest.ingestEvents([push()]);
      await attempts(1);
      assert.equal(
        (await stored()).failingSince?.toISOString(),
        start.toISOString(),
        "failing since its first failure",
      );

      // A success ends the streak: failures after it count from their own start.
      status.code = 200;
      t.clock.advance("50m");
      await t.ingest.ingestEvents([push()]);
      await attempts(2);
      assert.equal((await stored()).failingSince, null);
      status.code = 503;
      await t.ingest.ingestEvents([push()]);
      await attempts(3);
      const streak = t.clock.now();
      t.clock.advance("59m");
      await t.ingest.ingestEvents([push()]);
      await attempts(4);
      assert.equal((await stored()).active, true, "failing for 59 minutes: still on");

      t.clock.advance("1m");
      await t.ingest.ingestEvents([push()]);
      const off = await eventually(stored, (h) => !h.active);
      assert.equal(off.active, false);
      assert.equal(off.failingSince?.toISOString(), streak.toISOString());
      assert.equal(off.disabled?.at.toISOString(), t.clock.now().toISOString());
      assert.equal(off.disabled?.reason, "every delivery failed for 1 hour; the last: Invalid HTTP Response: 503");
      // Counted and logged once the dispatcher has the store's answer: on a SQLite file the write worker commits the
      // disabling, which this connection may see before that answer has reached the dispatcher.
      const logged = await eventually(() => lines.find((l) => /hook disabled/.test(String(l.msg))), Boolean);
      assert.equal(metric(await metricsText(t), "feedgate_webhook_hooks_disabled_total"), 1);
      assert.equal(logged?.hook, hook.id);
      assert.match(String(logged?.reason), /failed for 1 hour/);
      assert.doesNotMatch(
        JSON.stringify(logged),
        /127\.0\.0\.1/,
        "the hook's URL (which may hold credentials) is not logged",
      );

      // Inactive: the next event is not queued for it; the API shows active: false.
      const received = r.received.length;
      await t.ingest.ingestEvents([push()]);
      await sleep(300);
      assert.equal(r.received.length, received);
      const shown = await t.app.inject({ url: `/repos/alice/hello/hooks/${hook.id}`, headers: JSON_AUTH });
      assert.equal((shown.json() as { active: boolean }).active, false);

      // The console says it was disabled, when, and why.
      const signIn = await t.app.inject({
        method: "POST",
        url: "/console/sign-in",
        headers: FORM,
        payload: form({ login: ALICE.login, password: ALICE.password }),
      });
      const page = await t.app.inject({
        url: "/console/repos/alice/hello/hooks",
        headers: { cookie: `feedgate_session=${sessionOf(signIn)}` },
      });
      assert.equal(page.statusCode, 200);
      assert.match(
        page.body,
        /<strong class="failed">Disabled<\/strong> <time datetime="2026-01-15T11:50:00.000Z">[^<]*<\/time>: every delivery failed for 1 hour; the last: Invalid HTTP Response: 503/,
      );

      // Made active again, it starts afresh: no streak, no record of the disabling.
      const patched = await t.app.inject({
        method: "PATCH",
        url: `/repos/alice/hello/hooks/${hook.id}`,
        headers: JSON_AUTH,
        payload: { active: true },
      });
      assert.equal(patched.statusCode, 200);
      const back = await stored();
      assert.deepEqual([back.active, back.failingSince, back.disabled], [true, null, null]);
    } finally {
      await t.store.hooks.delete(hello, hook.id);
      await r.close();
    }
  });
});

describe("redelivering failed deliveries in bulk", () => {
  let t: ListeningApp;
  before(async () => {
    t = await startListeningApp({ webhookRetries: "github" });
    await t.createUser("root", "root-password", { siteAdmin: true });
  });
  after(() => t.close());

  const bulk = (url: string, since: string, headers: Record<string, string> = JSON_AUTH) =>
    t.app.inject({ method: "POST", url, headers, payload: { since } });

  test("queues every failed delivery since then once each: not one that later succeeded, nor one queued already", async () => {
    const { r, url, status } = await switchable(500);
    const hello = await repoOf(t, "alice/hello");
    const site = await repoOf(t, "acme/site");
    const hook = await createHook(t, hello, url);
    const other = await createHook(t, site, url);
    try {
      // An old failure, outside the window.
      await t.ingest.ingestEvents([push()]);
      await r.until(1);
      t.clock.advance("3h");
      const events = [push(), push(), push()];
      await t.ingest.ingestEvents([...events, push("acme/site")]);
      await r.until(5);
      // One of the three is redelivered by hand, successfully: it is not queued again.
      status.code = 200;
      const [latest] = await t.store.hooks.deliveries(hook.id, 1, null);
      await t.app.inject({
        method: "POST",
        url: `/repos/alice/hello/hooks/${hook.id}/deliveries/${latest!.id}/attempts`,
        headers: JSON_AUTH,
      });
      await r.until(6);
      // The receiver has it before feedgate records the attempt and takes it off the queue.
      assert.equal(
        await eventually(
          () => t.store.hooks.queued(hook.id),
          (n) => n === 0,
        ),
        0,
      );

      // Inactive, so that what is queued stays queued while the same request is made again.
      await t.store.hooks.update(hello, hook.id, { active: false }, t.clock.now());
      const first = await bulk("/repos/alice/hello/hooks/redeliveries", "2h");
      assert.equal(first.statusCode, 202, first.body);
      assert.deepEqual(first.json(), {
        queued: 2,
        hooks: 1,
        since: new Date(t.clock.now().getTime() - 7_200_000).toISOString(),
      });
      assert.equal(await t.store.hooks.queued(hook.id), 2);
      assert.equal(await t.store.hooks.queued(other.id), 0, "another repository's hooks are not this request's");

      const second = await bulk("/repos/alice/hello/hooks/redeliveries", "2h");
      assert.equal(second.statusCode, 422, "both are queued already: nothing to do, and nothing changed");
      assert.match(
        (second.json() as { errors: { message: string }[] }).errors[0]!.message,
        /^no failed delivery to redeliver since 2026-01-15T11:00:00\.000Z: nothing was queued/,
      );
      assert.equal(await t.store.hooks.queued(hook.id), 2);

      await t.store.hooks.update(hello, hook.id, { active: true }, t.clock.now());
      t.app.log.info("reactivated"); // the dispatcher looks again within a second
      await r.until(8);
      await sleep(300);
      const redelivered = r.received
        .slice(6)
        .map((x) => String(x.headers["x-github-delivery"]))
        .sort();
      const failedGuids = (await t.store.hooks.deliveries(hook.id, 20, null))
        .filter((d) => d.statusCode === 500 && d.deliveredAt >= new Date(t.clock.now().getTime() - 7_200_000))
        .map((d) => d.guid);
      assert.equal(r.received.length, 8, "each once");
      assert.deepEqual(redelivered, failedGuids.filter((g) => g !== latest!.guid).sort());
      const records = await eventually(
        () => t.store.hooks.deliveries(hook.id, 20, null),
        (rows) => rows.length >= 7,
      );
      assert.ok(
        records.slice(0, 2).every((d) => d.redelivery && d.statusCode === 200),
        "recorded as redeliveries",
      );

      // All delivered now: the window has nothing left.
      assert.equal((await bulk("/repos/alice/hello/hooks/redeliveries", "2h")).statusCode, 422);
      // An organization's window covers its own hooks; the site administrator's, every hook.
      assert.equal((await bulk("/orgs/acme/hooks/redeliveries", "2h")).statusCode, 422, "acme has no hook of its own");
      assert.equal((await bulk("/admin/hooks/redeliveries", "2h")).statusCode, 404, "not a site administrator");
      const everything = await bulk("/admin/hooks/redeliveries", "4h", {
        ...JSON_AUTH,
        authorization: basic("root", "root-password"),
      });
      assert.equal(everything.statusCode, 202, everything.body);
      assert.deepEqual([everything.json().queued, everything.json().hooks], [2, 2], "the old failure and acme/site's");
    } finally {
      await t.store.hooks.delete(hello, hook.id);
      await t.store.hooks.delete(site, other.id);
      await r.close();
    }
  });

  test("a window that is not one, or lies in the future, is one 422 line naming since; a stranger gets 404", async () => {
    for (const since of ["yesterday", "0s", "2999-01-01T00:00:00Z", "2026-01-01"]) {
      const res = await bulk("/repos/alice/hello/hooks/redeliveries", since);
      assert.equal(res.statusCode, 422, since);
      assert.equal((res.json() as { errors: { field: string }[] }).errors[0]!.field, "since");
    }
    const stranger = await bulk("/repos/alice/hello/hooks/redeliveries", "2h", {
      ...JSON_AUTH,
      authorization: basic("bob", "bob-password"),
    });
    assert.equal(stranger.statusCode, 404);
  });

  test("the console's form queues them and says how many; an empty window is its one line, nothing queued", async () => {
    const { r, url } = await switchable(500);
    const hello = await repoOf(t, "alice/hello");
    const hook = await createHook(t, hello, url);
    try {
      await t.ingest.ingestEvents([push()]);
      await r.until(1);
      await eventually(
        () => t.store.hooks.deliveries(hook.id, 1, null),
        (rows) => rows.length === 1,
      );
      await t.store.hooks.update(hello, hook.id, { active: false }, t.clock.now());
      const signIn = await t.app.inject({
        method: "POST",
        url: "/console/sign-in",
        headers: FORM,
        payload: form({ login: ALICE.login, password: ALICE.password }),
      });
      const cookie = `feedgate_session=${sessionOf(signIn)}`;
      const page = await t.app.inject({ url: "/console/repos/alice/hello/hooks", headers: { cookie } });
      assert.match(page.body, /Redeliver failed deliveries/);
      const post = (since: string) =>
        t.app.inject({
          method: "POST",
          url: "/console/repos/alice/hello/hooks/redeliver-failed",
          headers: { ...FORM, cookie },
          payload: form({ csrf: csrfOf(page.body), since }),
        });
      const done = await post("10m");
      assert.equal(done.statusCode, 303);
      const shown = await t.app.inject({ url: String(done.headers.location).split("#")[0]!, headers: { cookie } });
      assert.match(shown.body, /Queued 1 failed delivery again\./);
      assert.equal(await t.store.hooks.queued(hook.id), 1);
      const empty = await post("10m");
      assert.equal(empty.statusCode, 422);
      assert.match(empty.body, /role="alert">no failed delivery to redeliver since/);
      assert.equal(await t.store.hooks.queued(hook.id), 1, "nothing more queued");
    } finally {
      await t.store.hooks.delete(hello, hook.id);
      await r.close();
    }
  });
});
