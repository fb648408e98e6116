/** The pg pool and the small helpers every PostgreSQL store file uses. */
import pg from "pg";

// int8 (bigint) arrives as text by default; every id here fits a JavaScript number (< 2^53).
const INT8 = 20;
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export function createPool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: 10, types });
  // An idle connection the server closes (a restart, a failover) is dropped from the pool and replaced on the
  // next query; without a listener, pg's "error" event would crash the process instead.
  pool.on("error", () => undefined);
  return pool;
}

export type Queryable = pg.Pool | pg.PoolClient;

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

/** Runs `work` in one transaction on one client; rolls back on any error. */
export async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, isolation = "READ COMMITTED"): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(`BEGIN ISOLATION LEVEL ${isolation}`);
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

export const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === "23505";
