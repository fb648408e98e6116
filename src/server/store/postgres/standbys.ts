/**
 * Hot standbys that serve reads: PostgreSQL's streaming replicas of the primary, each with a pool of its own.
 *
 * A read may go to a standby only when the standby has replayed everything the caller must see (read-scope.ts says
 * how far that is, by LSN) and is no further behind the primary than `--replica-max-lag`. What each standby has
 * replayed, and how far behind it is, is polled every POLL_MS; between polls a standby can only be further along
 * than the poll said, so a choice made on the last poll is never too new. A standby that fails a query or a poll is
 * left out until a poll answers again.
 *
 * A standby may be reached through a pooler in transaction mode (PgBouncer), as the primary may: reads are single
 * statements or read-only transactions, which such a pooler serves. Unlike the primary's, a standby's pool needs no
 * session of its own (no LISTEN, no migrations), so no direct URL: one that refuses the statement_timeout startup
 * parameter is taken to be a pooler, and connected to again without it; its own configuration sets the timeout
 * (PgBouncer's connect_query), and the report says which, for the warning the primary's pooler has (startup-notes.ts).
 *
 * Not shared: streaming replication and LSNs are PostgreSQL's; SQLite has one file.
 */
import type pg from "pg";
import { createPool, pooledStatementTimeoutMs, type PoolLimits } from "./pool.js";
import { asUnavailable } from "../unavailable.js";
import { isPostgresOutage } from "./outage.js";
import { refusedStartupParameter, StandbyOpenError } from "./open-errors.js";

/** How often each standby's replay position and the primary's write position are read. */
const POLL_MS = 200;

/** A write-ahead log position, `16/B374D848` as PostgreSQL prints it, as one comparable number. */
export function lsnOf(text: string | null): bigint {
  if (!text) return 0n;
  const [high = "0", low = "0"] = text.split("/");
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/** What `/metrics` shows of one standby. */
export interface StandbyReport {
  /** `standby 1`, `standby 2`...: in the order of the flags, never the URL (it may carry a password). */
  name: string;
  /** How far its replay is behind the primary's writes, in seconds (0 when it has replayed everything). */
  lagSeconds: number;
  /** Left out of reads: failing, or further behind than the limit. */
  excluded: boolean;
  /** Requests' reads it answered since the start. */
  reads: number;
  /** Reached through a pooler: the statement_timeout its server connections run reads under (ms, 0: none). */
  pooledStatementTimeoutMs?: number;
}

export class Standby {
  /** The last polled replay position: what the standby has replayed at least. */
  replayed = 0n;
  lagMs = 0;
  /** false from a failure until a poll answers. */
  healthy = true;
  /** Requests' reads answered. */
  reads = 0;

  /** @param pooledStatementTimeoutMs set when `pool` goes through a pooler: the timeout its configuration sets. */
  constructor(
    readonly name: string,
    readonly pool: pg.Pool,
    readonly pooledStatementTimeoutMs?: number,
  ) {}
}

/** Whether the server behind `pool` is a hot standby; the driver's error when it does not answer. */
async function inRecovery(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ standby: boolean }>("SELECT pg_is_in_recovery() AS standby");
  return rows[0]?.standby === true;
}

/**
 * Connects to the standby at `url`, through a pooler if it is one (it refused statement_timeout), and refuses, in one
 * line naming it (StandbyOpenError), a URL that does not answer or whose server is not a standby.
 */
async function openStandby(name: string, url: string, limits: PoolLimits): Promise<Standby> {
  let pool = createPool(url, limits);
  let pooledMs: number | undefined;
  try {
    let standby: boolean;
    try {
      standby = await inRecovery(pool);
    } catch (error) {
      if (refusedStartupParameter(error) !== "statement_timeout") throw error;
      await pool.end();
      pool = createPool(url, limits, { pooler: true });
      standby = await inRecovery(pool);
      pooledMs = await pooledStatementTimeoutMs(pool);
    }
    if (!standby) throw new StandbyOpenError(url, "primary");
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error instanceof StandbyOpenError ? error : new StandbyOpenError(url, asUnavailable(error, isPostgresOutage));
  }
  return new Standby(name, pool, pooledMs);
}

export class Standbys {
  /** Requests' reads the primary answered (none of the standbys could, or the request wrote). */
  primaryReads = 0;
  private next = 0;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;

  private constructor(
    private readonly primary: pg.Pool,
    /** Filled by open(), one standby at a time, so that a failed open closes those it opened. */
    readonly list: readonly Standby[],
    private readonly maxLagMs: number,
  ) {}

  /**
   * Connects to each standby and refuses, in one line naming it, a URL whose server is not a standby (a second
   * primary would take reads that never see this primary's writes).
   */
  static async open(
    primary: pg.Pool,
    urls: readonly string[],
    maxLagMs: number,
    limits: PoolLimits,
  ): Promise<Standbys> {
    const list: Standby[] = [];
    const standbys = new Standbys(primary, list, maxLagMs);
    try {
      for (const [i, url] of urls.entries()) list.push(await openStandby(`standby ${i + 1}`, url, limits));
      await standbys.poll();
    } catch (error) {
      await standbys.close();
      throw error;
    }
    standbys.timer = setInterval(() => void standbys.poll(), POLL_MS).unref();
    return standbys;
  }

  /**
   * A standby that has replayed at least `floor` and is within the lag limit, taken in turn so that reads spread
   * over them; undefined when none is (the primary serves the read).
   */
  choose(floor: bigint): Standby | undefined {
    for (let tried = 0; tried < this.list.length; tried++) {
      const standby = this.list[this.next++ % this.list.length]!;
      if (standby.healthy && standby.lagMs <= this.maxLagMs && standby.replayed >= floor) return standby;
    }
    return undefined;
  }

  /** A query on `standby` failed as an outage does: it serves nothing more until a poll answers. */
  failed(standby: Standby): void {
    standby.healthy = false;
  }

  report(): StandbyReport[] {
    return this.list.map((s) => ({
      name: s.name,
      lagSeconds: s.lagMs / 1000,
      excluded: !s.healthy || s.lagMs > this.maxLagMs,
      reads: s.reads,
      ...(s.pooledStatementTimeoutMs === undefined ? {} : { pooledStatementTimeoutMs: s.pooledStatementTimeoutMs }),
    }));
  }

  /** Reads every standby's position against the primary's, all at once; one poll at a time. */
  poll(): Promise<void> {
    this.polling ??= this.pollAll().finally(() => (this.polling = undefined));
    return this.polling;
  }

  private async pollAll(): Promise<void> {
    const written = await this.primary
      .query<{ lsn: string }>("SELECT pg_current_wal_lsn()::text AS lsn")
      .then((r) => lsnOf(r.rows[0]!.lsn))
      .catch(() => undefined); // no primary: the standbys' positions still count, their lag stays as it was
    await Promise.all(this.list.map((standby) => this.pollOne(standby, written)));
  }

  private async pollOne(standby: Standby, written: bigint | undefined): Promise<void> {
    try {
      // The lag in time as PostgreSQL's own monitoring reckons it: none when everything written is replayed, else
      // the age of the last transaction replayed (measured on the standby's clock, where that transaction's time is).
      const { rows } = await standby.pool.query<{ lsn: string | null; behind_ms: number | null }>(
        `SELECT pg_last_wal_replay_lsn()::text AS lsn,
                (extract(epoch FROM now() - pg_last_xact_replay_timestamp()) * 1000)::float8 AS behind_ms`,
      );
      const replayed = lsnOf(rows[0]?.lsn ?? null);
      standby.replayed = replayed;
      if (written !== undefined) standby.lagMs = replayed >= written ? 0 : Math.max(0, rows[0]?.behind_ms ?? 0);
      standby.healthy = true;
    } catch {
      standby.healthy = false;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.polling?.catch(() => undefined);
    await Promise.all(this.list.map((s) => s.pool.end().catch(() => undefined)));
  }
}
