/**
 * Doubles of the same settings share one Fastify app in a process (src/server/shared-app.ts); each must still see
 * only its own world, clock, faults, rate-limit windows, webhooks and life. Proved with two doubles answering at
 * once, over sockets and through fg.fetch, and one closed while the other goes on.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startFeedgate, type Feedgate } from "../../src/testing/index.js";
import { InstanceScope } from "../../src/server/instance-scope.js";

const worldOf = (login: string) => ({ users: [{ login }], repos: [{ full_name: `${login}/hello` }] });

describe("doubles sharing one app", () => {
  let a: Feedgate;
  let b: Feedgate;
  before(async () => {
    [a, b] = await Promise.all([
      startFeedgate({ world: worldOf("alice"), now: "2026-01-01T00:00:00Z" }),
      startFeedgate({ world: worldOf("bob"), now: "2030-06-01T00:00:00Z" }),
    ]);
  });
  after(() => Promise.all([a.close(), b.close()]));

  it("answer requests made at once each from its own world and clock", async () => {
    const ask = (fg: Feedgate, path: string, inProcess: boolean) =>
      (inProcess ? fg.fetch : fetch)(`${fg.url}${path}`).then(async (r) => ({
        status: r.status,
        date: r.headers.get("date"),
      }));
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const [fg, own, other] = i % 2 ? [a, "alice", "bob"] : [b, "bob", "alice"];
        return Promise.all([
          ask(fg, `/repos/${own}/hello`, i % 4 < 2),
          ask(fg, `/repos/${other}/hello`, i % 4 >= 2),
        ]).then(([mine, theirs]) => ({ fg, mine, theirs }));
      }),
    );
    for (const { fg, mine, theirs } of answers) {
      assert.equal(mine.status, 200);
      assert.equal(theirs.status, 404);
      assert.equal(mine.date, fg === a ? "Thu, 01 Jan 2026 00:00:00 GMT" : "Sat, 01 Jun 2030 00:00:00 GMT");
    }
  });

  it("keep their faults, rate-limit windows and tokens apart", async () => {
    a.faults.unavailable({ path: "/repos/alice/hello", times: 1 });
    assert.equal((await fetch(`${b.url}/repos/bob/hello`)).status, 200);
    assert.equal((await fetch(`${a.url}/repos/alice/hello`)).status, 502);
    const remaining = async (fg: Feedgate) =>
      Number((await fg.fetch(`${fg.url}/`)).headers.get("x-ratelimit-remaining"));
    const before = await remaining(b);
    for (let i = 0; i < 5; i++) await a.fetch(`${a.url}/`);
    assert.equal(await remaining(b), before - 1);
    const token = await a.token("alice");
    const headers = { authorization: `token ${token}` };
    assert.equal((await a.fetch(`${a.url}/user`, { headers })).status, 200);
    assert.equal((await b.fetch(`${b.url}/user`, { headers })).status, 401);
  });

  it("deliver each its own webhooks, and one closed leaves the other answering", async () => {
    const c = await startFeedgate({ world: worldOf("carol") });
    const receiver = await c.receiver();
    const token = await c.token("carol");
    const hook = await c.fetch(`${c.url}/repos/carol/hello/hooks`, {
      method: "POST",
      headers: { authorization: `token ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ config: { url: receiver.url, content_type: "json" }, events: ["issues"] }),
    });
    assert.equal(hook.status, 201);
    const opened = await c.fetch(`${c.url}/repos/carol/hello/issues`, {
      method: "POST",
      headers: { authorization: `token ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "carol's" }),
    });
    assert.equal(opened.status, 201);
    const delivery = await receiver.next({ event: "issues" });
    assert.equal((delivery.body as { repository: { full_name: string } }).repository.full_name, "carol/hello");
    await c.close();
    await assert.rejects(fetch(`${c.url}/`));
    assert.equal((await fetch(`${a.url}/repos/alice/hello`)).status, 200);
    assert.equal((await b.fetch(`${b.url}/repos/bob/hello`)).status, 200);
  });

  it("of other settings are served by an app of their own", async () => {
    const world = { users: [{ login: "dave", password: "dave-password" }] };
    await using numeric = await startFeedgate({ world, settings: { numericIds: true } });
    await using strings = await startFeedgate({ world });
    const idOf = async (fg: Feedgate) => {
      await fg.token("dave");
      const basic = `Basic ${Buffer.from("dave:dave-password").toString("base64")}`;
      const listed = await fg.fetch(`${fg.url}/authorizations`, { headers: { authorization: basic } });
      assert.equal(listed.status, 200);
      return ((await listed.json()) as { id: unknown }[])[0]!.id;
    };
    assert.equal(typeof (await idOf(numeric)), "number");
    assert.equal(typeof (await idOf(strings)), "string");
  });
});

describe("InstanceScope's stand-ins", () => {
  interface Services {
    config: { limit: number; names: string[] };
    counter: { count: number; add(n: number): number };
    clock: () => string;
    missing?: object;
  }
  const make = (count: number, when: string): Services => ({
    config: { limit: count * 10, names: [`n${count}`] },
    counter: {
      count,
      add(n) {
        this.count += n;
        return this.count;
      },
    },
    clock: () => when,
  });

  it("read, call, write and spread the current instance's services, each read again at each use", async () => {
    const scope = new InstanceScope<Services>();
    const one = make(1, "one");
    const two = make(2, "two");
    // Taken apart while registering (for the first instance), as a plugin keeps its options.
    const { standIn, counter, clock, config } = scope.run(one, () => {
      const services = scope.standIn();
      return { standIn: services, ...services };
    });
    assert.equal(
      scope.run(one, () => counter.add(5)),
      6,
    );
    assert.equal(
      scope.run(two, () => counter.add(1)),
      3,
    );
    assert.deepEqual([one.counter.count, two.counter.count], [6, 3]);
    assert.equal(
      scope.run(two, () => clock()),
      "two",
    );
    // A spread copies stand-ins: what it copied follows the instance it is used for.
    const copied = scope.run(one, () => ({ ...config }));
    assert.deepEqual(
      scope.run(two, () => [copied.limit, [...copied.names]]),
      [1 * 10, ["n2"]],
    );
    scope.run(one, () => {
      counter.count = 100;
    });
    assert.equal(one.counter.count, 100);
    assert.equal(
      scope.run(two, () => [...config.names].join()),
      "n2",
    );
    assert.equal(
      scope.run(one, () => standIn.missing),
      undefined,
    );
    // Across an await, the instance a promise was started for is still the one its continuation sees.
    const later = scope.run(two, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return clock();
    });
    assert.equal(
      scope.run(one, () => clock()),
      "one",
    );
    assert.equal(await later, "two");
    assert.throws(() => counter.add(1), /outside any instance's request/);
  });
});

describe("the test double's log", () => {
  it("is at warn unless settings.logLevel asks for another level", async () => {
    await using quiet = await startFeedgate({});
    assert.equal(quiet.app.log.level, "warn");
    await using chatty = await startFeedgate({ settings: { logLevel: "info" } });
    assert.equal(chatty.app.log.level, "info");
  });
});
