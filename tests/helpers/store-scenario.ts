/**
 * The store contract's scenario: a small world with every relation a feed depends on, and generated events with
 * tied times, ids of different lengths (so numeric and text order differ), private repositories and repository-less
 * events; with a reference model, written here in plain TypeScript, of which events each feed serves to whom.
 */
import type { EventScope, FeedPage, IngestBatch, Store, Visibility } from "../../src/server/store/store.js";
import { worldBatch } from "../../src/server/services/world.js";
import { event } from "./events.js";

export const USERS = ["alice", "bob", "carol", "dave", "erin", "zed"];
export const ORGS: Record<string, string[]> = { acme: ["alice", "carol"], umbrella: ["dave"] };
export interface RepoSpec {
  full_name: string;
  private?: boolean;
  fork_of?: string;
  collaborators?: string[];
}
export const REPOS: RepoSpec[] = [
  { full_name: "alice/pub" },
  { full_name: "alice/priv", private: true, collaborators: ["bob"] },
  { full_name: "acme/widgets" },
  { full_name: "acme/secret", private: true },
  { full_name: "bob/fork", fork_of: "alice/pub" },
  { full_name: "dave/fork2", fork_of: "bob/fork" },
  { full_name: "dave/solo" },
  { full_name: "umbrella/labs", private: true, collaborators: ["erin"] },
];
export const FOLLOWS: Record<string, string[]> = {
  alice: ["carol"],
  bob: ["alice"],
  carol: ["dave"],
  dave: ["bob"],
  erin: ["alice", "dave"],
};
export const WATCHES: Record<string, string[]> = {
  alice: ["dave/solo"],
  bob: ["acme/widgets"],
  carol: ["acme/secret"],
  erin: ["alice/priv", "umbrella/labs"],
};

export interface ModelEvent {
  id: string;
  actor: string;
  repo: string | null;
  org: string | null;
  public: boolean;
  time: number;
}
export interface ModelIssueEvent {
  id: string;
  repo: string;
  actor: string | null;
  time: number;
}

export const BASE = Date.UTC(2024, 0, 10, 12, 0, 0) / 1000;
export const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace(".000Z", "Z");

/** A deterministic generator, so both drivers (and every run) see the same events. */
function random(seed: number) {
  let state = seed;
  return (n: number) => {
    // mulberry32
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

export const repoSpec = (name: string) => REPOS.find((r) => r.full_name === name)!;
export const ownerOf = (repo: string) => repo.slice(0, repo.indexOf("/"));

function generateEvents(): ModelEvent[] {
  const next = random(42);
  const events: ModelEvent[] = [];
  const used = new Set<string>();
  for (let i = 0; i < 90; i++) {
    let id: string;
    do id = String(1 + next(10 ** (2 + (i % 9))));
    while (used.has(id));
    used.add(id);
    const actor = USERS[next(USERS.length - 1)]!; // zed never acts
    const time = BASE + next(30) * 60; // 30 distinct minutes for 90 events: many ties
    if (i % 10 === 9) {
      // About no repository (GitHub's 2012 GistEvent / TeamAddEvent): private ones belong to an organization.
      const isPublic = i % 20 === 9;
      events.push({
        id,
        actor,
        repo: null,
        org: isPublic ? null : Object.keys(ORGS)[next(2)]!,
        public: isPublic,
        time,
      });
      continue;
    }
    const repo = REPOS[next(REPOS.length)]!.full_name;
    const owner = ownerOf(repo);
    // GitHub names the owning organization; a few events name one of a user's repository too.
    const org = owner in ORGS ? owner : i % 11 === 0 ? "umbrella" : null;
    events.push({ id, actor, repo, org, public: !repoSpec(repo).private, time });
  }
  return events;
}

function generateIssueEvents(): ModelIssueEvent[] {
  const next = random(7);
  return Array.from({ length: 24 }, (_, i) => ({
    id: String(500 + next(100000) * 24 + i),
    repo: REPOS[i % REPOS.length]!.full_name,
    actor: i % 5 === 4 ? null : USERS[next(5)]!,
    time: BASE + next(6) * 60,
  }));
}

export const EVENTS = generateEvents();
export const ISSUE_EVENTS = generateIssueEvents();

/** The model's event as the world file gives it. */
export function worldEvent(e: ModelEvent) {
  return event(
    e.id,
    e.repo === null ? (e.public ? "GistEvent" : "TeamAddEvent") : "PushEvent",
    e.actor,
    e.repo ?? "/",
    {
      payload: {},
      public: e.public,
      created_at: iso(e.time),
      ...(e.org === null ? {} : { org: { login: e.org } }),
    },
  );
}

/** One complete envelope: stored verbatim, and it gives erin and dave/solo GitHub's ids. */
export const COMPLETE_EVENT = {
  id: "77",
  type: "IssuesEvent",
  actor: {
    id: 9001,
    login: "erin",
    gravatar_id: "",
    url: "https://api.github.com/users/erin",
    avatar_url: "https://avatars.githubusercontent.com/u/9001?",
  },
  repo: { id: 7001, name: "dave/solo", url: "https://api.github.com/repos/dave/solo" },
  payload: { action: "opened", issue: { number: 1 } },
  public: true,
  created_at: iso(BASE + 45 * 60),
};
export const COMPLETE_MODEL: ModelEvent = {
  id: "77",
  actor: "erin",
  repo: "dave/solo",
  org: null,
  public: true,
  time: BASE + 45 * 60,
};
export const ALL_EVENTS = [...EVENTS, COMPLETE_MODEL];

export const WORLD = {
  users: USERS.map((login) => ({
    login,
    ...(login === "erin" ? {} : { password: `${login}-password` }),
    ...(FOLLOWS[login] ? { following: FOLLOWS[login] } : {}),
    ...(WATCHES[login] ? { watching: WATCHES[login] } : {}),
  })),
  orgs: Object.entries(ORGS).map(([login, members]) => ({ login, members })),
  repos: REPOS,
  tokens: [
    { user: "alice", token: "0123456789abcdef0123456789abcdef01234567", scopes: ["repo", "user"], note: "seeded" },
  ],
  events: [...EVENTS.map(worldEvent), COMPLETE_EVENT],
  issue_events: ISSUE_EVENTS.map((e) => ({
    repo: e.repo,
    id: e.id,
    event: "closed",
    actor: e.actor === null ? null : { login: e.actor },
    created_at: iso(e.time),
    issue: { title: `issue ${e.id}`, number: 1, state: "closed" },
  })),
};

/** The world's batch, built once: both drivers (and both applies) get the very same entries and hashes. */
let worldBatchOnce: Promise<IngestBatch> | undefined;
export async function theWorld(store: Store): Promise<IngestBatch> {
  worldBatchOnce ??= worldBatch(store, WORLD, { baseDir: undefined });
  return worldBatchOnce;
}

// The reference model of who sees what.
export const networkRoot = (repo: string): string => {
  const parent = repoSpec(repo).fork_of;
  return parent ? networkRoot(parent) : repo;
};
export const canRead = (user: string, repo: string) => {
  const owner = ownerOf(repo);
  return owner === user || (repoSpec(repo).collaborators ?? []).includes(user) || (ORGS[owner] ?? []).includes(user);
};

export type ModelScope =
  | { kind: "all" }
  | { kind: "repo"; repo: string }
  | { kind: "network"; root: string }
  | { kind: "org"; org: string }
  | { kind: "actor"; actor: string }
  | { kind: "received"; user: string };
export type ModelVisibility = { kind: "public" } | { kind: "all" } | { kind: "readable-by"; user: string };

export function inScope(e: ModelEvent, scope: ModelScope): boolean {
  switch (scope.kind) {
    case "all":
      return true;
    case "repo":
      return e.repo === scope.repo;
    case "network":
      return e.repo !== null && networkRoot(e.repo) === scope.root;
    case "org":
      return e.org === scope.org || (e.repo !== null && ownerOf(e.repo) === scope.org);
    case "actor":
      return e.actor === scope.actor;
    case "received":
      return (
        (FOLLOWS[scope.user] ?? []).includes(e.actor) ||
        (e.repo !== null && (WATCHES[scope.user] ?? []).includes(e.repo))
      );
  }
}

export function visible(e: ModelEvent, visibility: ModelVisibility): boolean {
  if (visibility.kind === "all" || e.public) return true;
  if (visibility.kind === "public") return false;
  if (e.repo !== null) return canRead(visibility.user, e.repo);
  return e.org !== null && (ORGS[e.org] ?? []).includes(visibility.user);
}

/** Newest first; equal times by descending id, compared as numbers (they are 64-bit integers in both stores). */
export const newestFirst = (a: { time: number; id: string }, b: { time: number; id: string }) =>
  b.time - a.time || (BigInt(b.id) > BigInt(a.id) ? 1 : BigInt(b.id) < BigInt(a.id) ? -1 : 0);

export const SCOPES: ModelScope[] = [
  { kind: "all" },
  ...REPOS.map((r) => ({ kind: "repo", repo: r.full_name }) as const),
  ...[...new Set(REPOS.map((r) => networkRoot(r.full_name)))].map((root) => ({ kind: "network", root }) as const),
  ...Object.keys(ORGS).map((org) => ({ kind: "org", org }) as const),
  ...USERS.map((actor) => ({ kind: "actor", actor }) as const),
  ...USERS.map((user) => ({ kind: "received", user }) as const),
];
export const VISIBILITIES: ModelVisibility[] = [
  { kind: "public" },
  { kind: "all" },
  ...USERS.map((user) => ({ kind: "readable-by", user }) as const),
];

export const label = (scope: ModelScope, visibility: ModelVisibility) =>
  `${JSON.stringify(scope)} seen as ${JSON.stringify(visibility)}`;

/** Turns model names into the store's row ids. */
export async function resolver(store: Store) {
  const userId = async (login: string) => (await store.users.findByLogin(login))!.id;
  const repo = async (name: string) =>
    (await store.directory.findRepo(ownerOf(name), name.slice(name.indexOf("/") + 1)))!;
  return {
    userId,
    repo,
    async scope(s: ModelScope): Promise<EventScope> {
      switch (s.kind) {
        case "all":
          return { kind: "all" };
        case "repo":
          return { kind: "repo", repoId: (await repo(s.repo)).id };
        case "network":
          return { kind: "network", networkId: (await repo(s.root)).networkId };
        case "org":
          return { kind: "org", orgId: await userId(s.org) };
        case "actor":
          return { kind: "actor", actorId: await userId(s.actor) };
        case "received":
          return { kind: "received", userId: await userId(s.user) };
      }
    },
    async visibility(v: ModelVisibility): Promise<Visibility> {
      return v.kind === "readable-by" ? { kind: "readable-by", userId: await userId(v.user) } : v;
    },
  };
}

export const pageIds = (page: FeedPage) => page.rows.map((row) => (JSON.parse(row.body) as { id: string }).id);
export const ALL = { limit: 1000, offset: 0, notBefore: null };
