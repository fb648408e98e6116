/**
 * `startFeedgate()`: feedgate as a test double, in this process. A real server (every route, header and rule of the
 * one `feedgate serve` runs) on a database in memory, started in milliseconds, with its clock, its faults, a webhook
 * receiver and snapshots under the test's control.
 */
import type { FastifyInstance } from "fastify";
import { Client, VERSION } from "../client/index.js";
import { normalize } from "../api/scopes.js";
import { startInstance } from "../server/shared-app.js";
import { ManualClock } from "../server/clock.js";
import { SecretBox } from "../server/webhooks/secret-box.js";
import { loadConfig, LOWEST_PASSWORD_COST, type ConfigInput } from "../server/config.js";
import { MemoryWindowCounters } from "../server/counters/counters.js";
import type { Fault, FaultList } from "../server/services/faults.js";
import { FineGrainedTokenService } from "../server/services/fine-grained-tokens.js";
import { isPermissionName, PERMISSIONS, type GrantedPermissions, type PermissionGroup } from "../api/permissions.js";
import { AuthorizationService } from "../server/services/authorizations.js";
import { hashPassword, passwordCost, setPasswordCost } from "../server/services/credentials.js";
import { createHash } from "node:crypto";
import { IngestService } from "../server/services/ingest.js";
import type { TestControls } from "../server/services/test-controls.js";
import { SqliteStore } from "../server/store/sqlite/sqlite-store.js";
import type { IngestResult, Store } from "../server/store/store.js";
import { inProcessFetch, type Fetch } from "./in-process-fetch.js";
import { interceptFetch, type Interception } from "./intercept.js";
import { startReceiver, type Receiver } from "./receiver.js";
import { readWorldFile } from "../cli/world-file.js";
import { oauthHelpers, type OAuthHelpers } from "./oauth.js";
import { registerTestApp, type AppOptions, type TestApp } from "./apps.js";
import { park, parkingKey, takeParked } from "./parked-stores.js";

export interface FeedgateOptions {
  /** A world document (users, orgs, repos, tokens, events, as `feedgate seed` reads it), or the path of one. */
  world?: object | string;
  /** Where the clock stands, still, until the test moves it; without it the clock runs with the real time. */
  now?: Date | string;
  /** The port to listen on; a free one by default. */
  port?: number;
  /**
   * Any other setting of `feedgate serve`, by its option name (`{ numericIds: true, rateLimitAnonymous: 10 }`).
   * `passwordCost` is the lowest (4) unless given: a world's passwords are hashed at each start, and at serve's 15
   * each would take tens of milliseconds; a hash verifies whatever the cost it was made at.
   */
  settings?: ConfigInput;
}

export interface Snapshot {
  readonly id: string;
}

export interface Faults {
  add(fault: Parameters<FaultList["add"]>[0] & object): Fault;
  secondaryRateLimit(options: { path: string; method?: string; times?: number; retryAfter?: number }): Fault;
  unavailable(options: { path: string; method?: string; times?: number; status?: number }): Fault;
  list(): Fault[];
  clear(): void;
}

/** `oauthApp()`, `authorize()` and `approveDevice()` come from ./oauth.ts. */
export interface Feedgate extends AsyncDisposable, OAuthHelpers {
  /** `http://127.0.0.1:PORT`: a real socket, for any client in any language. */
  readonly url: string;
  /** A fetch answered in this process, without a socket. */
  readonly fetch: Fetch;
  /** The SDK (`feedgate/client`), bound to `url`. */
  readonly client: Client;
  readonly clock: Pick<ManualClock, "now" | "set" | "advance">;
  readonly faults: Faults;
  /** A token of `login` (made an account when there is none) with `scopes` (by default repo, admin hooks, read:org, user). */
  token(login: string, scopes?: string[]): Promise<string>;
  /**
   * A fine-grained token of `login` (an existing account), limited as the API's rules say (docs/api.md): to `owner`
   * (default: the user), its `repositories` (`"public"`, the default, `"all"`, or full names) and `permissions`.
   */
  fineGrainedToken(login: string, grant?: FineGrainedTokenOptions): Promise<string>;
  /**
   * Registers a GitHub App (docs/apps-and-sign-in.md): its ids, its private key, and `install()`. Issue 44 named it
   * `app()`, which is the Fastify app here already.
   */
  githubApp(options: AppOptions): Promise<TestApp>;
  /** Ingests events as `POST /admin/events` does: webhooks are queued and streams told. */
  ingest(events: object[]): Promise<IngestResult>;
  /**
   * A commit of files (text; null deletes one) on a branch of `repo` (`owner/name`; the default branch when none is
   * named), pushed as `as` (the owner by default) would push it: its PushEvent (or the branch's CreateEvent) and its
   * push webhook, as the contents API makes them. Returns the commit's SHA-1, git's own.
   */
  commit(
    repo: string,
    change: { files: Record<string, string | null>; branch?: string; message?: string; as?: string },
  ): Promise<{ sha: string; branch: string }>;
  /** A webhook receiver on 127.0.0.1; closed with the double. */
  receiver(options?: { secret?: string }): Promise<Receiver>;
  snapshot(): Promise<Snapshot>;
  /** Puts the database back as `snapshot` took it. */
  restore(snapshot: Snapshot): Promise<void>;
  /** Back to the start: the world as loaded, the clock, no faults, empty rate-limit windows, no deliveries recorded. */
  reset(): Promise<void>;
  /** Answers the global fetch's requests to `origin` (`https://api.github.com`) in process, until `restore()`. */
  intercept(origin: string): Interception;
  close(): Promise<void>;
  /** The Fastify app and the store, for what the API above does not reach. */
  readonly app: FastifyInstance;
  readonly store: Store;
}

export interface FineGrainedTokenOptions {
  owner?: string;
  repositories?: "public" | "all" | string[];
  /** By GitHub's name: `{ repository_hooks: "write" }`; Metadata read is always granted. */
  permissions?: GrantedPermissions;
  /** ISO 8601; by default the token never expires. */
  expiresAt?: string;
}

/** What `token()` grants by default: everything a user of feedgate's routes may need, as a classic token with those boxes ticked. */
const DEFAULT_SCOPES = ["repo", "admin:repo_hook", "admin:org_hook", "read:org", "user"];

/** The world as an object, or read from its file as `feedgate seed` reads it (with the same one-line errors). */
async function worldDocument(world: object | string): Promise<{ doc: unknown; baseDir: string | undefined }> {
  return typeof world === "string" ? readWorldFile(world) : { doc: world, baseDir: undefined };
}

/**
 * A world's passwords hashed once per process: a suite starts a double per file or per test with the same world, and
 * each hash (scrypt, even at the lowest cost) would be made again at every start. Keyed by the password's SHA-256 and
 * the cost, so no password is kept; a hash verifies the same whichever double stores it.
 */
const hashes = new Map<string, Promise<string>>();
function rememberedHash(password: string): Promise<string> {
  const key = `${passwordCost()}:${createHash("sha256").update(password).digest("base64")}`;
  let hash = hashes.get(key);
  if (hash === undefined) {
    hashes.set(key, (hash = hashPassword(password)));
    hash.catch(() => hashes.delete(key));
  }
  return hash;
}

export async function startFeedgate(options: FeedgateOptions = {}): Promise<Feedgate> {
  const start = options.now === undefined ? new Date() : new Date(options.now);
  if (Number.isNaN(start.getTime())) throw new RangeError(`now must be a time, got ${JSON.stringify(options.now)}`);
  const clock = new ManualClock(start, options.now === undefined);
  // The environment is not read: a test's double must not change with the shell it runs in.
  const config = loadConfig(
    {
      logLevel: "warn", // issue 47: warnings and errors are a test's to see; settings.logLevel asks for more or less
      passwordCost: LOWEST_PASSWORD_COST,
      ...options.settings,
      db: ":memory:",
      testControls: true,
      host: "127.0.0.1",
      port: options.port ?? 0,
    },
    {},
  );
  setPasswordCost(config.passwordCost); // as startServer does, before the world's passwords are hashed
  const world = options.world === undefined ? undefined : await worldDocument(options.world);
  // The world is seeded at one time: the clock's when it stands still; on a running clock its start's second, which is
  // all of it the wire shows (GitHub's times are whole seconds), so every start within one second builds the same
  // database, and takes a store a closed double of that second parked (parked-stores.ts).
  const running = options.now === undefined;
  const seededAt = running ? new Date(Math.floor(start.getTime() / 1000) * 1000) : start;
  const key = parkingKey(config, world?.doc, world?.baseDir, seededAt);
  // No start after its second can take a store seeded on a running clock.
  const takenUntil = running ? seededAt.getTime() + 1000 : Number.POSITIVE_INFINITY;
  const parked = await takeParked(key);
  const store = parked?.store ?? (await SqliteStore.open(":memory:"));
  // The box the app seals hooks' secrets with, made first: a world's app webhook secrets are sealed with it.
  const secrets = parked?.secrets ?? SecretBox.ephemeral();
  let controls: TestControls | undefined;
  const storeOnClose = {
    close: () =>
      controls === undefined
        ? store.close()
        : park(key, { store, secrets, backToStart: () => controls!.reset(), takenUntil }),
  };
  const opened: { close(): Promise<void> }[] = [storeOnClose];
  const closeAll = async () => {
    for (const part of opened.reverse()) await part.close().catch(() => undefined);
  };
  try {
    if (world !== undefined && !parked) {
      await new IngestService(store, () => new Date(seededAt)).seedWorld(world.doc, {
        baseDir: world.baseDir,
        sealSecret: (s) => secrets.seal(s),
        hashPassword: rememberedHash,
      });
    }
    // One app per process and settings serves every double (src/server/shared-app.ts); this one's services are its own.
    const instance = await startInstance({ config, store, clock, counters: new MemoryWindowCounters(), secrets });
    opened.push(instance);
    controls = instance.services.testControls;
    const url = await instance.listen("127.0.0.1", config.port);
    return feedgateOf(instance.app, store, instance.services.testControls!, url, closeAll, opened);
  } catch (error) {
    await closeAll();
    throw error;
  }
}

function feedgateOf(
  app: FastifyInstance,
  store: Store,
  controls: TestControls,
  url: string,
  closeAll: () => Promise<void>,
  opened: { close(): Promise<void> }[],
): Feedgate {
  const snapshots = new WeakSet<Snapshot>();
  const interceptions: Interception[] = [];
  const authorizations = new AuthorizationService(store, controls.clock.now);
  const fineGrainedTokens = new FineGrainedTokenService(store, controls.clock.now);
  const fetch = inProcessFetch(app, url);
  let closing: Promise<void> | undefined;
  let client: Client | undefined;
  const close = () =>
    (closing ??= (async () => {
      for (const interception of interceptions) interception.restore();
      await closeAll();
    })());
  return {
    url,
    fetch,
    app,
    store,
    // Made when first read: building the SDK's operation families cost a tenth of a start (issue 47).
    get client() {
      return (client ??= new Client({ baseUrl: url, version: VERSION }));
    },
    clock: controls.clock,
    faults: controls.faults,
    ...oauthHelpers(store, controls.clock.now),
    async token(login, scopes = DEFAULT_SCOPES) {
      let user = await store.users.findByLogin(login);
      if (!user) {
        await controls.ingest.seedWorld({ users: [{ login }] }, { baseDir: undefined });
        user = (await store.users.findByLogin(login))!;
      }
      const { token } = await authorizations.issue(user, {
        scopes: normalize(scopes),
        note: "feedgate/testing",
        noteUrl: null,
        fingerprint: null,
      });
      return token;
    },
    async fineGrainedToken(login, grant = {}) {
      const user = await store.users.findByLogin(login);
      if (!user)
        throw new RangeError(`fineGrainedToken: no user "${login}"; add it to the world, or call token() once`);
      const { repositories = "public", permissions = {} } = grant;
      const groups: Record<PermissionGroup, Record<string, string>> = { repository: {}, organization: {}, other: {} };
      for (const [name, level] of Object.entries(permissions)) {
        if (isPermissionName(name)) groups[PERMISSIONS[name].group][name] = level;
        else groups.repository[name] = level; // refused by the service, naming it
      }
      const { token } = await fineGrainedTokens.create(user, {
        name: "feedgate/testing",
        resourceOwner: grant.owner,
        permissions: groups,
        expiresAt: grant.expiresAt,
        repositorySelection: Array.isArray(repositories) ? "subset" : repositories === "public" ? "none" : repositories,
        repositories: Array.isArray(repositories) ? repositories : [],
      });
      return token;
    },
    githubApp: (appOptions) => registerTestApp(store, controls, appOptions),
    ingest: (events) => controls.ingest.ingestEvents(events),
    commit: (repo, { files, branch, message = "Update files", as }) =>
      controls.commitFiles(repo, as ?? repo.split("/")[0]!, { files, branch, message }),
    async receiver(receiverOptions) {
      const receiver = await startReceiver(receiverOptions);
      opened.push(receiver);
      return receiver;
    },
    async snapshot() {
      const snapshot = Object.freeze({ id: await controls.snapshot() });
      snapshots.add(snapshot);
      return snapshot;
    },
    async restore(snapshot) {
      if (!snapshots.has(snapshot))
        throw new Error(
          "this snapshot was not taken by this feedgate: restore a snapshot on the instance that took it",
        );
      await controls.restore(snapshot.id);
    },
    reset: () => controls.reset(),
    intercept(origin) {
      const interception = interceptFetch(origin, inProcessFetch(app, origin));
      interceptions.push(interception);
      return interception;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
