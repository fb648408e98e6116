/**
 * The real PostgreSQL and Redis servers the scale-out tests use. Outside CI, when a server is not reachable,
 * its tests report themselves skipped (with the reason); under CI (`CI` set) they are mandatory and an
 * unreachable server fails them.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { Redis } from "ioredis";
import { migratedTemplate } from "./migrated-template.js";

/** An administrative connection: trust auth on this machine kind; override for other set-ups. */
export const POSTGRES_ADMIN_URL =
  process.env.FEEDGATE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
/**
 * An administrative client that cannot wait for ever: a server too loaded to answer, or a CREATE or DROP DATABASE
 * stuck behind another session, fails the test that asked, naming the statement, instead of hanging the run.
 */
export function adminClient(url = POSTGRES_ADMIN_URL): pg.Client {
  return new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000, statement_timeout: 120_000 });
}

export const REDIS_URL = process.env.FEEDGATE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/**
 * Whether `probe` connects. One answer serves every test of a process (files share processes), so a slow answer is
 * given time and another try: a refused connection fails at once, but on a loaded machine a connection once took
 * longer than a 2 s timeout, and every PostgreSQL test of that process failed as if the server were missing.
 */
async function reachable(probe: () => Promise<unknown>, attempts = 3): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      await probe();
      return true;
    } catch {
      if (attempt === attempts) return false;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Asked at the first test that needs the server, not when this module is imported. */
let postgresUp: Promise<boolean> | undefined;
const postgresReachable = () =>
  (postgresUp ??= reachable(async () => {
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 5000 });
    await client.connect();
    await client.end();
  }));

let redisUp: Promise<boolean> | undefined;
const redisReachable = () =>
  (redisUp ??= reachable(async () => {
    const redis = new Redis(REDIS_URL, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      connectTimeout: 5000,
      retryStrategy: () => null,
    });
    await redis.connect();
    await redis.quit();
  }));

/**
 * A test's skip reason, or false: outside CI a missing server or program skips the test with the reason; in CI,
 * where `.ci/run` starts and installs everything the tests use, it fails the run instead of passing it unseen.
 */
export function skipOutsideCi(reason: string | false): string | false {
  if (reason && process.env.CI) throw new Error(`${reason}, and CI requires it`);
  return reason;
}

async function skipReason(name: string, url: string, up: () => Promise<boolean>): Promise<string | false> {
  return skipOutsideCi((await up()) ? false : `${name} is not reachable at ${url}`);
}

export const skipUnlessPostgres = () => skipReason("PostgreSQL", POSTGRES_ADMIN_URL, postgresReachable);
export const skipUnlessRedis = () => skipReason("Redis", REDIS_URL, redisReachable);

export interface TestDatabase {
  url: string;
  /** Its name on the server, for `copyOf`. */
  name: string;
  drop(): Promise<void>;
}

/**
 * A new database with a random name; `drop()` removes it (closing stray connections first). Empty, or with
 * `migrated`, a copy of one migrated to the latest schema, which a store opens without migrating (migrated-template.ts);
 * with `copyOf`, a copy of that database (PostgreSQL copies a template only while nobody is connected to it).
 */
export async function createTestDatabase(options: { migrated?: boolean; copyOf?: string } = {}): Promise<TestDatabase> {
  const name = `feedgate_test_${randomBytes(6).toString("hex")}`;
  const template = options.copyOf
    ? ` TEMPLATE ${options.copyOf}`
    : options.migrated
      ? ` TEMPLATE ${await migratedTemplate(POSTGRES_ADMIN_URL)}`
      : "";
  const admin = adminClient();
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const client = adminClient();
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** A key prefix no other test run shares, so Redis windows start empty. */
export const redisPrefix = () => `feedgate-test-${randomBytes(6).toString("hex")}:`;
