/**
 * Writes realistic GH Archive NDJSON of any size, plus the world file the load runner needs.
 *
 * Every event is one of the real sample's events (../shared/data/gharchive/2021-07-21-sample.ndjson) drawn
 * uniformly, so the type mix and the payload sizes are GH Archive's; its payload is kept verbatim, and only
 * the envelope is rewritten: id, actor, repo, org, public and created_at. Actors and repositories are drawn
 * from Zipf distributions (a few are very busy, most are quiet, as on GitHub). ForkEvent and MemberEvent
 * payloads name accounts and repositories the importer derives relations from, so those fields are rewritten
 * to generated ones too.
 *
 * Output is assembled in one reused buffer (envelopes encoded straight into it, payloads copied from bytes
 * encoded once; no JSON.stringify of whole events, no big intermediate strings) and written in large
 * synchronous chunks: memory stays constant and generation costs about 20 µs of CPU per event. Run alone: `npm run bench:generate -- --events N`.
 */
import { closeSync, existsSync, openSync, readFileSync, renameSync, statSync, writeFileSync, writeSync } from "node:fs";
import { createHash } from "node:crypto";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { pathToFileURL } from "node:url";
import { Population, populationFor, stemsFrom, type Owner } from "./population.js";
import { seededRandom, Zipf } from "./random.js";

export const SAMPLE = new URL("../../shared/data/gharchive/2021-07-21-sample.ndjson", import.meta.url).pathname;

/** Zipf exponent: 1 is the classic law; the busiest actor then does ~8% of all events, like GitHub's top bots. */
const ZIPF_EXPONENT = 1.0;
/** GitHub's public timeline runs at roughly 30-40 events a second; several share a second, so the id tie-break is used. */
const EVENTS_PER_SECOND = 35;
const START = Date.parse("2021-07-21T00:00:00Z") / 1000;
/** GH Archive's ids in July 2021 were around 17.2 billion. */
export const FIRST_EVENT_ID = 17_000_000_000;
/** Forks get new repository ids above every generated one. */
const FORK_ID_BASE = 900_000_000;
const CHUNK_BYTES = 8 * 1024 * 1024;

/** The received-feed user: follows and watches this many (the scenario). */
export const READER_FOLLOWS = 1000;
export const READER_WATCHES = 1000;

export interface GenerateOptions {
  events: number;
  seed: number;
  /** The NDJSON file to write (written to `<out>.partial` first, renamed when complete). */
  out: string;
  /**
   * Gzip it (GH Archive's own format, which feedgate import reads): about 6x less disk for the 10-million-event run,
   * at the price of compressing here and decompressing in the importer.
   */
  gzip?: boolean;
  /** The world file (users, organizations, tokens) to seed after the import. */
  world: string;
  sample?: string;
}

export interface Credentials {
  login: string;
  password: string;
  token?: string;
}

/** What was generated, for the load runner and the report. */
export interface Manifest {
  events: number;
  seed: number;
  /** Uncompressed NDJSON bytes. */
  bytes: number;
  gzip: boolean;
  seconds: number;
  population: ReturnType<typeof populationFor>;
  types: Record<string, number>;
  privateEvents: number;
  orgEvents: number;
  /** The busiest repository (rank 1; always public) and the busiest actor. */
  topRepo: string;
  topActor: string;
  /** Follows 1,000 accounts and watches 1,000 repositories; member of organizations owning private repositories. */
  reader: Credentials & { token: string };
  /** Only creates authorizations (POST /authorizations), so the reader's list stays small. */
  poster: Credentials;
}

interface Template {
  type: string;
  /** The payload's original text, reused verbatim, encoded once. */
  payload: Buffer;
  parsed: Record<string, unknown>;
}

interface SampleEvent {
  type: string;
  actor: { login: string };
  repo: { name: string };
  org?: { login: string };
  payload: Record<string, unknown>;
}

function loadSample(path: string): SampleEvent[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as SampleEvent);
}

/** Per-event rewrites for the payloads the importer reads relations from; every other payload is constant text. */
function rewritePayload(
  t: Template,
  ctx: { actor: number; repo: number; event: number; pop: Population; pick: () => number },
): Buffer | string {
  if (t.type === "ForkEvent") {
    const forkee = t.parsed.forkee as Record<string, unknown>;
    const owner = forkee.owner as Record<string, unknown>;
    const login = ctx.pop.actorLogin(ctx.actor);
    const name = ctx.pop.repoShortName(ctx.repo);
    return JSON.stringify({
      ...t.parsed,
      forkee: {
        ...forkee,
        id: FORK_ID_BASE + ctx.event,
        name,
        full_name: `${login}/${name}`,
        private: false,
        owner: { ...owner, login, id: ctx.pop.actorId(ctx.actor) },
      },
    });
  }
  if (t.type === "MemberEvent") {
    const member = t.parsed.member as Record<string, unknown>;
    const rank = ctx.pick();
    return JSON.stringify({
      ...t.parsed,
      member: { ...member, login: ctx.pop.actorLogin(rank), id: ctx.pop.actorId(rank) },
    });
  }
  return t.payload;
}

/** A template fits unless it would contradict the generated world. */
function fits(t: Template, owner: Owner, actor: number, isPrivate: boolean): boolean {
  if (t.type === "PublicEvent") return !isPrivate; // a private repository made public would stop being private
  if (t.type === "ForkEvent") return !(owner.kind === "user" && owner.rank === actor); // nobody forks into their own name
  return true;
}

/** A 40-hex token (GitHub's legacy shape, which feedgate accepts for fixtures), derived from the seed. */
const tokenFor = (seed: number, who: string) =>
  createHash("sha1").update(`feedgate-bench:${seed}:${who}`).digest("hex");

export async function generate(options: GenerateOptions): Promise<Manifest> {
  const started = process.hrtime.bigint();
  const sample = loadSample(options.sample ?? SAMPLE);
  const templates: Template[] = sample.map((e) => ({
    type: e.type,
    payload: Buffer.from(JSON.stringify(e.payload)),
    parsed: e.payload,
  }));
  const pop = new Population(
    populationFor(options.events),
    options.seed,
    stemsFrom(sample.map((e) => ({ actor: e.actor.login, org: e.org?.login ?? null, repo: e.repo.name }))),
  );
  const random = seededRandom(options.seed);
  const actors = new Zipf(pop.sizes.actors, ZIPF_EXPONENT);
  const repos = new Zipf(pop.sizes.repos, ZIPF_EXPONENT);

  const manifest: Manifest = {
    events: options.events,
    seed: options.seed,
    bytes: 0,
    gzip: Boolean(options.gzip),
    seconds: 0,
    population: pop.sizes,
    types: {},
    privateEvents: 0,
    orgEvents: 0,
    topRepo: pop.repoName(1),
    topActor: pop.actorLogin(1),
    reader: { login: "bench-reader", password: "bench-reader-password", token: tokenFor(options.seed, "reader") },
    poster: { login: "bench-poster", password: "bench-poster-password" },
  };

  // A regular file is written under a temporary name and renamed when complete, so an interrupted run never
  // leaves a short file that a later run would reuse; anything else (a pipe, /dev/null) is written in place.
  const direct = existsSync(options.out) && !statSync(options.out).isFile();
  const partial = direct ? options.out : `${options.out}.partial`;
  const fd = openSync(partial, "w");
  const out = Buffer.allocUnsafe(CHUNK_BYTES);
  let used = 0;
  const flush = () => {
    // Each chunk becomes one gzip member; concatenated members are one valid gzip stream (RFC 1952 2.2).
    const bytes = options.gzip ? gzipSync(out.subarray(0, used), { level: 1 }) : out.subarray(0, used);
    for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written, bytes.length - written);
    manifest.bytes += used;
    used = 0;
  };
  /** Appends text or bytes; a string is encoded straight into the buffer. */
  const put = (piece: string | Buffer) => {
    // Worst case of UTF-8 is 3 bytes per UTF-16 unit; flush first when that might not fit.
    const room = typeof piece === "string" ? piece.length * 3 : piece.length;
    if (used + room > out.length) flush();
    if (room > out.length) throw new Error("an event larger than the write buffer");
    used += typeof piece === "string" ? out.write(piece, used) : piece.copy(out, used);
  };

  let second = -1;
  let time = "";
  try {
    for (let i = 0; i < options.events; i += 1) {
      const actor = actors.sample(random);
      const repo = repos.sample(random);
      const owner = pop.repoOwner(repo);
      const isPrivate = pop.repoPrivate(repo);
      let t = templates[Math.floor(random() * templates.length)]!;
      while (!fits(t, owner, actor, isPrivate)) t = templates[Math.floor(random() * templates.length)]!;

      const s = START + Math.floor(i / EVENTS_PER_SECOND);
      if (s !== second) {
        second = s;
        time = new Date(s * 1000).toISOString().replace(".000Z", "Z");
      }
      const payload = rewritePayload(t, { actor, repo, event: i, pop, pick: () => actors.sample(random) });
      const org = owner.kind === "org" ? `,"org":${pop.orgJson(owner.index)}` : "";
      put(
        `{"id":"${FIRST_EVENT_ID + i}","type":"${t.type}","actor":${pop.actorJson(actor)},"repo":${pop.repoJson(repo)},"payload":`,
      );
      put(payload);
      put(`,"public":${!isPrivate},"created_at":"${time}"${org}}\n`);

      manifest.types[t.type] = (manifest.types[t.type] ?? 0) + 1;
      if (isPrivate) manifest.privateEvents += 1;
      if (org) manifest.orgEvents += 1;
    }
    flush();
  } finally {
    closeSync(fd);
  }
  if (!direct) renameSync(partial, options.out);
  writeFileSync(options.world, `${JSON.stringify(worldFor(pop, manifest, seededRandom(options.seed + 1)), null, 1)}\n`);
  manifest.seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return manifest;
}

/**
 * The world seeded after the import: the reader follows 1,000 actors and watches 1,000 repositories, belongs to
 * organizations that own private repositories and collaborates on private repositories of users, so its
 * received feed has private events to show and the visibility rules real work to do.
 *
 * Follows and watches are drawn with the same Zipf laws as activity (busier accounts are followed more), but
 * past the busiest 1,000 of each: in GH Archive those are bots, CI accounts and mirrors nobody follows, and
 * following them would make the received feed half of all events (a second global feed, not a dashboard).
 * As drawn, the received feed holds a few percent of all events (the report shows its size).
 */
function distinctPast(n: number, count: number, random: () => number): number[] {
  const skip = Math.min(1000, Math.floor(n / 10));
  return new Zipf(n - skip, ZIPF_EXPONENT)
    .distinct(Math.min(count, Math.floor((n - skip) / 2)), random)
    .map((r) => r + skip);
}

function worldFor(pop: Population, manifest: Manifest, random: () => number) {
  const follows = distinctPast(pop.sizes.actors, READER_FOLLOWS, random);
  const watches = distinctPast(pop.sizes.repos, READER_WATCHES, random);
  const orgs = new Set<number>();
  const collaborating: string[] = [];
  for (let rank = 1; rank <= pop.sizes.repos && (orgs.size < 5 || collaborating.length < 20); rank += 1) {
    if (!pop.repoPrivate(rank)) continue;
    const owner = pop.repoOwner(rank);
    if (owner.kind === "org" && orgs.size < 5) orgs.add(owner.index);
    if (owner.kind === "user" && collaborating.length < 20) collaborating.push(pop.repoName(rank));
  }
  const { reader, poster } = manifest;
  return {
    users: [
      {
        login: reader.login,
        password: reader.password,
        following: follows.map((r) => pop.actorLogin(r)),
        watching: watches.map((r) => pop.repoName(r)),
      },
      { login: poster.login, password: poster.password },
    ],
    orgs: [...orgs].map((index) => ({ login: pop.orgLogin(index), members: [reader.login] })),
    repos: collaborating.map((full_name) => ({ full_name, collaborators: [reader.login] })),
    tokens: [{ user: reader.login, token: reader.token, scopes: ["repo", "read:org", "user"], note: "feedgate bench" }],
  };
}

/** Average bytes of a generated line (the sample's mean plus the longer envelope), for disk-space checks. */
export function averageLineBytes(sample = SAMPLE): number {
  const text = readFileSync(sample, "utf8");
  return Math.ceil(Buffer.byteLength(text) / text.split("\n").filter((l) => l.trim() !== "").length);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      events: { type: "string", default: "1000000" },
      seed: { type: "string", default: "1" },
      out: { type: "string" },
      world: { type: "string" },
      gzip: { type: "boolean" },
    },
  });
  const events = Number(values.events);
  if (!Number.isInteger(events) || events < 1)
    throw new Error(`--events must be a positive integer, got ${values.events}`);
  const out = values.out ?? `events-${events}.ndjson${values.gzip ? ".gz" : ""}`;
  const manifest = await generate({
    events,
    seed: Number(values.seed),
    out,
    gzip: values.gzip,
    world: values.world ?? `${out.replace(/\.ndjson(\.gz)?$/, "")}.world.json`,
  });
  process.stdout.write(`${JSON.stringify(manifest, null, 2)}\n`);
  process.stdout.write(
    `wrote ${events} events (${(manifest.bytes / 1e6).toFixed(0)} MB) to ${out} in ${manifest.seconds.toFixed(1)} s ` +
      `(${Math.round(events / manifest.seconds)} events/s)\n`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
}
