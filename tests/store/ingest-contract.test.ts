/**
 * The ingest part of the store contract, on every driver: a batch applies whole or not at all, again without
 * effect, with bodies kept byte for byte, names matched in any letter case and fork networks joined.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { IngestConflictError, type IngestBatch } from "../../src/server/store/store.js";
import { addEvent, emptyBatch, parseEvent } from "../../src/server/services/event-envelope.js";
import { hashToken } from "../../src/server/services/credentials.js";
import { contractSuite, type OpenedStore } from "../helpers/store-drivers.js";
import { NOW, LATER, HASH, NOTHING_ELSE_ADDED, token } from "../helpers/store-rows.js";
import {
  USERS,
  ORGS,
  REPOS,
  EVENTS,
  ISSUE_EVENTS,
  ALL_EVENTS,
  COMPLETE_EVENT,
  ALL,
  theWorld,
  resolver,
  worldEvent,
  ownerOf,
} from "../helpers/store-scenario.js";
import { snapshot } from "../helpers/ingest-fixtures.js";

contractSuite((driver) => {
  describe("ingest", () => {
    let s: OpenedStore;
    before(async () => {
      s = await driver.open();
    });
    after(() => s.close());

    test("applies a world: accounts, organizations, relations, tokens, events and issue events", async () => {
      const result = await s.store.ingest.apply(await theWorld(s.store), NOW);
      assert.deepEqual(result, {
        eventsAdded: ALL_EVENTS.length,
        eventsSkipped: 0,
        issueEventsAdded: ISSUE_EVENTS.length,
        issueEventsSkipped: 0,
        usersAdded: USERS.length,
        organizationsAdded: Object.keys(ORGS).length,
        reposAdded: REPOS.length,
        tokensAdded: 1,
      });
      assert.equal((await s.store.users.findByLogin("acme"))!.type, "Organization");
      assert.equal((await s.store.users.findByLogin("erin"))!.wireId, 9001);
      assert.deepEqual(
        (await s.store.users.list()).map((u) => u.login),
        USERS.filter((u) => u !== "erin"),
      );
      const [seeded] = await s.store.authorizations.findByTokenLastEight("01234567");
      assert.deepEqual([seeded?.scopes, seeded?.note, seeded?.createdAt], [["repo", "user"], "seeded", NOW]);
    });

    test("applying the same batch again adds nothing and leaves every table identical", async () => {
      const before = await snapshot(s.db);
      const again = await s.store.ingest.apply(await theWorld(s.store), LATER);
      assert.deepEqual(again, {
        eventsAdded: 0,
        eventsSkipped: ALL_EVENTS.length,
        issueEventsAdded: 0,
        issueEventsSkipped: ISSUE_EVENTS.length,
        usersAdded: 0,
        organizationsAdded: 0,
        reposAdded: 0,
        tokensAdded: 0,
      });
      assert.deepEqual(await snapshot(s.db), before);
    });

    test("an event given twice in one batch is added once", async () => {
      const batch = emptyBatch();
      for (const id of ["900000001", "900000001", "900000002"]) {
        addEvent(batch, parseEvent({ ...worldEvent(EVENTS[0]!), id }, `events[${id}]`));
      }
      assert.deepEqual(await s.store.ingest.apply(batch, NOW), {
        eventsAdded: 2,
        eventsSkipped: 1,
        issueEventsAdded: 0,
        issueEventsSkipped: 0,
        ...NOTHING_ELSE_ADDED,
      });
      const overlapping = emptyBatch();
      for (const id of ["900000002", "900000003"])
        addEvent(overlapping, parseEvent({ ...worldEvent(EVENTS[0]!), id }, id));
      assert.deepEqual(await s.store.ingest.apply(overlapping, NOW), {
        eventsAdded: 1,
        eventsSkipped: 1,
        issueEventsAdded: 0,
        issueEventsSkipped: 0,
        ...NOTHING_ELSE_ADDED,
      });
    });

    test("event bodies come back byte for byte: escapes, backslashes, tabs, line breaks and any Unicode", async () => {
      const tricky = {
        ...COMPLETE_EVENT,
        id: "990000020",
        payload: {
          strings: ["back\\slash", "tab\there", 'quote"d', "line\nbreak", "\\N", "\\.", "é ✓ 😀", "nul\u0000escaped"],
        },
      };
      // A complete envelope is stored as its original text: pretty-printed, that text holds raw tabs and newlines.
      const raw = `  ${JSON.stringify(tricky, null, "\t")}\n`;
      const batch = emptyBatch();
      addEvent(batch, parseEvent(JSON.parse(raw), "tricky.ndjson:1", raw));
      addEvent(batch, parseEvent({ ...worldEvent(EVENTS[0]!), id: "990000021", payload: tricky.payload }, "events[1]"));
      batch.issueEvents.push({
        source: "issue_events[0]",
        id: "990000022",
        repoName: "dave/solo",
        actorLogin: null,
        createdAt: NOW,
        complete: true,
        body: JSON.stringify({ id: "990000022", event: "renamed", rename: { from: "a\tb\\c", to: "\n😀" } }),
      });
      await s.store.ingest.apply(batch, NOW);
      const feed = await s.store.events.feed({ kind: "all" }, { ...ALL, visibility: { kind: "all" } });
      const body = (id: string) => feed.rows.find((r) => JSON.parse(r.body).id === id)?.body;
      assert.equal(body("990000020"), raw.trim());
      assert.deepEqual(JSON.parse(body("990000021")!).payload, tricky.payload);
      const repo = (await s.store.directory.findRepo("dave", "solo"))!;
      const [issue] = (await s.store.events.issueFeed(repo.id, ALL)).rows.filter(
        (r) => JSON.parse(r.body).id === "990000022",
      );
      assert.equal(issue?.body, batch.issueEvents[0]!.body);
    });

    /** A batch that writes a little of everything before its last entry conflicts. */
    function conflicting(last: (batch: IngestBatch) => void): IngestBatch {
      const batch = emptyBatch();
      batch.accounts.push({ source: "users[0]", login: "newbie", type: "User", passwordHash: HASH, siteAdmin: true });
      batch.accounts.push({ source: "orgs[0]", login: "newco", type: "Organization" });
      batch.memberships.push({ source: "orgs[0]", org: "newco", member: "newbie" });
      batch.memberships.push({ source: "orgs[1]", org: "acme", member: "bob" });
      batch.repos.push({ source: "repos[0]", fullName: "newco/thing", private: true });
      batch.repos.push({ source: "repos[1]", fullName: "alice/pub", private: true });
      batch.repos.push({ source: "repos[2]", fullName: "dave/solo", forkOf: "acme/widgets" });
      batch.collaborators.push({ source: "repos[0]", repo: "newco/thing", user: "zed" });
      batch.collaborators.push({ source: "repos[3]", repo: "alice/priv", user: "bob", remove: true });
      batch.follows.push({ source: "users[0]", follower: "newbie", followee: "alice" });
      batch.watches.push({ source: "users[0]", user: "newbie", repo: "alice/pub" });
      batch.tokens.push({
        source: "tokens[0]",
        login: "newbie",
        hashedToken: hashToken(token(40)),
        tokenLastEight: "abababab",
        scopes: [],
        note: null,
      });
      addEvent(
        batch,
        parseEvent({ ...worldEvent(EVENTS[0]!), id: "990000001", repo: { name: "newco/thing" } }, "events[0]"),
      );
      batch.issueEvents.push({
        source: "issue_events[0]",
        id: "990000002",
        repoName: "newco/thing",
        actorLogin: "newbie",
        createdAt: NOW,
        complete: false,
        body: "{}",
      });
      last(batch);
      return batch;
    }

    const CONFLICTS: [string, (batch: IngestBatch) => void, RegExp][] = [
      [
        "a token for an unknown user",
        (b) =>
          b.tokens.push({
            source: "tokens[1]",
            login: "ghost",
            hashedToken: hashToken(token(41)),
            tokenLastEight: "abababab",
            scopes: [],
            note: null,
          }),
        /^tokens\[1\]: no user ghost$/,
      ],
      [
        "a token for an organization",
        (b) =>
          b.tokens.push({
            source: "tokens[1]",
            login: "acme",
            hashedToken: hashToken(token(42)),
            tokenLastEight: "abababab",
            scopes: [],
            note: null,
          }),
        /^tokens\[1\]: no user acme$/,
      ],
      [
        "another user's token",
        (b) =>
          b.tokens.push({
            source: "tokens[1]",
            login: "bob",
            hashedToken: hashToken("0123456789abcdef0123456789abcdef01234567"),
            tokenLastEight: "01234567",
            scopes: [],
            note: null,
          }),
        /^tokens\[1\]: the token belongs to another user$/,
      ],
      [
        "a repository forked from itself",
        (b) => b.repos.push({ source: "repos[9]", fullName: "newco/thing", forkOf: "NEWCO/Thing" }),
        /^repos\[9\]: newco\/thing cannot be a fork of itself$/,
      ],
      [
        "a world user that is an organization",
        (b) => b.accounts.push({ source: "users[9]", login: "umbrella", type: "User" }),
        /^users\[9\]: umbrella is an organization, not a user$/,
      ],
      [
        "an organization that is a login user",
        (b) => b.accounts.push({ source: "orgs[9]", login: "bob", type: "Organization" }),
        /^orgs\[9\]: bob is a user who can log in, not an organization$/,
      ],
    ];

    for (const [what, last, message] of CONFLICTS) {
      test(`a batch whose last entry is ${what} is refused naming it, and writes nothing at all`, async () => {
        const before = await snapshot(s.db);
        await assert.rejects(s.store.ingest.apply(conflicting(last), LATER), (error: unknown) => {
          assert.ok(error instanceof IngestConflictError, String(error));
          assert.match(error.message, message);
          return true;
        });
        assert.deepEqual(await snapshot(s.db), before);
      });
    }

    test("the same batch without its conflict then applies", async () => {
      const result = await s.store.ingest.apply(
        conflicting(() => undefined),
        LATER,
      );
      // newbie, newco, newco/thing and newbie's token are new; everything else it names was stored.
      assert.deepEqual(result, {
        eventsAdded: 1,
        eventsSkipped: 0,
        issueEventsAdded: 1,
        issueEventsSkipped: 0,
        usersAdded: 1,
        organizationsAdded: 1,
        reposAdded: 1,
        tokensAdded: 1,
      });
      assert.equal((await s.store.directory.findRepo("newco", "thing"))?.private, true);
      assert.equal((await s.store.users.findByLogin("newbie"))?.siteAdmin, true);
      // Its removed collaborator can no longer read the private repository; the new one can.
      const { userId, repo } = await resolver(s.store);
      assert.equal(await s.store.directory.canRead(await userId("bob"), (await repo("alice/priv")).id), false);
      assert.equal(await s.store.directory.canRead(await userId("zed"), (await repo("newco/thing")).id), true);
      assert.equal(await s.store.directory.isMember(await userId("acme"), await userId("bob")), true);
    });

    test("logins and repository names match in any spelling, within a batch and across batches; the first spelling stays", async () => {
      const first = emptyBatch();
      first.repos.push({ source: "r0", fullName: "CaseCo/Widget", externalId: 4242 });
      first.watches.push({ source: "w0", user: "CASEWATCHER", repo: "caseco/WIDGET" });
      first.follows.push({ source: "f0", follower: "casewatcher", followee: "CASECO" });
      await s.store.ingest.apply(first, NOW);
      const second = emptyBatch();
      second.repos.push({ source: "r0", fullName: "CASECO/widget", private: true, externalId: 1 });
      second.accounts.push({ source: "a0", login: "caseWatcher", type: "User", externalId: 77 });
      await s.store.ingest.apply(second, NOW);

      const repo = (await s.store.directory.findRepo("caseco", "widget"))!;
      assert.equal(repo.fullName, "CaseCo/Widget");
      assert.equal(repo.private, true);
      assert.equal(repo.wireId, 4242, "a GitHub id once given is kept");
      // Follows apply before watches (IngestBatch's order), so the follow's spelling came first.
      assert.equal(await s.store.directory.loginByWireId(77), "casewatcher");
      assert.equal(
        (await s.store.users.findByLogin("CaseWatcher"))!.id,
        (await s.store.users.findByLogin("CASEWATCHER"))!.id,
      );
    });

    test("a fork joins its parent's network, bringing every repository already forked from it", async () => {
      const network = async (full: string) =>
        (await s.store.directory.findRepo(ownerOf(full), full.slice(full.indexOf("/") + 1)))!.networkId;
      const id = async (full: string) =>
        (await s.store.directory.findRepo(ownerOf(full), full.slice(full.indexOf("/") + 1)))!.id;
      const first = emptyBatch();
      // Children named before their parents within one batch, and a separate network forked later.
      first.repos.push({ source: "r0", fullName: "x/grandchild", forkOf: "x/child" });
      first.repos.push({ source: "r1", fullName: "x/child", forkOf: "x/root" });
      first.repos.push({ source: "r2", fullName: "y/other" });
      first.repos.push({ source: "r3", fullName: "y/other-fork", forkOf: "y/other" });
      await s.store.ingest.apply(first, NOW);
      const root = await id("x/root");
      for (const repo of ["x/root", "x/child", "x/grandchild"]) assert.equal(await network(repo), root, repo);
      const other = await id("y/other");
      assert.equal(await network("y/other-fork"), other);

      const second = emptyBatch();
      second.repos.push({ source: "r0", fullName: "y/other", forkOf: "x/grandchild" });
      await s.store.ingest.apply(second, NOW);
      for (const repo of ["x/root", "x/child", "x/grandchild", "y/other", "y/other-fork"])
        assert.equal(await network(repo), root, repo);
      // The network feed follows.
      const feed = await s.store.events.feed(
        { kind: "network", networkId: root },
        { ...ALL, visibility: { kind: "all" } },
      );
      assert.equal(feed.total, 0);

      // A stored repository first named after its network moved in the same batch is in the new network:
      // y/other-fork was read before the batch, while its network was still y/other's.
      const third = emptyBatch();
      third.repos.push({ source: "r0", fullName: "z/base" });
      const fourth = emptyBatch();
      fourth.repos.push({ source: "r0", fullName: "x/root", forkOf: "z/base" });
      fourth.repos.push({ source: "r1", fullName: "z/late-fork", forkOf: "y/other-fork" });
      await s.store.ingest.apply(third, NOW);
      await s.store.ingest.apply(fourth, NOW);
      const base = await id("z/base");
      for (const repo of ["x/root", "x/child", "x/grandchild", "y/other", "y/other-fork", "z/late-fork"]) {
        assert.equal(await network(repo), base, repo);
      }
    });

    test("an organization named by an event becomes an organization; GitHub's ids come from later complete envelopes", async () => {
      const batch = emptyBatch();
      addEvent(
        batch,
        parseEvent(
          {
            ...worldEvent(EVENTS[0]!),
            id: "990000010",
            actor: { login: "solo-dev" },
            repo: { name: "solo-dev/app" },
            org: { login: "latecorp" },
          },
          "e0",
        ),
      );
      await s.store.ingest.apply(batch, NOW);
      const late = (await s.store.users.findByLogin("latecorp"))!;
      assert.equal(late.type, "Organization");
      assert.equal(late.wireId, late.id);
      const complete = emptyBatch();
      addEvent(
        complete,
        parseEvent(
          {
            ...COMPLETE_EVENT,
            id: "990000011",
            actor: { ...COMPLETE_EVENT.actor, id: 424242, login: "solo-dev" },
            repo: { ...COMPLETE_EVENT.repo, id: 515151, name: "solo-dev/app" },
          },
          "e1",
        ),
      );
      await s.store.ingest.apply(complete, NOW);
      assert.equal((await s.store.users.findByLogin("solo-dev"))!.wireId, 424242);
      assert.equal((await s.store.directory.findRepo("solo-dev", "app"))!.wireId, 515151);
    });
  });
});
