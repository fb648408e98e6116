/**
 * The scene of the collaborator tests: the client world (alice owns alice/hello, alice/secret and the organization
 * acme, of which olga is a member; bob owns bob/tools; zoe is no one's collaborator), a token for each user, a hook on
 * alice/hello and one on acme/site delivering to real receivers, and what a refused write must leave as it was.
 */
import type { LightMyRequestResponse } from "fastify";
import { startTestApp, type TestApp } from "./test-app.js";
import { ALICE_TOKEN, BOB_TOKEN, WORLD } from "./client-world.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { hookedReceiver, type Receiver } from "./webhook-receiver.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read as asserted
export type Json = Record<string, any>;

export const OLGA_TOKEN = "01ea000000000000000000000000000000000001";
export const ZOE_TOKEN = "2e0e000000000000000000000000000000000002";
export { ALICE_TOKEN, BOB_TOKEN };

export const COLLABORATOR_WORLD = {
  ...WORLD,
  tokens: [
    ...WORLD.tokens,
    { user: "olga", token: OLGA_TOKEN, scopes: ["repo"], note: "olga" },
    { user: "zoe", token: ZOE_TOKEN, scopes: ["repo"], note: "zoe" },
  ],
};

export interface Delivery {
  event: string;
  action: string | undefined;
  body: Json;
}

export interface CollaboratorScene {
  t: TestApp;
  send(
    method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
    url: string,
    token?: string | null,
    payload?: unknown,
  ): Promise<LightMyRequestResponse>;
  /** GET as `token`, the answer's JSON (an object or a list). */
  json(url: string, token?: string | null): Promise<Json & Json[]>;
  /** The deliveries of the hook on `repo` (alice/hello or acme/site), once there are `count`. */
  delivered(repo: "alice/hello" | "acme/site", count: number): Promise<Delivery[]>;
  /** What a write can leave behind, as one string: compare it before and after a refused write. */
  written(): Promise<string>;
  close(): Promise<void>;
}

export async function collaboratorScene(): Promise<CollaboratorScene> {
  const t = await startTestApp();
  await new IngestService(t.store, t.clock.now).seedWorld(COLLABORATOR_WORLD, { baseDir: undefined });
  const hooks: Record<string, Receiver> = {
    "alice/hello": await hookedReceiver(t, "alice/hello"),
    "acme/site": await hookedReceiver(t, "acme/site"),
  };
  const send: CollaboratorScene["send"] = (method, url, token = ALICE_TOKEN, payload) =>
    t.app.inject({
      method,
      url,
      headers: token === null ? {} : { authorization: `token ${token}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const json = async (url: string, token: string | null = ALICE_TOKEN) =>
    (await send("GET", url, token)).json() as Json & Json[];
  const window = { limit: 100, offset: 0 };
  return {
    t,
    send,
    json,
    async delivered(repo, count) {
      await hooks[repo]!.until(count);
      return hooks[repo]!.received.map((r) => {
        const body = JSON.parse(r.body) as Json;
        return { event: String(r.headers["x-github-event"]), action: body.action as string | undefined, body };
      });
    },
    async written() {
      const parts: unknown[] = [];
      for (const name of ["alice/hello", "alice/secret", "acme/site", "bob/tools"]) {
        const [owner, repoName] = name.split("/") as [string, string];
        const repo = (await t.store.directory.findRepo(owner, repoName))!;
        parts.push(await t.store.collaborators.list(repo.id, { affiliation: "all", minimum: null }, window));
        parts.push(await t.store.collaborators.repositoryInvitations(repo.id, window));
        parts.push((await json(`/repos/${name}/events?per_page=100`)).length);
      }
      parts.push(hooks["alice/hello"]!.received.length, hooks["acme/site"]!.received.length);
      return JSON.stringify(parts);
    },
    async close() {
      await t.close();
      for (const hook of Object.values(hooks)) await hook.close();
    },
  };
}
