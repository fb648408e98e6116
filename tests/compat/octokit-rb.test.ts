/**
 * octokit.rb 4.20 (Debian's ruby-octokit), unmodified, against a live feedgate: every authorization operation of its
 * version with Basic auth and two-factor (`X-GitHub-OTP`), the entry points (`user`, `organization`, `repository`,
 * `rate_limit`), every feed it exposes including the network and the organization dashboard, its pagination (Link
 * relations and auto_paginate), a conditional request, and its resources' fields. String ids, the spec's default,
 * suit it. The cases are tests/compat/scripts/octokit_rb_cases.rb.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { HELLO_IDS } from "../helpers/client-world.js";
import { inRepository } from "../helpers/repository.js";
import { FEEDS } from "./feeds.js";
import { runCases, skipUnlessClient } from "./debian-clients.js";

const SCRIPT = inRepository("tests/compat/scripts/octokit_rb_cases.rb");
const skip = skipUnlessClient("octokitRb");

describe("octokit.rb 4.20 against feedgate", { skip }, () => {
  let t: ListeningApp;
  let result: Awaited<ReturnType<typeof runCases>>;

  before(async () => {
    t = await startListeningApp();
    result = await runCases("ruby", SCRIPT, t);
  });
  after(() => t.close());

  test("is the pinned version", () => assert.equal(result("version"), "4.20.0"));

  test("authorizations: create, get, list, update, delete with Basic auth", () => {
    assert.deepEqual(result("authorizations"), {
      token_prefix: "fgp_",
      scopes: ["repo"],
      note: "octokit.rb",
      fetched_same: true,
      listed: true,
      updated_scopes: ["repo", "gist"],
      updated_note: "octokit.rb, renamed",
      deleted: true,
      gone: 404,
    });
  });

  test("two-factor: OneTimePasswordRequired names the app; the code in X-GitHub-OTP creates", () => {
    assert.deepEqual(result("two-factor"), { refused: "app", created_note: "olga rb" });
  });

  test("wrong password: Octokit::Unauthorized, Bad credentials", () => {
    assert.deepEqual(result("bad credentials"), { status: 401, message: true });
  });

  test("entry points: user, user(login), organization, repository (a fork's parent, private), rate_limit", () => {
    assert.deepEqual(result("entry points"), {
      me: "alice",
      user: "bob",
      org: "acme",
      repo: "alice/hello",
      fork_parent: "alice/hello",
      secret_private: true,
      stranger: 404,
      rate_limit: 5000,
    });
  });

  test("every feed it exposes, network and organization dashboard included, first page", () => {
    const feeds = result("feeds");
    for (const feed of FEEDS) assert.deepEqual(feeds[feed.operation], feed.ids, feed.operation);
  });

  test("pagination: Link relations next and last, and auto_paginate to the end", () => {
    assert.deepEqual(result("pagination"), {
      first: HELLO_IDS.slice(0, 10),
      next: "/repos/alice/hello/events?per_page=10&page=2",
      last: HELLO_IDS.slice(40),
      all: HELLO_IDS,
    });
  });

  test("resource fields of events and issue events", () => {
    assert.deepEqual(result("event fields"), {
      id: HELLO_IDS[0],
      type: "ForkEvent",
      actor: "bob",
      repo: "alice/hello",
      public: true,
      created_at: "2026-01-14T00:50:00Z",
      forkee: "bob/hello",
      issue_event_id: "13",
      issue_event: "referenced",
      issue_number: 3,
    });
  });

  test("a conditional request with the ETag: 304", () => {
    assert.deepEqual(result("conditional"), { status: 304, poll_interval: "60" });
  });
});
