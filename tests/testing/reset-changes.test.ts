/**
 * reset() and restore() undo what changed since the image (src/server/store/sqlite/state.ts, a held savepoint): whatever
 * mix of writes a test made (rows inserted, updated, deleted, cascading), every state table afterwards holds exactly
 * the rows it held at the image, checked table by table, for random sequences of actions (fast-check).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { startFeedgate, type Feedgate } from "../../src/testing/index.js";
import { stateTables as dump } from "../helpers/state-tables.js";

const WORLD = {
  users: [{ login: "alice", password: "alice-password" }, { login: "bob" }],
  repos: [{ full_name: "alice/hello" }],
  issues: [{ repo: "alice/hello", number: 1, title: "from the world", user: "alice", labels: ["bug"] }],
  events: Array.from({ length: 50 }, (_, i) => ({
    id: String(i + 1),
    type: "WatchEvent",
    actor: { login: "bob" },
    repo: { name: "alice/hello" },
    payload: { action: "started" },
    created_at: "2026-01-01T00:00:00Z",
  })),
};

/** Ids of the events ingested, each new: an event id is kept once. */
let ingested = 1_000;
type Action = (fg: Feedgate, token: string) => Promise<unknown>;
const json = (fg: Feedgate, token: string, method: string, path: string, body?: object) =>
  fg.fetch(`${fg.url}${path}`, {
    method,
    headers: { authorization: `token ${token}`, "content-type": "application/json" },
    body: body && JSON.stringify(body),
  });
const ACTIONS: Record<string, Action> = {
  openIssue: (fg, t) => json(fg, t, "POST", "/repos/alice/hello/issues", { title: "new", labels: ["bug", "fresh"] }),
  comment: (fg, t) => json(fg, t, "POST", "/repos/alice/hello/issues/1/comments", { body: "hi" }),
  closeIssue: (fg, t) => json(fg, t, "PATCH", "/repos/alice/hello/issues/1", { state: "closed" }),
  unlabel: (fg, t) => json(fg, t, "DELETE", "/repos/alice/hello/issues/1/labels/bug"),
  deleteLabel: (fg, t) => json(fg, t, "DELETE", "/repos/alice/hello/labels/bug"),
  star: (fg, t) => json(fg, t, "PUT", "/user/starred/alice/hello"),
  renameRepo: (fg, t) => json(fg, t, "PATCH", "/repos/alice/hello", { description: "changed" }),
  hook: (fg, t) =>
    json(fg, t, "POST", "/repos/alice/hello/hooks", { config: { url: "http://127.0.0.1:9/", content_type: "json" } }),
  // Three renames that swap two labels' names: putting the rows back one by one meets the unique name midway.
  swapLabels: async (fg, t) => {
    await json(fg, t, "POST", "/repos/alice/hello/labels", { name: "fresh", color: "00ff00" });
    for (const [from, to] of [
      ["bug", "swapping"],
      ["fresh", "bug"],
      ["swapping", "fresh"],
    ])
      await json(fg, t, "PATCH", `/repos/alice/hello/labels/${from}`, { new_name: to });
  },
  unstar: (fg, t) => json(fg, t, "DELETE", "/user/starred/alice/hello"),
  deleteRepo: (fg, t) => json(fg, t, "DELETE", "/repos/alice/hello"),
  token: (fg) => fg.token("bob"),
  ingest: (fg) =>
    fg.ingest([
      {
        id: String(++ingested),
        type: "ForkEvent",
        actor: { login: "bob" },
        repo: { name: "alice/hello" },
        payload: {},
      },
    ]),
};

describe("reset and restore after any writes", () => {
  let fg: Feedgate;
  let start: Record<string, unknown[]>;
  before(async () => {
    fg = await startFeedgate({ world: WORLD, now: "2026-02-01T00:00:00Z" });
    start = dump(fg);
  });
  after(() => fg.close());

  /** A test's writes: up to eight actions, each any of ACTIONS. */
  const writes = fc.array(fc.constantFrom(...Object.keys(ACTIONS)), { minLength: 1, maxLength: 8 });
  const write = async (names: string[]) => {
    const token = await fg.token("alice");
    for (const name of names) await ACTIONS[name]!(fg, token);
  };

  it("leave every state table as the image holds it", async () => {
    await fc.assert(
      fc.asyncProperty(writes, async (names) => {
        await write(names);
        const snapshot = await fg.snapshot();
        const atSnapshot = dump(fg);
        await write(names);
        await fg.restore(snapshot);
        assert.deepEqual(dump(fg), atSnapshot);
        await fg.reset();
        assert.deepEqual(dump(fg), start);
      }),
      { numRuns: 25 },
    );
  });

  it("leave every state table as the start held it, reset after reset", async () => {
    await fc.assert(
      fc.asyncProperty(writes, async (names) => {
        await write(names);
        await fg.reset();
        assert.deepEqual(dump(fg), start);
      }),
      { numRuns: 40 },
    );
  });
});
