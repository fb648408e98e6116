/**
 * PostgreSQL raises its version numbers once a statement (migration 20), not once a row: a batch that stores
 * hundreds of stars updates `ingest_state` once, where a row trigger updated that one row once per star, each update
 * a new version of it within the transaction. Which writes raise which number is the store contract's
 * (tests/store/arrivals-contract.test.ts); this is how often.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { PostgresStore } from "../../src/server/store/postgres/postgres-store.js";
import { emptyBatch } from "../../src/server/services/event-envelope.js";
import { createTestDatabase, skipUnlessPostgres, type TestDatabase } from "../helpers/services.js";

const skip = await skipUnlessPostgres();
const NOW = new Date("2026-11-29T12:00:00Z");
const STARS = 300;

describe("PostgreSQL raises each number once a statement", { skip }, () => {
  let database: TestDatabase;
  let store: PostgresStore;

  before(async () => {
    database = await createTestDatabase();
    store = await PostgresStore.open(database.url); // migrates
  });
  after(async () => {
    await store?.close();
    await database?.drop();
  });

  test(`${STARS} stars in one batch raise the received number once, and each starring user's own number once`, async () => {
    const users = Array.from({ length: STARS }, (_, i) => `stargazer-${i}`);
    const accounts = emptyBatch();
    for (const login of users) accounts.accounts.push({ source: login, login, type: "User" });
    accounts.repos.push({ source: "r", fullName: "octo/popular" });
    await store.ingest.apply(accounts, NOW);
    const ids = await Promise.all(users.map(async (login) => (await store.users.findByLogin(login))!.id));
    const before = await store.events.version();
    const ownBefore = await Promise.all(ids.map((id) => store.events.receivedVersion(id)));

    const stars = emptyBatch();
    for (const user of users) stars.watches.push({ source: user, user, repo: "octo/popular" });
    await store.ingest.apply(stars, NOW);

    const after = await store.events.version();
    assert.equal(after.received - before.received, 1, "the received number rose once for the batch's one statement");
    const own = await Promise.all(ids.map((id) => store.events.receivedVersion(id)));
    assert.deepEqual(
      own.map((n, i) => n - ownBefore[i]!),
      ids.map(() => 1),
      "each user's own number rose once",
    );
  });

  test(`a statement that gives ${STARS} accounts their GitHub ids raises the credentials number once`, async () => {
    const batch = emptyBatch();
    for (let i = 0; i < STARS; i++)
      batch.accounts.push({ source: `a${i}`, login: `stargazer-${i}`, type: "User", externalId: 500_000 + i });
    const before = await store.events.version();
    await store.ingest.apply(batch, NOW);
    assert.equal((await store.events.version()).credentials - before.credentials, 1);
  });
});
