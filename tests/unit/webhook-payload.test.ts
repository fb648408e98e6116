/**
 * A delivery's body is `{...payload, ...context, sender}` as JSON, whichever way it is made: the dispatcher splices the
 * parts' JSON (the repository's made once per run), and must give the same bytes as merging the objects would.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { ContextCache, PayloadBuilder, pushContext } from "../../src/server/webhooks/payload.js";
import type { Store } from "../../src/server/store/store.js";
import { userRow } from "../helpers/user-row.js";

const BASE = "http://feedgate.test";
const alice = userRow({ id: 7, login: "alice", wireId: 1007 });
const context = {
  repository: { id: 42, full_name: "acme/app", private: false },
  organization: { login: "acme", id: 9 },
};

/** A builder over a store of one actor and the given events, its repository objects fixed. */
function builder(events: Record<string, { type: string; payload?: unknown }>, reads: { users: number; repos: number }) {
  const store = {
    hooks: {
      eventSource: async (id: string) =>
        events[id] ? { body: JSON.stringify(events[id]), repoId: 42, actorId: 7 } : null,
    },
    users: {
      findById: async (id: number) => {
        reads.users++;
        return id === 7 ? alice : null;
      },
    },
  } as unknown as Store;
  return new (class extends PayloadBuilder {
    override async context(): Promise<Record<string, unknown>> {
      reads.repos++;
      return context;
    }
  })(store);
}

const sender = { login: "alice", id: 1007 };

describe("webhook payloads", () => {
  test("the body is the payload, then the repository and organization, then the sender, as merged objects give it", async () => {
    const reads = { users: 0, repos: 0 };
    const payloads = builder(
      { 1: { type: "PushEvent", payload: { ref: "refs/heads/main", head: "abc", "0": "first", commits: [] } } },
      reads,
    );
    const built = (await payloads.forEvent("1", BASE))!;
    const parsed = JSON.parse(built.body) as Record<string, unknown>;
    assert.equal(
      built.body,
      JSON.stringify({
        "0": "first",
        ref: "refs/heads/main",
        head: "abc",
        commits: [],
        after: "abc",
        // A push's repository in the push payload's shape (pushContext).
        ...pushContext(context),
        sender: parsed.sender,
      }),
    );
    assert.deepEqual(Object.keys(parsed), [
      "0",
      "ref",
      "head",
      "commits",
      "after",
      "repository",
      "organization",
      "sender",
    ]);
    assert.deepEqual(
      { login: (parsed.sender as typeof sender).login, id: (parsed.sender as typeof sender).id },
      sender,
    );
    assert.equal(built.repositoryId, 42);
  });

  test("a payload with a repository or sender of its own keeps the key in its place, with the value replaced", async () => {
    const payloads = builder(
      {
        1: {
          type: "IssuesEvent",
          payload: { action: "opened", repository: { id: 1 }, issue: { number: 3 }, sender: "x" },
        },
      },
      { users: 0, repos: 0 },
    );
    const built = (await payloads.forEvent("1", BASE))!;
    const parsed = JSON.parse(built.body) as Record<string, unknown>;
    assert.deepEqual(Object.keys(parsed), ["action", "repository", "issue", "sender", "organization"]);
    assert.deepEqual(parsed.repository, context.repository);
    assert.equal((parsed.sender as { login: string }).login, "alice");
    assert.equal(built.action, "opened");
    assert.equal(built.repositoryId, 42);
  });

  test("the deliveries of one run read the repository and the sender once", async () => {
    const reads = { users: 0, repos: 0 };
    const payloads = builder(
      { 1: { type: "WatchEvent", payload: { action: "started" } }, 2: { type: "WatchEvent", payload: {} } },
      reads,
    );
    const run = new ContextCache();
    const [one, two] = [(await payloads.forEvent("1", BASE, run))!, (await payloads.forEvent("2", BASE, run))!];
    assert.deepEqual(reads, { users: 1, repos: 1 });
    assert.equal(two.body, one.body.replace('"action":"started",', ""));
    assert.equal(two.action, null);
  });
});
