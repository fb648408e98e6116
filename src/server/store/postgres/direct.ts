/**
 * The direct connection (`--db-direct`): PostgreSQL itself, when `--db` is a pooler in transaction mode (PgBouncer).
 * Such a pooler lends each transaction, and each statement outside one, whichever of its server connections is free,
 * so nothing a session keeps between statements holds there: a LISTEN hears nothing (the notifications come to a
 * server connection lent to someone else by then, and PgBouncer drops them), a session's advisory lock is taken on one
 * server connection and released on another (or on none: the next migration waits for ever), and a SET stays behind
 * for whoever gets that connection next. PgBouncer refuses the `statement_timeout` startup parameter outright.
 *
 * So what needs a session connects here: LISTEN (postgres/events.ts), the migrations under their advisory lock, and
 * after a bulk load the feed indexes' build and VACUUM, which SET their own limits first. Requests go through the
 * pooler: each of their statements and transactions stands alone (no named prepared statement, no SET outside a
 * transaction, no cursor, no temporary table), and their `statement_timeout` is the pooler's to set, once for all
 * its server connections (docs/scale-out.md#pgbouncer), since no client of it can.
 *
 * Not shared: sessions, LISTEN/NOTIFY and advisory locks are PostgreSQL's; SQLite has no pooler.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { createPool, type PoolLimits, withClient } from "./pool.js";
import { hostsOf, PrimaryFinder } from "./primary-finder.js";
import { DirectOpenError } from "./open-errors.js";

/** Where sessions are opened: the direct pool and the class of a connection of one's own (LISTEN). */
export interface Direct {
  readonly pool: pg.Pool;
  /** A PrimaryFinder's when the URL names several hosts, so that LISTEN follows a promotion too. */
  readonly Client: typeof pg.Client;
  close(): Promise<void>;
}

/** The check's NOTIFY did not arrive: the direct URL reaches another database, or another server. */
class NotHeard extends Error {}

/** Without `--db-direct`: sessions are opened where requests go, as before there were poolers. */
export function sameAsPool(pool: pg.Pool, Client: typeof pg.Client = pg.Client): Direct {
  return { pool, Client, close: async () => undefined };
}

/**
 * Opens the direct connection and checks that it reaches the database `pooled` writes to: a NOTIFY sent through the
 * pooler must arrive on it, as the wake-ups of live streams will. A URL of another database (or another server)
 * would start an instance whose streams never hear other instances' writes and whose migrations lock nothing.
 */
export async function openDirect(url: string, limits: PoolLimits, pooled: pg.Pool): Promise<Direct> {
  const hosts = hostsOf(url);
  const finder = hosts && new PrimaryFinder(url, hosts, limits.connectTimeoutMs);
  // Two at most: the migrations and a bulk load's index build take one each, in turn; LISTEN opens its own.
  const pool = createPool(url, { ...limits, maxConnections: 2 }, { Client: finder?.Client });
  const direct: Direct = {
    pool,
    Client: finder?.Client ?? pg.Client,
    async close() {
      finder?.stop();
      await pool.end();
    },
  };
  try {
    await finder?.start();
    if (finder) finder.pool = pool;
    await heardThrough(pooled, pool, limits.connectTimeoutMs || 5000);
  } catch (error) {
    await direct.close();
    throw new DirectOpenError(url, error instanceof NotHeard ? "elsewhere" : error);
  }
  return direct;
}

/** LISTEN on `direct`, NOTIFY through `pooled`; rejects with NotHeard when nothing arrives within `ms`. */
async function heardThrough(pooled: pg.Pool, direct: pg.Pool, ms: number): Promise<void> {
  const channel = "feedgate_direct_check";
  // Instances starting together check at once: each waits for its own payload.
  const payload = randomBytes(8).toString("hex");
  await withClient(direct, async (client) => {
    let timer: NodeJS.Timeout | undefined;
    let onNotification: ((message: pg.Notification) => void) | undefined;
    const heard = new Promise<void>((resolve, reject) => {
      onNotification = (message) => {
        if (message.channel === channel && message.payload === payload) resolve();
      };
      client.on("notification", onNotification);
      timer = setTimeout(() => reject(new NotHeard(`no NOTIFY within ${ms} ms`)), ms);
    });
    try {
      await client.query(`LISTEN ${channel}`);
      await pooled.query("SELECT pg_notify($1, $2)", [channel, payload]);
      await heard;
    } finally {
      clearTimeout(timer);
      client.off("notification", onNotification!);
      // The connection goes back to the direct pool: it must not keep listening.
      await client.query(`UNLISTEN ${channel}`).catch(() => undefined);
    }
  });
}
