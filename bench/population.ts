/**
 * The generated world's accounts and repositories, as pure functions of a rank and the seed. Rank 1 is the
 * most active actor / busiest repository (the Zipf draws in generate.ts pick ranks); everything else about an
 * entity (login, id, owner, organization, privacy) is hashed from its rank, so nothing is stored per entity
 * and the load runner can name "the busiest repository" without reading the data.
 */
import { hash32 } from "./random.js";

/** Share of repositories owned by an organization (their events carry `org`, as GH Archive's do). */
const ORG_OWNED_PERCENT = 25;
/** Share of repositories that are private (their events are `public: false`); GH Archive itself has none. */
const PRIVATE_PERCENT = 5;
/** The busiest repositories stay public, so the public feeds the benchmark reads are the large ones. */
const ALWAYS_PUBLIC_RANKS = 100;

/** Id ranges far apart, so actors, organizations and repositories never share a GitHub id. */
const ACTOR_ID_BASE = 10_000_000;
const ORG_ID_BASE = 90_000_000;
const REPO_ID_BASE = 100_000_000;

export interface PopulationSizes {
  actors: number;
  repos: number;
  orgs: number;
}

/**
 * How many accounts and repositories a file of `events` draws from. A real GH Archive day has about 3M events
 * from ~0.7M actors in ~1M repositories; a quarter and a third of the event count keep that proportion.
 */
export function populationFor(events: number): PopulationSizes {
  const actors = Math.max(1000, Math.round(events / 4));
  return { actors, repos: Math.max(1000, Math.round(events / 3)), orgs: Math.max(20, Math.round(actors / 50)) };
}

/** Name stems taken from the real sample, so generated logins and repository names look like GitHub's. */
export interface Stems {
  actors: string[];
  orgs: string[];
  repos: string[];
}

export type Owner = { kind: "user"; rank: number } | { kind: "org"; index: number };

export class Population {
  constructor(
    readonly sizes: PopulationSizes,
    private readonly seed: number,
    private readonly stems: Stems,
  ) {}

  private pick(list: string[], key: number, salt: number): string {
    return list[hash32(key, this.seed + salt) % list.length]!;
  }

  // Stems never end in a digit, so `stem-123` (user) and `stem-o123` (organization) cannot collide.
  actorLogin(rank: number): string {
    return `${this.pick(this.stems.actors, rank, 1)}-${rank}`;
  }

  actorId(rank: number): number {
    return ACTOR_ID_BASE + rank;
  }

  /** The actor object exactly as GH Archive writes it (key order included). */
  actorJson(rank: number): string {
    const login = this.actorLogin(rank);
    const id = this.actorId(rank);
    return (
      `{"id":${id},"login":"${login}","display_login":"${login}","gravatar_id":"",` +
      `"url":"https://api.github.com/users/${login}","avatar_url":"https://avatars.githubusercontent.com/u/${id}?"}`
    );
  }

  orgLogin(index: number): string {
    return `${this.pick(this.stems.orgs, index, 2)}-o${index}`;
  }

  orgJson(index: number): string {
    const login = this.orgLogin(index);
    const id = ORG_ID_BASE + index;
    return (
      `{"id":${id},"login":"${login}","gravatar_id":"","url":"https://api.github.com/orgs/${login}",` +
      `"avatar_url":"https://avatars.githubusercontent.com/u/${id}?"}`
    );
  }

  /** Owners are spread uniformly: a busy repository is as likely to belong to a quiet account as to a busy one. */
  repoOwner(rank: number): Owner {
    const h = hash32(rank, this.seed + 3);
    if (h % 100 < ORG_OWNED_PERCENT) return { kind: "org", index: 1 + (hash32(rank, this.seed + 4) % this.sizes.orgs) };
    return { kind: "user", rank: 1 + (hash32(rank, this.seed + 5) % this.sizes.actors) };
  }

  ownerLogin(owner: Owner): string {
    return owner.kind === "org" ? this.orgLogin(owner.index) : this.actorLogin(owner.rank);
  }

  /** The short name: unique by rank, so `owner/name` is unique whatever the owner. */
  repoShortName(rank: number): string {
    return `${this.pick(this.stems.repos, rank, 6)}-${rank}`;
  }

  repoName(rank: number): string {
    return `${this.ownerLogin(this.repoOwner(rank))}/${this.repoShortName(rank)}`;
  }

  repoId(rank: number): number {
    return REPO_ID_BASE + rank;
  }

  repoJson(rank: number): string {
    const name = this.repoName(rank);
    return `{"id":${this.repoId(rank)},"name":"${name}","url":"https://api.github.com/repos/${name}"}`;
  }

  repoPrivate(rank: number): boolean {
    return rank > ALWAYS_PUBLIC_RANKS && hash32(rank, this.seed + 7) % 100 < PRIVATE_PERCENT;
  }
}

/** Logins and names from the sample that are safe in URL paths and do not end in a digit (see actorLogin). */
export function stemsFrom(events: { actor: string; org: string | null; repo: string }[]): Stems {
  const clean = (values: (string | null)[], pattern: RegExp) =>
    [...new Set(values.filter((v): v is string => v !== null && pattern.test(v) && !/[0-9-]$/.test(v)))].sort();
  const stems = {
    actors: clean(
      events.map((e) => e.actor),
      /^[A-Za-z0-9-]+$/,
    ),
    orgs: clean(
      events.map((e) => e.org),
      /^[A-Za-z0-9-]+$/,
    ),
    repos: clean(
      events.map((e) => e.repo.split("/")[1] ?? null),
      /^[A-Za-z0-9_-]+$/,
    ),
  };
  for (const [kind, list] of Object.entries(stems))
    if (list.length === 0) throw new Error(`the sample has no usable ${kind} names`);
  return stems;
}
