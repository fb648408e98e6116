/**
 * Password hashing and its cost setting. The other tests hash at a cheap cost (tests/helpers/test-app.ts): this file
 * is where the production parameters are checked.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { loadConfig } from "../../../src/server/config.js";
import {
  DEFAULT_PASSWORD_COST,
  decoyHash,
  hashPassword,
  setPasswordCost,
  verifyPassword,
} from "../../../src/server/services/credentials.js";

/** `scrypt$N$r$p$salt$hash` -> its parameters and the byte lengths of salt and hash. */
function parameters(encoded: string) {
  const [scheme, N, r, p, salt, hash] = encoded.split("$");
  const bytes = (base64: string | undefined) => Buffer.from(base64 ?? "", "base64").length;
  return { scheme, N: Number(N), r: Number(r), p: Number(p), salt: bytes(salt), hash: bytes(hash) };
}

const PRODUCTION = { scheme: "scrypt", N: 2 ** 15, r: 8, p: 1, salt: 16, hash: 64 };

describe("password hashing", () => {
  test("with the defaults, a password is hashed with scrypt at N=2^15, r=8, p=1, a 16-byte salt and a 64-byte key", async () => {
    // First without anything set, as the CLI's commands find it; then as a server with the default config sets it.
    assert.deepEqual(parameters(await hashPassword("correct horse")), PRODUCTION);
    assert.equal(DEFAULT_PASSWORD_COST, 15);
    setPasswordCost(loadConfig({}, {}).passwordCost);
    const hashed = await hashPassword("correct horse");
    assert.deepEqual(parameters(hashed), PRODUCTION);
    assert.equal(await verifyPassword("correct horse", hashed), true);
    assert.equal(await verifyPassword("correct horsE", hashed), false);
  });

  test("the decoy unknown logins are checked against is made at the cost of new hashes, and never matches", async () => {
    setPasswordCost(DEFAULT_PASSWORD_COST);
    assert.deepEqual(parameters(await decoyHash()), PRODUCTION);
    setPasswordCost(5);
    assert.equal(parameters(await decoyHash()).N, 2 ** 5);
    assert.equal(await verifyPassword("", null), false);
  });

  test("a lower cost makes cheaper hashes, and hashes made at any cost keep verifying after it changes", async () => {
    setPasswordCost(4);
    const cheap = await hashPassword("pw");
    assert.deepEqual(parameters(cheap), { ...PRODUCTION, N: 16 });
    setPasswordCost(DEFAULT_PASSWORD_COST);
    const costly = await hashPassword("pw");
    setPasswordCost(6);
    assert.equal(await verifyPassword("pw", cheap), true);
    assert.equal(await verifyPassword("pw", costly), true);
    assert.equal(await verifyPassword("pw ", cheap), false);
  });

  test("--password-cost wins over FEEDGATE_PASSWORD_COST, which wins over 15; outside 4 to 20 it is refused", () => {
    assert.equal(loadConfig({}, {}).passwordCost, 15);
    assert.equal(loadConfig({}, { FEEDGATE_PASSWORD_COST: "12" }).passwordCost, 12);
    assert.equal(loadConfig({ passwordCost: "17" }, { FEEDGATE_PASSWORD_COST: "12" }).passwordCost, 17);
    for (const bad of ["3", "21", "15.5", "fast", "-1"]) {
      assert.throws(() => loadConfig({ passwordCost: bad }, {}), /password cost must be/, bad);
    }
  });
});
