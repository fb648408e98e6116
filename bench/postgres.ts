/**
 * A throw-away PostgreSQL database for the import benchmark: created under a random name through an
 * administrative connection, dropped afterwards (also when the import fails), so the benchmark never touches
 * anyone's data. The same defaults as the test suites: trust authentication on 127.0.0.1:5432.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

export const POSTGRES_ADMIN_URL =
  process.env.FEEDGATE_BENCH_POSTGRES_URL ??
  process.env.FEEDGATE_TEST_POSTGRES_URL ??
  "postgres://postgres@127.0.0.1:5432/postgres";

/** The server's version, or the reason it cannot be used. */
export async function probePostgres(
  adminUrl = POSTGRES_ADMIN_URL,
): Promise<{ version: string } | { unreachable: string }> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version: string }>("SHOW server_version");
    return { version: rows[0]!.server_version };
  } catch (error) {
    return { unreachable: `PostgreSQL is not reachable at ${redact(adminUrl)}: ${(error as Error).message}` };
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface ScratchDatabase {
  url: string;
  /** Size on disk after the import, for the report. */
  size(): Promise<number>;
  drop(): Promise<void>;
}

async function admin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The database `--postgres-rows` imports into and serves from: one name, dropped and made again by each run. */
export const BENCH_DATABASE = "feedgate_bench";

/**
 * A database of a random name, or of `name` (an earlier run's, left by a crash, dropped first); a copy of the
 * database `template` names (its URL), when given, which nothing may be connected to meanwhile.
 */
export async function createScratchDatabase(
  adminUrl = POSTGRES_ADMIN_URL,
  name = `feedgate_bench_${randomBytes(6).toString("hex")}`,
  template?: string,
): Promise<ScratchDatabase> {
  await admin(adminUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${new URL(template).pathname.slice(1)}` : ""}`);
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    size: () =>
      admin(adminUrl, async (c) =>
        Number((await c.query<{ n: string }>("SELECT pg_database_size($1) AS n", [name])).rows[0]!.n),
      ),
    // FORCE: a crashed import may leave connections behind.
    drop: () => admin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/** A URL fit for a report: the password, if any, removed. */
export function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = "***";
  return u.toString();
}
