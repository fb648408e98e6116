/**
 * The test double hashes a world's passwords at the lowest cost (feedgate/testing's default `passwordCost`), so that
 * a start with them stays as quick as one without; `feedgate serve` keeps the production cost. The cost is read off
 * the stored hash (`scrypt$N$r$p$salt$hash`), whose parameters say what it was made at.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DEFAULT_PASSWORD_COST, LOWEST_PASSWORD_COST, loadConfig } from "../../src/server/config.js";
import { startServer } from "../../src/server/main.js";
import { IngestService } from "../../src/server/services/ingest.js";
import type { Store } from "../../src/server/store/store.js";
import { startFeedgate } from "../../src/testing/index.js";

const WORLD = {
  users: [
    { login: "octocat", password: "a-long-password" },
    { login: "hubot", password: "another-password" },
  ],
};

const basic = (login: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}`,
});

/** log2 of the N a user's stored hash was made with. */
async function hashCost(store: Store, login: string): Promise<number> {
  const hash = (await store.users.findByLogin(login))?.passwordHash;
  assert.ok(hash, `${login} has a password`);
  const [scheme, n] = hash.split("$");
  assert.equal(scheme, "scrypt");
  return Math.log2(Number(n));
}

describe("a world's passwords in the test double", () => {
  it("are hashed at the lowest cost, and its users sign in with Basic auth", async () => {
    const fg = await startFeedgate({ world: WORLD });
    try {
      for (const { login, password } of WORLD.users) {
        assert.equal(await hashCost(fg.store, login), LOWEST_PASSWORD_COST);
        const me = await fetch(`${fg.url}/user`, { headers: basic(login, password) });
        assert.equal(me.status, 200);
        assert.equal(((await me.json()) as { login: string }).login, login);
      }
      const wrong = await fg.fetch(`${fg.url}/user`, { headers: basic("octocat", "another-password") });
      assert.equal(wrong.status, 401);
    } finally {
      await fg.close();
    }
  });

  it("are hashed at the cost the passwordCost setting gives, and still verify", async () => {
    const fg = await startFeedgate({ world: { users: [WORLD.users[0]!] }, settings: { passwordCost: 6 } });
    try {
      assert.equal(await hashCost(fg.store, "octocat"), 6);
      const me = await fg.fetch(`${fg.url}/user`, { headers: basic("octocat", "a-long-password") });
      assert.equal(me.status, 200);
    } finally {
      await fg.close();
    }
  });

  it("are hashed at the production cost by feedgate serve, whose default is unchanged", async () => {
    const config = loadConfig({ db: ":memory:", host: "127.0.0.1", port: 0, logLevel: "silent" }, {});
    assert.equal(config.passwordCost, DEFAULT_PASSWORD_COST);
    const server = await startServer(config, {
      beforeListen: async (store, now) => {
        await new IngestService(store, now).seedWorld({ users: [WORLD.users[0]!] }, { baseDir: undefined });
        return [];
      },
    });
    try {
      assert.equal(await hashCost(server.store, "octocat"), DEFAULT_PASSWORD_COST);
      const me = await fetch(`${server.url}/user`, { headers: basic("octocat", "a-long-password") });
      assert.equal(me.status, 200);
    } finally {
      await server.stop();
    }
    // A double started after it in the same process hashes cheaply again: each start sets the process's cost.
    const fg = await startFeedgate({ world: { users: [WORLD.users[1]!] } });
    try {
      assert.equal(await hashCost(fg.store, "hubot"), LOWEST_PASSWORD_COST);
    } finally {
      await fg.close();
    }
  });
});
