/** The batch rules of an ingest (src/server/store/ingest-plan.ts), run against a driver of maps: no database. */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { ingestProgram } from "../../../src/server/store/ingest-plan.js";
import { runProgram } from "../../../src/server/store/ingest-protocol.js";
import {
  IngestConflictError,
  type EventInsert,
  type IngestBatch,
  type IngestOptions,
} from "../../../src/server/store/ingest-store.js";
import { MemoryIngest } from "./memory-ingest-driver.js";

const NOW = new Date("2026-01-14T00:00:00Z");

const batch = (parts: Partial<IngestBatch>): IngestBatch => ({
  accounts: [],
  memberships: [],
  repos: [],
  collaborators: [],
  follows: [],
  watches: [],
  tokens: [],
  events: [],
  issueEvents: [],
  ...parts,
});

const event = (id: string, actorLogin: string, repoName: string | null, createdAt = NOW): EventInsert => ({
  source: `events[${id}]`,
  id,
  type: "PushEvent",
  actorLogin,
  repoName,
  orgLogin: null,
  public: true,
  createdAt,
  complete: false,
  body: "{}",
});

function apply(memory: MemoryIngest, parts: Partial<IngestBatch>, options?: IngestOptions) {
  return runProgram(ingestProgram(batch(parts), NOW, options), memory.driver);
}

/** The conflict the batch raises: its entry and its message. */
function conflict(memory: MemoryIngest, parts: Partial<IngestBatch>): { field: string | undefined; message: string } {
  try {
    apply(memory, parts);
  } catch (error) {
    assert.ok(error instanceof IngestConflictError, String(error));
    return { field: error.field, message: error.problem };
  }
  assert.fail("no conflict");
}

describe("ingest plan: resolving names", () => {
  test("asks a world organization's profile to be set with the batch's time, the fields not given as null, and none without one", () => {
    const memory = new MemoryIngest();
    apply(memory, {
      accounts: [
        { source: "orgs[0]", login: "acme", type: "Organization", profile: { blog: "https://acme.example" } },
        { source: "orgs[1]", login: "globex", type: "Organization" },
      ],
    });
    const acme = memory.accounts.get("acme")!.id;
    assert.deepEqual(memory.asked("setProfile"), [
      { op: "setProfile", id: acme, email: null, blog: "https://acme.example", billingEmail: null, now: NOW },
    ]);
  });

  test("looks every named account up at once and creates the missing ones at once, with their type", () => {
    const memory = new MemoryIngest();
    memory.account("alice");
    const result = apply(memory, {
      memberships: [{ source: "orgs[0]", org: "acme", member: "alice" }],
      events: [event("1", "bob", "acme/tools")],
    });
    assert.deepEqual(
      memory.asked("findAccounts").map((o) => o.logins),
      [["acme", "alice", "bob"]],
    );
    assert.deepEqual(
      memory.asked("insertAccounts").map((o) => o.rows.map((r) => [r.login, r.type])),
      [
        [
          ["acme", "Organization"],
          ["bob", "User"],
        ],
      ],
    );
    assert.deepEqual([result.usersAdded, result.organizationsAdded, result.reposAdded], [1, 1, 1]);
  });

  test("matches logins and repository names case-insensitively, creating nothing twice", () => {
    const memory = new MemoryIngest();
    const result = apply(memory, { events: [event("1", "Alice", "alice/Tools"), event("2", "ALICE", "ALICE/tools")] });
    assert.equal(memory.asked("insertAccounts")[0]!.rows.length, 1);
    assert.equal(memory.asked("insertRepos")[0]!.rows.length, 1);
    assert.deepEqual([result.usersAdded, result.reposAdded], [1, 1]);
  });

  test("asks nothing about repositories of accounts it is creating: they cannot exist yet", () => {
    const memory = new MemoryIngest();
    apply(memory, { events: [event("1", "alice", "alice/tools")] });
    assert.deepEqual(memory.asked("findRepos"), []);
  });
});

describe("ingest plan: conflicts", () => {
  test("refuses to make an organization of a user who can log in, naming the entry", () => {
    const memory = new MemoryIngest();
    memory.account("alice", "User", "hash");
    assert.deepEqual(conflict(memory, { memberships: [{ source: "orgs[2]", org: "alice", member: "bob" }] }), {
      field: "orgs[2]",
      message: "alice is a user who can log in, not an organization",
    });
  });

  test("refuses a world's user entry for an organization", () => {
    const memory = new MemoryIngest();
    memory.account("acme", "Organization");
    assert.deepEqual(conflict(memory, { accounts: [{ source: "users[0]", login: "acme", type: "User" }] }), {
      field: "users[0]",
      message: "acme is an organization, not a user",
    });
  });

  test("refuses a repository forked from itself", () => {
    assert.deepEqual(
      conflict(new MemoryIngest(), { repos: [{ source: "repos[1]", fullName: "a/x", forkOf: "A/X" }] }),
      { field: "repos[1]", message: "a/x cannot be a fork of itself" },
    );
  });

  test("refuses a token of an unknown user, and a token another user holds", () => {
    const token = { source: "tokens[0]", hashedToken: "h", tokenLastEight: "12345678", scopes: [], note: null };
    assert.deepEqual(conflict(new MemoryIngest(), { tokens: [{ ...token, login: "ghost" }] }), {
      field: "tokens[0]",
      message: "no user ghost",
    });
    const memory = new MemoryIngest();
    memory.account("alice");
    memory.tokens.set("h", memory.account("bob"));
    assert.deepEqual(conflict(memory, { tokens: [{ ...token, login: "alice" }] }), {
      field: "tokens[0]",
      message: "the token belongs to another user",
    });
  });
});

describe("ingest plan: writes", () => {
  test("a fork joins its parent's network, and so does what was already forked from it", () => {
    const memory = new MemoryIngest();
    const a = memory.account("a");
    const root = memory.repo(a, "root");
    const fork = memory.repo(a, "fork");
    const forkOfFork = memory.repo(a, "fork2");
    apply(memory, {
      repos: [
        { source: "repos[0]", fullName: "a/fork2", forkOf: "a/fork" },
        { source: "repos[1]", fullName: "a/fork", forkOf: "a/root" },
      ],
    });
    assert.deepEqual(memory.asked("setParents")[0]!.pairs, [
      { a: forkOfFork, b: fork },
      { a: fork, b: root },
    ]);
    // fork2's network moved into fork's, and then fork's into root's: both end in root's.
    assert.deepEqual(memory.asked("moveNetworks")[0]!.pairs, [
      { a: forkOfFork, b: root },
      { a: fork, b: root },
    ]);
  });

  test("the last word on a collaborator wins", () => {
    const memory = new MemoryIngest();
    apply(memory, {
      collaborators: [
        { source: "c[0]", repo: "a/x", user: "bob" },
        { source: "c[1]", repo: "a/x", user: "bob", remove: true },
        { source: "c[2]", repo: "a/x", user: "carol" },
      ],
    });
    const ids = (op: "addCollaborators" | "removeCollaborators") =>
      memory.asked(op).flatMap((o) => o.pairs.map((p) => p.b));
    assert.deepEqual(ids("addCollaborators"), [memory.accounts.get("carol")!.id]);
    assert.deepEqual(ids("removeCollaborators"), [memory.accounts.get("bob")!.id]);
  });

  test("counts events already stored as skipped, and logs how far back the ingest reached", () => {
    const memory = new MemoryIngest();
    memory.storedEvents.add("1");
    const result = apply(memory, {
      events: [event("1", "a", "a/x", new Date(5000)), event("2", "a", "a/x", new Date(3000))],
    });
    assert.deepEqual([result.eventsAdded, result.eventsSkipped], [1, 1]);
    assert.deepEqual(memory.asked("raiseGeneration"), [
      { op: "raiseGeneration", oldestEvent: 3, oldestIssueEvent: null },
    ]);
    assert.equal(memory.ops.at(-1)!.op, "raiseGeneration", "the generation is raised last");
  });

  test("queues webhook deliveries of the events added and reports full hooks, unless webhooks are off", () => {
    const memory = new MemoryIngest();
    const a = memory.account("a");
    const repo = memory.repo(a, "x");
    memory.hooks = [
      { repoId: repo, hookId: 7, events: ["push"], queued: 0, installationId: null },
      { repoId: repo, hookId: 8, events: ["push"], queued: 1, installationId: null },
    ];
    const result = apply(memory, { events: [event("1", "a", "a/x")] }, { webhooks: { maxQueue: 1 } });
    assert.deepEqual(
      memory.queued.map((d) => d.hookId),
      [7],
    );
    assert.deepEqual(result.hooksFull, [8]);

    const off = new MemoryIngest();
    off.hooks = memory.hooks;
    const quiet = apply(off, { events: [event("2", "a", "a/x")] }, { webhooks: null });
    assert.deepEqual(off.asked("findHookTargets"), []);
    assert.equal(quiet.hooksFull, undefined);
  });
});
