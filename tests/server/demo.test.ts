/**
 * The demo world `npm start` loads shows what feedgate is for: private events reach the demo user's received feed
 * (and no one else's), and its own story is recent enough that GitHub's 30-day limit (`--feed-max-age 30d`) still
 * shows it, while the GH Archive events keep their real 2021 times.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { ensureDemoAccount, type DemoCredentials } from "../../src/server/services/demo.js";
import { startTestApp, TestClock, type TestApp } from "../helpers/test-app.js";

const START = new Date("2026-11-24T12:00:00Z");

describe("the demo world", () => {
  let t: TestApp;
  let demo: DemoCredentials;

  before(async () => {
    t = await startTestApp({ feedMaxAge: "30d", rateLimitAnonymous: 1000 }, new TestClock(START));
    demo = (await ensureDemoAccount(t.store, t.clock.now))!;
  });
  after(() => t.close());

  const feed = async (url: string, token?: string) => {
    const response = await t.app.inject({ url, headers: token ? { authorization: `token ${token}` } : {} });
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as {
      id: string;
      type: string;
      public: boolean;
      repo: { name: string };
      created_at: string;
    }[];
  };

  test("demo's received feed holds the private push to demo/secret-plans; the public one and strangers' do not", async () => {
    const received = await feed("/users/demo/received_events", demo.token);
    const secret = received.find((event) => event.repo.name === "demo/secret-plans" && event.type === "PushEvent");
    assert.ok(secret, received.map((event) => `${event.type} ${event.repo.name}`).join("\n"));
    assert.equal(secret.public, false);
    assert.ok(!(await feed("/users/demo/received_events/public")).some((event) => !event.public));
  });

  test("its own events end a minute before the start, spaced as written; the GH Archive ones stay in 2021", async () => {
    const own = await feed("/users/demo/events", demo.token);
    assert.deepEqual(
      own.map((event) => event.created_at),
      ["2026-11-24T11:50:00Z", "2026-11-24T11:45:00Z", "2026-11-24T11:30:00Z"],
    );
    const friend = await feed("/users/demo-friend/events/public");
    assert.deepEqual(
      friend.map((event) => event.created_at),
      ["2026-11-24T11:55:00Z"],
    );
    const issueEvents = await feed("/repos/demo/tools/issues/events");
    assert.deepEqual(
      issueEvents.map((event) => event.created_at),
      ["2026-11-24T11:59:00Z"],
    );
    // With --feed-max-age 30d the global feed shows only the demo's story: the archive is older.
    const global = await feed("/events?per_page=100");
    assert.deepEqual(
      global.map((event) => event.id),
      ["900000000005", "900000000004"],
    );
  });
});
