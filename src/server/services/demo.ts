/**
 * The demo `npm start` loads into a fresh database, so a newcomer can curl at once: the demo account
 * (its password and token are random and printed once; nothing else ever shows them) and the demo world
 * in `demo/`: follows, watches, organizations, private repositories and 800 real GH Archive events.
 */
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { dirname } from "node:path";
import type { Store } from "../store/store.js";
import { AuthorizationService } from "./authorizations.js";
import { IngestService } from "./ingest.js";
import { createAccount } from "./users.js";
import { isoSeconds } from "../convert/time.js";

/** The same relative place from src/server/services and dist/server/services. */
export const DEMO_WORLD = fileURLToPath(new URL("../../../demo/world.json", import.meta.url));

export const DEMO_LOGIN = "demo";
/** The demo token's scopes; also those of the new token `serve --demo` tells how to issue on a later start. */
export const DEMO_SCOPES = ["repo", "user", "read:org"];

export interface DemoCredentials {
  login: string;
  password: string;
  token: string;
}

/** The parts of demo/world.json that carry times. */
interface DemoWorld {
  events?: { created_at: string }[];
  issue_events?: { created_at: string }[];
  [key: string]: unknown;
}

/**
 * The demo's own story (the world file's hand-written events and issue events) moved to end a minute before
 * `now`, its spacing kept: a newcomer's feeds then show something recent, and `--feed-max-age 30d` (GitHub's limit)
 * still shows it. The 800 GH Archive events in `events_files` keep their real 2021 times: they are history.
 */
export function restamped(world: DemoWorld, now: Date): DemoWorld {
  const stamped = [...(world.events ?? []), ...(world.issue_events ?? [])];
  if (stamped.length === 0) return world;
  const latest = Math.max(...stamped.map((entry) => Date.parse(entry.created_at)));
  const shift = now.getTime() - 60_000 - latest;
  const moved = <T extends { created_at: string }>(entry: T): T => ({
    ...entry,
    created_at: isoSeconds(new Date(Date.parse(entry.created_at) + shift)),
  });
  return { ...world, events: world.events?.map(moved), issue_events: world.issue_events?.map(moved) };
}

/** Creates the demo account and world when the database has no users yet; null when it already had some. */
export async function ensureDemoAccount(store: Store, clock: () => Date): Promise<DemoCredentials | null> {
  if ((await store.users.count()) > 0) return null;
  const password = randomBytes(12).toString("base64url");
  const user = await createAccount(store, { login: DEMO_LOGIN, password });
  const { token } = await new AuthorizationService(store, clock).issue(user, {
    scopes: DEMO_SCOPES,
    note: "demo token",
    noteUrl: null,
    fingerprint: null,
  });
  const world = restamped(JSON.parse(await readFile(DEMO_WORLD, "utf8")) as DemoWorld, clock());
  await new IngestService(store, clock).seedWorld(world, { baseDir: dirname(DEMO_WORLD) });
  return { login: DEMO_LOGIN, password, token };
}
