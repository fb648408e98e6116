/**
 * A closed double's store kept for the next start of the same settings, world and time (src/testing/parked-stores.ts):
 * the next double answers exactly as a fresh one would, whatever the closed one wrote, and only a start that would
 * build the very same database takes it.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { startFeedgate, type Feedgate } from "../../src/testing/index.js";
import { stateTables as dump } from "../helpers/state-tables.js";
import { closeParked } from "../../src/testing/parked-stores.js";

const WORLD = {
  users: [{ login: "octocat", password: "octocat-password" }, { login: "hubot" }],
  repos: [{ full_name: "octocat/hello" }],
  issues: [{ repo: "octocat/hello", number: 1, title: "from the world", user: "octocat" }],
};
const NOW = "2026-03-01T00:00:00Z";

async function writeEverywhere(fg: Feedgate): Promise<string> {
  const token = await fg.token("octocat");
  const send = (method: string, path: string, body?: object) =>
    fg.fetch(`${fg.url}${path}`, {
      method,
      headers: { authorization: `token ${token}`, "content-type": "application/json" },
      body: body && JSON.stringify(body),
    });
  assert.equal((await send("POST", "/repos/octocat/hello/issues", { title: "written by the first" })).status, 201);
  assert.equal((await send("PATCH", "/repos/octocat/hello/issues/1", { state: "closed" })).status, 200);
  assert.equal((await send("PUT", "/user/starred/octocat/hello")).status, 204);
  fg.clock.advance("1d");
  return token;
}

describe("stores parked between doubles", () => {
  after(() => closeParked());

  it("give the next double of the same world and time the database a fresh one builds", async () => {
    const first = await startFeedgate({ world: WORLD, now: NOW });
    const fresh = dump(first);
    const token = await writeEverywhere(first);
    const store = first.store;
    await first.close();

    const second = await startFeedgate({ world: WORLD, now: NOW });
    try {
      assert.equal(second.store, store, "the closed double's store was taken again");
      assert.deepEqual(dump(second), fresh);
      assert.equal(second.clock.now().toISOString(), "2026-03-01T00:00:00.000Z");
      const issue = await second.fetch(`${second.url}/repos/octocat/hello/issues/1`);
      assert.equal(((await issue.json()) as { state: string }).state, "open");
      assert.equal((await second.fetch(`${second.url}/repos/octocat/hello/issues/2`)).status, 404);
      const stale = await second.fetch(`${second.url}/user`, { headers: { authorization: `token ${token}` } });
      assert.equal(stale.status, 401, "a token the closed double issued is no token here");
      const basic = Buffer.from("octocat:octocat-password").toString("base64");
      const signedIn = await second.fetch(`${second.url}/user`, { headers: { authorization: `Basic ${basic}` } });
      assert.equal(signedIn.status, 200, "the world's password still signs in");
    } finally {
      await second.close();
    }
  });

  it("are not taken by a start of another world, another time, other settings, or a running clock", async () => {
    const parked = await startFeedgate({ world: WORLD, now: NOW });
    const store = parked.store;
    await parked.close();
    const others = [
      { world: { ...WORLD, users: [...WORLD.users, { login: "newcomer" }] }, now: NOW },
      { world: WORLD, now: "2026-03-02T00:00:00Z" },
      { world: WORLD, now: NOW, settings: { numericIds: true } },
      { world: WORLD },
    ];
    for (const options of others) {
      const other = await startFeedgate(options);
      try {
        assert.notEqual(other.store, store, JSON.stringify(options));
      } finally {
        await other.close();
      }
    }
    const same = await startFeedgate({ world: WORLD, now: NOW });
    assert.equal(same.store, store);
    await same.close();
  });

  it("give a running clock's next start in the same second the store its world was seeded in", async () => {
    // A start seeds its world at its second (the world's issue is made then); one a second later builds its own.
    // Tried until both cases were seen: the first start of each try begins just before a second ends.
    const seededAt = async (fg: Feedgate) => {
      const issue = await fg.fetch(`${fg.url}/repos/octocat/hello/issues/1`);
      return ((await issue.json()) as { created_at: string }).created_at;
    };
    const seen = { same: 0, next: 0 };
    for (let tries = 0; tries < 50 && (seen.same === 0 || seen.next === 0); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) - (tries % 2 ? 500 : 3)));
      const first = await startFeedgate({ world: WORLD });
      const fresh = dump(first);
      const firstSeeded = await seededAt(first);
      assert.match(firstSeeded, /T\d\d:\d\d:\d\dZ$/);
      await writeEverywhere(first);
      const store = first.store;
      await first.close();
      const second = await startFeedgate({ world: WORLD });
      try {
        if ((await seededAt(second)) === firstSeeded) {
          seen.same++;
          assert.equal(second.store, store, "a start in the same second took the parked store");
          assert.deepEqual(dump(second), fresh);
          const issue = await second.fetch(`${second.url}/repos/octocat/hello/issues/1`);
          assert.equal(((await issue.json()) as { state: string }).state, "open");
        } else {
          seen.next++;
          assert.notEqual(second.store, store, "a store of a past second is not taken");
          await assert.rejects(store.users.findByLogin("octocat"), "and it was closed, not kept");
        }
      } finally {
        await second.close();
      }
    }
    assert.ok(seen.same > 0 && seen.next > 0, JSON.stringify(seen));
  });

  it("serve two doubles of one key at once with stores of their own", async () => {
    const [a, b] = await Promise.all([
      startFeedgate({ world: WORLD, now: NOW }),
      startFeedgate({ world: WORLD, now: NOW }),
    ]);
    try {
      assert.notEqual(a.store, b.store);
      await writeEverywhere(a);
      const issue = await b.fetch(`${b.url}/repos/octocat/hello/issues/1`);
      assert.equal(((await issue.json()) as { state: string }).state, "open");
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
