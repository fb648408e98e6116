/**
 * The monthly partitions of `events` (migration 16): made ahead of need (this month and the next by retention, an
 * ingest's months before it writes), and detached and dropped whole when retention is past them.
 *
 * Making or dropping a partition locks the whole events table for an instant (DETACH ... CONCURRENTLY, which would
 * not, is refused on a table with a default partition). Each such transaction waits at most
 * LOCK_TIMEOUT for the lock: queued behind a long feed count, it would hold every later reader up. What times out
 * is tried again at the next run, and meanwhile no insert fails: a month without its partition fills the default one,
 * whose rows move to their month's partition when it is made (`events_month_partition`, in the migration).
 *
 * Not shared: partitions are PostgreSQL's; SQLite deletes rows (sqlite/retention.ts).
 */
import type pg from "pg";
import { RAISE_GENERATION } from "../feed-sql.js";
import { transaction } from "./pool.js";

const LOCK_TIMEOUT = "2s";
/** The same lock as `events_month_partition` takes: a month is never made and dropped at once. */
const PARTITIONS_LOCK = "SELECT pg_advisory_xact_lock(hashtext('feedgate:event-partitions'))";
/** The same, shared: an ingest holds it while it looks ids up partition by partition (copy.ts), so none goes meanwhile. */
export const SHARE_PARTITIONS = "SELECT pg_advisory_xact_lock_shared(hashtext('feedgate:event-partitions'))";
const DEFAULT_PARTITION = "events_default";

/** `2024-01` of a time in seconds: the month, in UTC, whose partition holds it. */
const monthOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 7);

/** The month partitions, oldest first, with where each ends (seconds, exclusive). */
const PARTITIONS = `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
  WHERE i.inhparent = 'events'::regclass AND c.relname <> '${DEFAULT_PARTITION}'`;

export class EventPartitions {
  /** Months whose partition this process made or saw made: an ingest of a live feed asks nothing. */
  private readonly known = new Set<string>();

  constructor(private readonly pool: pg.Pool) {}

  /** Makes the partitions of the months these times (seconds) fall in, where missing. */
  async ensure(times: Iterable<number>): Promise<void> {
    const months = new Map<string, number>();
    for (const t of times) {
      const month = monthOf(t);
      if (!this.known.has(month) && !months.has(month)) months.set(month, t);
    }
    if (months.size === 0) return;
    await this.make([...months.values()]);
    for (const month of months.keys()) this.known.add(month);
  }

  /** Months whose rows sit in the default partition (made by nobody yet, or a restored image's) get their own. */
  async adoptDefault(): Promise<void> {
    const { rows } = await this.pool.query<{ t: string }>(`SELECT min(created_at) AS t FROM ${DEFAULT_PARTITION}
      GROUP BY date_trunc('month', to_timestamp(created_at) AT TIME ZONE 'UTC')`);
    if (rows.length > 0) await this.make(rows.map((r) => Number(r.t)));
  }

  private async make(times: number[]): Promise<void> {
    await transaction(this.pool, async (client) => {
      await client.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
      await client.query("SELECT events_month_partition(t) FROM unnest($1::int8[]) AS t", [times]);
    });
  }

  /**
   * Detaches and drops the oldest month partition that ends by `before` (seconds), raising the ingest generation in
   * the same transaction; false when there is none.
   */
  async dropOldest(before: number): Promise<boolean> {
    const { rows } = await this.pool.query<{ name: string; bound: string }>(PARTITIONS);
    const ends = rows
      .map((r) => ({ name: r.name, end: Number(/TO \('?(-?[0-9]+)'?\)/.exec(r.bound)?.[1] ?? Number.NaN) }))
      .filter((p) => p.end <= before)
      .sort((a, b) => a.end - b.end);
    const oldest = ends[0];
    if (!oldest) return false;
    await transaction(this.pool, async (client) => {
      await client.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
      await client.query(PARTITIONS_LOCK);
      // Another instance's retention may have dropped it since the list was read.
      if ((await client.query("SELECT to_regclass($1) AS found", [oldest.name])).rows[0].found === null) return;
      await client.query(`ALTER TABLE events DETACH PARTITION "${oldest.name}"`);
      await client.query(`DROP TABLE "${oldest.name}"`);
      await client.query(RAISE_GENERATION);
    });
    this.known.delete(monthOf(oldest.end - 1));
    return true;
  }
}
