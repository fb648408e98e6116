/**
 * The pg pool and the small helpers every PostgreSQL store file uses.
 *
 * Not shared: pg's pool, its type parsers and its clients' error events.
 */
import pg from "pg";

// int8 (bigint) arrives as text by default; every id here fits a JavaScript number (< 2^53).
const INT8 = 20;
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** How long the database may take, so a database that hangs cannot hang requests forever. 0 means no limit. */
export interface PoolLimits {
  /** Connections per instance. */
  maxConnections: number;
  /** Opening a connection (TCP, TLS, authentication). */
  connectTimeoutMs: number;
  /** Enforced by the server on every statement (`statement_timeout`). */
  statementTimeoutMs: number;
  /** Enforced here, for a server that cannot answer at all (a cut network): the query fails after this long. */
  queryTimeoutMs: number;
}

/** For commands that run long statements on purpose (import, migrate): connect promptly, then no limit. */
export const UNLIMITED: PoolLimits = {
  maxConnections: 10,
  connectTimeoutMs: 10_000,
  statementTimeoutMs: 0,
  queryTimeoutMs: 0,
};

export interface PoolOptions {
  /** The class of its connections: a PrimaryFinder's, for a URL of several hosts (primary-finder.ts). */
  Client?: typeof pg.Client;
  /**
   * The URL is a pooler in transaction mode (PgBouncer): its connections send no statement_timeout, which such a pooler
   * refuses and whose configuration sets it instead (direct.ts, standbys.ts).
   */
  pooler?: boolean;
}

/**
 * A pool whose connections say their statement_timeout when they connect, a startup parameter: none (0) too, so that
 * "none" is none whatever the role or the database were given (an import's COPY is not cut short by them), and so that
 * a pooler not known to be one refuses the connection at once (PgBouncer: 08P01), before a session's advisory lock or
 * SET goes astray on one of its server connections (open-failures.ts tells the operator to give --db-direct).
 */
export function createPool(
  connectionString: string,
  limits: PoolLimits = UNLIMITED,
  options: PoolOptions = {},
): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    ...(options.Client ? { Client: options.Client } : {}),
    types,
    max: limits.maxConnections,
    connectionTimeoutMillis: limits.connectTimeoutMs,
    // pg sends only a truthy statement_timeout: "0" is how none is said.
    ...(options.pooler ? {} : { statement_timeout: String(limits.statementTimeoutMs) as unknown as number }),
    ...(limits.queryTimeoutMs ? { query_timeout: limits.queryTimeoutMs } : {}),
    // A peer that vanished without closing (a cut network, a killed host) is noticed by the kernel.
    keepAlive: true,
  });
  // An idle connection the server closes (a restart, a failover) is dropped from the pool and replaced on the
  // next query; without a listener, pg's "error" event would crash the process instead.
  pool.on("error", () => undefined);
  return pool;
}

/**
 * The `statement_timeout` that statements through the pooler run under, in milliseconds (0: none): whatever the
 * pooler's server connections were given (PgBouncer's `connect_query`, the role's or database's own setting).
 */
export async function pooledStatementTimeoutMs(pooled: pg.Pool): Promise<number> {
  const { rows } = await pooled.query<{ ms: string }>(
    "SELECT setting AS ms FROM pg_settings WHERE name = 'statement_timeout'",
  );
  return Number(rows[0]?.ms ?? 0);
}

/**
 * Runs `work` on a client checked out of the pool. pg emits "error" on a client whose connection dies, and a
 * checked-out client has no listener of the pool's: unheard, the event would end the process. The query in
 * flight rejects by itself, so the listener only notes the error, and the broken client is destroyed on release
 * instead of going back to the pool.
 */
export async function withClient<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (error: Error) => (broken = error);
  client.on("error", onError);
  try {
    return await work(client);
  } finally {
    client.off("error", onError);
    client.release(broken);
  }
}

/** `@name` parameters -> `$n`, so the feed SQL shared with SQLite runs here unchanged. */
export function named(sql: string, parameters: Record<string, unknown>): { text: string; values: unknown[] } {
  const order: string[] = [];
  const text = sql.replace(/@([A-Za-z_]+)/g, (_, name: string) => {
    if (!(name in parameters)) throw new Error(`missing SQL parameter @${name}`);
    let index = order.indexOf(name);
    if (index < 0) index = order.push(name) - 1;
    return `$${index + 1}`;
  });
  return { text, values: order.map((name) => parameters[name]) };
}

/**
 * Runs `work` in one transaction on one client; rolls back on any error.
 * @param opening statements without parameters sent with the BEGIN, in one simple query (one round trip).
 * @param opened given the rows of the opening's last statement.
 */
export function transaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  isolation = "READ COMMITTED",
  opening?: string,
  opened?: (rows: Record<string, unknown>[]) => void,
): Promise<T> {
  return withClient(pool, async (client) => {
    try {
      const begun = await client.query(`BEGIN ISOLATION LEVEL ${isolation}${opening ? `; ${opening}` : ""}`);
      // A simple query of several statements answers each one's result, in order.
      if (opened) opened((Array.isArray(begun) ? (begun.at(-1) as pg.QueryResult) : begun).rows);
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    }
  });
}
