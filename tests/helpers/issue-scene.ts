/**
 * The scene of the issue action tests (labels, milestones, assignees): the client world with zoe a collaborator on
 * alice/hello, a hook on alice/hello subscribed to everything and delivering to a real receiver, and what a refused
 * write must leave as it was.
 */
import { startTestApp, type TestApp } from "./test-app.js";
import { ALICE_TOKEN, WORLD } from "./client-world.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { hookedReceiver } from "./webhook-receiver.js";
import type { LightMyRequestResponse } from "fastify";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read as asserted
export type Json = Record<string, any>;

/** zoe's token with `repo`: a collaborator on alice/hello, so she pushes there. */
export const ZOE_TOKEN = "2e0e000000000000000000000000000000000001";

export const ISSUE_WORLD = {
  ...WORLD,
  repos: WORLD.repos.map((r) => (r.full_name === "alice/hello" ? { ...r, collaborators: ["zoe"] } : r)),
  tokens: [...WORLD.tokens, { user: "zoe", token: ZOE_TOKEN, scopes: ["repo"], note: "zoe" }],
};

export interface Delivery {
  event: string;
  action: string | undefined;
  body: Json;
}

export interface IssueScene {
  t: TestApp;
  send(
    method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
    url: string,
    token?: string | null,
    payload?: unknown,
  ): Promise<LightMyRequestResponse>;
  /** Every delivery the hook received, once there are `count` of them, in the order they came. */
  delivered(count: number): Promise<Delivery[]>;
  /** How many deliveries have come so far. */
  deliveries(): number;
  /** What a write on alice/hello can leave behind, as one string: compare it before and after a refused write. */
  written(): Promise<string>;
  close(): Promise<void>;
}

/** @param config the app's settings beyond the test defaults (`numericIds`, for GitHub's integer ids). */
export async function issueScene(config: Parameters<typeof startTestApp>[0] = {}): Promise<IssueScene> {
  const t = await startTestApp(config);
  await new IngestService(t.store, t.clock.now).seedWorld(ISSUE_WORLD, { baseDir: undefined });
  const hook = await hookedReceiver(t, "alice/hello");
  const repo = (await t.store.directory.findRepo("alice", "hello"))!;
  const window = { limit: 100, offset: 0 };
  return {
    t,
    send: (method, url, token = ALICE_TOKEN, payload) =>
      t.app.inject({
        method,
        url,
        headers: token === null ? {} : { authorization: `token ${token}` },
        ...(payload === undefined ? {} : { payload: payload as object }),
      }),
    async delivered(count) {
      await hook.until(count);
      return hook.received.map((r) => {
        const body = JSON.parse(r.body) as Json;
        return { event: String(r.headers["x-github-event"]), action: body.action as string | undefined, body };
      });
    },
    deliveries: () => hook.received.length,
    async written() {
      const all = { repoId: repo.id, state: "all", sort: "created", direction: "asc" } as const;
      const [issues, labels, milestones, events, feed] = await Promise.all([
        t.store.issues.page(all, window),
        t.store.labels.page(repo.id, window),
        t.store.milestones.page({ repoId: repo.id, state: "all", sort: "due_on", direction: "asc" }, window),
        t.store.events.issueFeed(repo.id, { limit: 100, offset: 0, notBefore: null }),
        t.app.inject({ method: "GET", url: "/repos/alice/hello/events?per_page=100" }),
      ]);
      const ids = issues.rows.map((i) => i.id);
      const [onIssues, assignees] = await Promise.all([t.store.issues.labelsOf(ids), t.store.issues.assigneesOf(ids)]);
      return JSON.stringify([
        issues,
        labels,
        milestones,
        [...onIssues],
        [...assignees],
        events.total,
        JSON.parse(feed.body).length,
        hook.received.length,
      ]);
    },
    async close() {
      await t.close();
      await hook.close();
    },
  };
}
