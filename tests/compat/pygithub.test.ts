/**
 * PyGithub 1.55 (Debian's python3-github), unmodified, against a live feedgate started with `--numeric-ids` (it reads
 * the authorization and issue-event `id` as integers, as GitHub sent them): every authorization operation of its
 * version with Basic auth and two-factor, the entry points it reaches feeds through (`get_user`, `get_organization`,
 * `get_repo`), every feed it exposes including the network and the organization dashboard, its own pagination,
 * conditional `update()`, and its model objects' fields. The cases are tests/compat/scripts/pygithub_cases.py.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { HELLO_IDS } from "../helpers/client-world.js";
import { inRepository } from "../helpers/repository.js";
import { FEEDS } from "./feeds.js";
import { runCases, skipUnlessClient } from "./debian-clients.js";

const SCRIPT = inRepository("tests/compat/scripts/pygithub_cases.py");
const skip = skipUnlessClient("pygithub");

describe("PyGithub 1.55 against feedgate --numeric-ids", { skip }, () => {
  let t: ListeningApp;
  let result: Awaited<ReturnType<typeof runCases>>;

  before(async () => {
    t = await startListeningApp({ numericIds: true });
    result = await runCases("/usr/bin/python3", SCRIPT, t);
  });
  after(() => t.close());

  test("is the pinned version", () => assert.equal(result("version"), "1.55"));

  test("authorizations: create, get, list, edit, delete with Basic auth; ids are integers", () => {
    assert.deepEqual(result("authorizations"), {
      id_type: "int",
      token_prefix: "fgp_",
      scopes: ["repo"],
      note: "pygithub",
      note_url: "https://example.com/app",
      app_name: "pygithub",
      fetched_same: true,
      listed: true,
      edited_scopes: ["repo", "gist"],
      edited_note: "pygithub, renamed",
      created_at_type: "datetime",
      gone: 404,
    });
  });

  test("two-factor: create with onetime_password; without a code, TwoFactorException", () => {
    assert.deepEqual(result("two-factor"), { created_note: "olga 2fa", refused: 401 });
  });

  test("wrong password: BadCredentialsException", () => {
    assert.deepEqual(result("bad credentials"), { status: 401, message: "Bad credentials" });
  });

  test("entry points: get_user, get_user(login), get_organization, get_repo (forks, private, permissions), rate limit", () => {
    assert.deepEqual(result("entry points"), {
      me: "alice",
      me_type: "User",
      user: "bob",
      user_id_type: "int",
      org: "acme",
      repo: "alice/hello",
      repo_private: false,
      owner: "alice",
      fork: true,
      parent: "alice/hello",
      secret_private: true,
      permissions_admin: true,
      stranger_sees_secret: 404,
      rate_limit: 5000,
    });
  });

  test("every feed it exposes, network and organization dashboard included, first page", () => {
    const feeds = result("feeds");
    for (const feed of FEEDS) assert.deepEqual(feeds[feed.operation], feed.ids, feed.operation);
  });

  test('its pagination: iteration follows Link to the end, reversed starts at rel="last", get_page', () => {
    assert.deepEqual(result("pagination"), {
      all: HELLO_IDS,
      reversed_first: [...HELLO_IDS].reverse().slice(0, 3),
      page_2: HELLO_IDS.slice(10, 20),
    });
  });

  test("model fields of events and issue events", () => {
    const fields = result("event fields");
    assert.deepEqual(
      { ...fields, payload: undefined },
      {
        id: HELLO_IDS[0],
        type: "ForkEvent",
        actor: "bob",
        repo: "alice/hello",
        public: true,
        created_at: "2026-01-14T00:50:00",
        payload: undefined,
        issue_event_id: 13,
        issue_event_type: "int",
        issue_event_event: "referenced",
        issue_number: 3,
        issue_event_actor: "alice",
      },
    );
    assert.deepEqual(fields.payload, { forkee: { full_name: "bob/hello" } });
  });

  test("conditional update(): an unchanged repository and user answer 304, so nothing changed", () => {
    assert.deepEqual(result("conditional"), { repo_changed: false, user_changed: false, etag: true });
  });
});
