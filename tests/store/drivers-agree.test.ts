/**
 * The store contract's last check: one scenario on SQLite and on PostgreSQL, every answer recorded in order, and
 * the two transcripts identical.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import type { Store } from "../../src/server/store/store.js";
import { emptyBatch } from "../../src/server/services/event-envelope.js";
import { DRIVERS, postgresSkip, type OpenedStore } from "../helpers/store-drivers.js";
import { NOW, LATER, newUser, token, newAuthorization } from "../helpers/store-rows.js";
import {
  USERS,
  ORGS,
  REPOS,
  BASE,
  SCOPES,
  VISIBILITIES,
  ALL,
  theWorld,
  resolver,
  label,
} from "../helpers/store-scenario.js";

/**
 * Everything a scenario's Store calls answer, in order. Only the times the store itself takes (a login user's
 * createdAt) are left out; ids, bodies, order, totals and error types must match exactly.
 */
async function transcript(store: Store): Promise<unknown[]> {
  const out: unknown[] = [];
  const record = async (what: string, work: () => Promise<unknown>) => {
    try {
      out.push([what, await work()]);
    } catch (error) {
      out.push([what, "threw", (error as Error).name, (error as Error).message]);
    }
  };
  const resolve = await resolver(store);
  await record("world", async () => store.ingest.apply(await theWorld(store), NOW));
  for (const login of [...USERS, ...Object.keys(ORGS)])
    await record(`user ${login}`, () => store.users.findByLogin(login));
  await record("list", () => store.users.list());
  await record("count", () => store.users.count());
  for (const { full_name } of REPOS) await record(`repo ${full_name}`, () => resolve.repo(full_name));
  for (const user of USERS) {
    for (const { full_name } of REPOS) {
      await record(`canRead ${user} ${full_name}`, async () =>
        store.directory.canRead(await resolve.userId(user), (await resolve.repo(full_name)).id),
      );
    }
    for (const org of Object.keys(ORGS)) {
      await record(`isMember ${user} ${org}`, async () =>
        store.directory.isMember(await resolve.userId(org), await resolve.userId(user)),
      );
    }
  }
  for (const scope of SCOPES) {
    for (const visibility of VISIBILITIES) {
      const s = await resolve.scope(scope);
      const v = await resolve.visibility(visibility);
      await record(label(scope, visibility), () => store.events.feed(s, { ...ALL, visibility: v }));
      await record(`${label(scope, visibility)} page 2`, () =>
        store.events.feed(s, { limit: 3, offset: 3, notBefore: new Date((BASE + 600) * 1000), visibility: v }),
      );
    }
  }
  for (const { full_name } of REPOS) {
    await record(`issues ${full_name}`, async () => store.events.issueFeed((await resolve.repo(full_name)).id, ALL));
  }
  const alice = await resolve.userId("alice");
  const ids: number[] = [];
  for (let n = 1; n <= 4; n++) {
    await record(`create ${n}`, async () => {
      const row = await store.authorizations.create(newAuthorization(alice, n), new Date(NOW.getTime() + n));
      ids.push(row.id);
      return row;
    });
  }
  await record("update", () => store.authorizations.update(alice, ids[1]!, { note: null, fingerprint: "fp" }, LATER));
  await record("delete", () => store.authorizations.delete(alice, ids[2]!));
  await record("authorizations", () => store.authorizations.list(alice, { limit: 2, offset: 1 }));
  await record("by last eight", () => store.authorizations.findByTokenLastEight(token(4).slice(-8)));
  await record("again", async () => store.ingest.apply(await theWorld(store), LATER));
  // Failures last: PostgreSQL spends a sequence value on a failed insert, so ids after one may differ by design.
  await record("claim erin", async () => ({
    ...(await store.users.create(newUser("Erin"))),
    createdAt: "(store time)",
  }));
  await record("duplicate user", () => store.users.create(newUser("ERIN")));
  await record("duplicate token", () => store.authorizations.create(newAuthorization(alice, 1), NOW));
  await record("conflict", () => {
    const batch = emptyBatch();
    batch.tokens.push({
      source: "tokens[0]",
      login: "nobody",
      hashedToken: "x",
      tokenLastEight: "x",
      scopes: [],
      note: null,
    });
    return store.ingest.apply(batch, NOW);
  });
  return out;
}

describe("SQLite and PostgreSQL answer the same scenario identically", { skip: postgresSkip }, () => {
  const opened: OpenedStore[] = [];
  before(async () => {
    for (const driver of DRIVERS) opened.push(await driver.open());
  });
  after(async () => {
    for (const s of opened) await s.close();
  });

  test("every answer, in order, is the same on both drivers", async () => {
    const [sqlite, postgres] = [await transcript(opened[0]!.store), await transcript(opened[1]!.store)];
    assert.equal(sqlite.length, postgres.length);
    for (let i = 0; i < sqlite.length; i++)
      assert.deepEqual(postgres[i], sqlite[i], `step ${i}: ${(sqlite[i] as unknown[])[0]}`);
    assert.ok(sqlite.length > 400);
  });
});
