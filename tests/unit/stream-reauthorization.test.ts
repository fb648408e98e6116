/**
 * Re-authorization of an open stream (src/server/streams/reauthorization.ts) without sockets or a store: which
 * questions are asked, in which order, and when a stream is kept or closed, as a request made now would be answered.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import {
  due,
  endOf,
  moved,
  reauthorize,
  sharedQuestion,
  type Answers,
  type StreamStanding,
} from "../../src/server/streams/reauthorization.js";
import type { Principal } from "../../src/server/services/authenticator.js";
import type { AuthorizationRow, StoreVersion } from "../../src/server/store/store.js";
import { userRow } from "../helpers/user-row.js";

const alice = userRow({ id: 7, login: "alice", wireId: 1007 });
const token = (expiresAt: Date | null): AuthorizationRow => ({
  id: 1,
  userId: alice.id,
  hashedToken: "0".repeat(64),
  tokenLastEight: "abcdefgh",
  scopes: ["repo"],
  note: null,
  noteUrl: null,
  fingerprint: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  expiresAt,
  fineGrained: null,
  oauthAppId: null,
});
const byPassword: Principal = { kind: "password", user: alice };
const byToken = (expiresAt: Date | null = null): Principal => ({
  kind: "token",
  user: alice,
  authorization: token(expiresAt),
});

const FEED = "scope:repo:1|visibility:public";
const stream = (over: Partial<StreamStanding> = {}): StreamStanding => ({
  feedKey: FEED,
  principal: null,
  leased: false,
  credentialsMoved: false,
  ...over,
});

describe("re-authorizing a stream", () => {
  test("repositories or access moved: only the feed is asked again, as the stream's own principal sees it", () => {
    assert.deepEqual(reauthorize(stream({ principal: byPassword }), {}), { ask: "feed", principal: byPassword });
    assert.deepEqual(reauthorize(stream({ principal: byPassword, leased: true }), {}), {
      ask: "feed",
      principal: byPassword,
    });
  });

  test("the same feed keeps the stream; another feed or a refusal (the feed's 404) closes it", () => {
    assert.deepEqual(reauthorize(stream(), { feedKey: FEED }), { close: false });
    assert.deepEqual(reauthorize(stream(), { feedKey: "scope:repo:1|visibility:private" }), {
      close: true,
      reason: "what the feed shows this caller has changed",
    });
    assert.deepEqual(reauthorize(stream(), { feedKey: null }), {
      close: true,
      reason: "the feed is no longer visible to this caller",
    });
  });

  test("credentials moved: the lease first, then the principal, then the feed as the principal is now", () => {
    const standing = stream({ principal: byToken(), leased: true, credentialsMoved: true });
    const answers: Answers = {};
    assert.deepEqual(reauthorize(standing, answers), { ask: "lease" });
    answers.leaseHolds = true;
    assert.deepEqual(reauthorize(standing, answers), { ask: "principal" });
    const now = byToken(new Date("2030-01-01T00:00:00Z"));
    answers.principal = now;
    assert.deepEqual(reauthorize(standing, answers), { ask: "feed", principal: now });
    answers.feedKey = FEED;
    assert.deepEqual(reauthorize(standing, answers), { close: false });
  });

  test("a lease that ended closes the stream before anything else is asked", () => {
    const standing = stream({ principal: byPassword, leased: true, credentialsMoved: true });
    assert.deepEqual(reauthorize(standing, { leaseHolds: false }), { close: true, reason: "the session ended" });
  });

  test("credentials that no longer authenticate close the stream before its feed is asked", () => {
    const standing = stream({ principal: byToken(), credentialsMoved: true });
    assert.deepEqual(reauthorize(standing, {}), { ask: "principal" });
    assert.deepEqual(reauthorize(standing, { principal: null }), {
      close: true,
      reason: "the credentials no longer authenticate",
    });
  });

  test("an anonymous stream has no credentials to recheck: moved credentials ask only its feed, as anonymous", () => {
    assert.deepEqual(reauthorize(stream({ credentialsMoved: true }), {}), { ask: "feed", principal: null });
  });
});

describe("when a stream is rechecked or ends", () => {
  const version: StoreVersion = { generation: 1, credentials: 1, repos: 1, access: 1, received: 1, hooks: 1 };

  test("credentials, repositories and access move a stream's standing; new events, follows and hooks do not", () => {
    assert.equal(moved(version, version), false);
    assert.equal(moved({ ...version, generation: 2, received: 2, hooks: 2 }, version), false);
    for (const part of ["credentials", "repos", "access"] as const)
      assert.equal(moved({ ...version, [part]: 2 }, version), true);
  });

  test("a stream ends at the earlier of its lease and its token's expiry, or never", () => {
    const expiry = new Date("2026-01-15T11:00:00Z");
    assert.equal(endOf(undefined, null), null);
    assert.equal(endOf(undefined, byPassword), null);
    assert.equal(endOf(undefined, byToken()), null, "a token without an expiry");
    assert.deepEqual(endOf(undefined, byToken(expiry)), { at: expiry.getTime(), reason: "the token has expired" });
    assert.deepEqual(endOf({ endsAt: 1000 }, null), { at: 1000, reason: "reconnect to continue" });
    assert.deepEqual(endOf({ endsAt: expiry.getTime() + 1 }, byToken(expiry)), {
      at: expiry.getTime(),
      reason: "the token has expired",
    });
    assert.deepEqual(endOf({ endsAt: expiry.getTime() }, byToken(expiry)), {
      at: expiry.getTime(),
      reason: "reconnect to continue",
    });
    assert.equal(due({ at: 1000, reason: "" }, 999), false);
    assert.equal(due({ at: 1000, reason: "" }, 1000), true);
    assert.equal(due(null, Number.MAX_SAFE_INTEGER), false);
  });

  test("anonymous streams without a lease share one question per feed and parameters; others ask their own", () => {
    const request = { feed: "getFromUser" as const, params: { user: "alice" } };
    const question = sharedQuestion(FEED, null, request);
    assert.equal(question, sharedQuestion(FEED, null, { ...request, params: { user: "alice" } }));
    assert.notEqual(question, sharedQuestion(FEED, null, { ...request, params: { user: "bob" } }));
    assert.equal(sharedQuestion(FEED, byPassword, request), null);
    assert.equal(sharedQuestion(FEED, null, { ...request, lease: { endsAt: 0 } }), null);
  });
});
