/**
 * Webhooks written once over the executor: the hooks, their outbox and the record of attempts (SQL in hook-sql.ts).
 * What differs by dialect is how a claim keeps other claimers off its rows, and how bulk redeliveries take turns.
 */
import type { Executor } from "./executor.js";
import type { Dialect } from "./feed-sql.js";
import type {
  AttemptOutcome,
  DeliveryAttempt,
  DeliveryRow,
  DisableRule,
  EventSource,
  FinishedAttempt,
  HookChanges,
  HookOwner,
  HookRow,
  HookStore,
  NewHook,
  NewQueuedDelivery,
  QueuedDelivery,
  QueueStats,
  RedeliveryCount,
  RedeliveryScope,
  SealedSecret,
} from "./hook-store.js";
import {
  attemptParameters,
  claimableBehind,
  delivered,
  failedSinceSql,
  HOOK_SQL,
  hookInsertParameters,
  hookParameters,
  lastResponse,
  NO_CURSOR,
  ownerWhere,
  reactivates,
  redeliveryOf,
  scopeOwner,
  toDelivery,
  toHook,
  toQueued,
  type DeliveryRecord,
  type HookRecord,
  type QueueRecord,
} from "./hook-sql.js";
import type { Page, PageRequest } from "./page.js";
import { packBody, unpackBody } from "./delivery-bodies.js";

/**
 * PostgreSQL: rows another instance is claiming are skipped, not waited for; once leased, the heads query leaves them
 * out. The rows behind a head need no lock: another claimer skips the locked head, and so its hook. SQLite: one
 * process holds the write lock at a time (BEGIN IMMEDIATE), so reading the heads and leasing them cannot race.
 */
const HEADS: Record<Dialect, string> = {
  sqlite: HOOK_SQL.heads,
  postgres: `${HOOK_SQL.heads} FOR UPDATE OF q SKIP LOCKED`,
};

/** A hook read to be updated: PostgreSQL locks its row; SQLite's BEGIN IMMEDIATE holds the whole file. */
const FOR_UPDATE: Record<Dialect, string> = { sqlite: "", postgres: " FOR UPDATE" };

/** HOOK_SQL.leaseRun for every row a claim takes, in one statement (PostgreSQL's arrays). */
const LEASE_ALL = "UPDATE hook_queue SET claimed_until = @until WHERE id = ANY(@ids)";

/**
 * Held by a bulk redelivery's transaction on PostgreSQL: two at once take turns, the second seeing the first's rows
 * in the queue and skipping them. SQLite's BEGIN IMMEDIATE makes them take turns already.
 */
const REDELIVERY_LOCK: Record<Dialect, string | null> = {
  sqlite: null,
  postgres: "SELECT pg_advisory_xact_lock(hashtext('feedgate:redeliver-failed'))",
};

/**
 * The dispatcher's transactions (claims, attempts recorded) commit without waiting for the disk on SQLite: an fsync
 * per commit was a good part of each delivery's CPU. What a power cut can lose is the last of these commits, which
 * only makes deliveries go out again (a lease lost, or an attempt's record and its dequeue together): at least once,
 * as always. The next commit at the connection's own level (an ingest, a token) syncs the log, these with it.
 */
const OUTBOX = { write: true, relaxed: true };

export class Hooks implements HookStore {
  constructor(private readonly db: Executor) {}

  private get bool() {
    return this.db.values.bool;
  }

  async create(hook: NewHook, now: Date): Promise<HookRow> {
    const record = await this.db.get<HookRecord>(HOOK_SQL.insert, hookInsertParameters(hook, this.db.values, now));
    return toHook(record!);
  }

  async find(owner: HookOwner, id: number): Promise<HookRow | null> {
    const { column, value } = ownerWhere(owner);
    const record = await this.db.get<HookRecord>(HOOK_SQL.find(column), { owner: value, id });
    return record ? toHook(record) : null;
  }

  async get(id: number): Promise<HookRow | null> {
    const record = await this.db.get<HookRecord>(HOOK_SQL.get, { id });
    return record ? toHook(record) : null;
  }

  list(owner: HookOwner, { limit, offset }: PageRequest): Promise<Page<HookRow>> {
    const { column, value } = ownerWhere(owner);
    // One snapshot, so the rows and the total agree.
    return this.db.transaction(
      async (tx) => ({
        rows: (await tx.all<HookRecord>(HOOK_SQL.page(column), { owner: value, limit, offset })).map(toHook),
        total: Number((await tx.get<{ n: number }>(HOOK_SQL.count(column), { owner: value }))!.n),
      }),
      { consistentReads: true },
    );
  }

  update(owner: HookOwner, id: number, changes: HookChanges, now: Date): Promise<HookRow | null> {
    const { column, value } = ownerWhere(owner);
    return this.db.transaction(
      async (tx) => {
        const found = await tx.get<HookRecord>(`${HOOK_SQL.find(column)}${FOR_UPDATE[tx.dialect]}`, {
          owner: value,
          id,
        });
        if (!found) return null;
        const hook = toHook(found);
        const record = await tx.get<HookRecord>(HOOK_SQL.update(column), {
          ...hookParameters(hook, changes, this.bool),
          owner: value,
          id,
          now: tx.values.time(now),
          reactivated: this.bool(reactivates(hook, changes)),
        });
        return toHook(record!);
      },
      { write: true },
    );
  }

  async delete(owner: HookOwner, id: number): Promise<boolean> {
    const { column, value } = ownerWhere(owner);
    return (await this.db.run(HOOK_SQL.delete(column), { owner: value, id })).changes === 1;
  }

  async sealedSecrets(afterId: number, limit: number): Promise<SealedSecret[]> {
    const rows = await this.db.all<{ id: number; secret: string }>(HOOK_SQL.sealedSecrets, { after: afterId, limit });
    return rows.map((r) => ({ hookId: Number(r.id), sealed: r.secret }));
  }

  async reseal(id: number, from: string, to: string): Promise<boolean> {
    return (await this.db.run(HOOK_SQL.reseal, { id, from, to })).changes === 1;
  }

  async enqueue(deliveries: NewQueuedDelivery[], now: Date): Promise<void> {
    await this.db.transaction((tx) => this.enqueueIn(tx, deliveries, now), { write: true });
  }

  private async enqueueIn(tx: Executor, deliveries: NewQueuedDelivery[], now: Date): Promise<void> {
    for (const d of deliveries) {
      await tx.run(HOOK_SQL.enqueue, {
        hookId: d.hookId,
        guid: d.guid,
        event: d.event,
        action: d.action,
        eventId: d.eventId,
        body: d.body,
        redelivery: this.bool(d.redelivery),
        due: now.getTime(),
        now: tx.values.time(now),
        installationId: d.installationId ?? null,
      });
    }
  }

  claim(now: number, leaseMs: number, limit: number, perHook = 1): Promise<QueuedDelivery[]> {
    return this.db.transaction(async (tx) => {
      const runs: QueueRecord[][] = [];
      for (const head of await tx.all<QueueRecord>(HEADS[tx.dialect], { active: this.bool(true), now, limit })) {
        const behind =
          perHook > 1
            ? await tx.all<QueueRecord>(HOOK_SQL.behind, { hookId: head.hook_id, after: head.id, limit: perHook - 1 })
            : [];
        runs.push([head, ...claimableBehind(behind, now)]);
      }
      const until = now + leaseMs;
      const claimed = runs.flat();
      if (tx.dialect === "postgres") {
        if (claimed.length) await tx.run(LEASE_ALL, { ids: claimed.map((r) => r.id), until });
      } else {
        // A hook's run is the next ids of its queue, nothing between them: one statement leases them all.
        for (const run of runs) {
          await tx.run(HOOK_SQL.leaseRun, { hookId: run[0]!.hook_id, first: run[0]!.id, last: run.at(-1)!.id, until });
        }
      }
      return claimed.map(toQueued);
    }, OUTBOX);
  }

  async release(id: number): Promise<void> {
    await this.db.run(HOOK_SQL.release, { id });
  }

  async postpone(id: number, dueAt: number): Promise<void> {
    await this.db.run(HOOK_SQL.postpone, { id, due: dueAt });
  }

  async finish(
    delivery: QueuedDelivery,
    attempt: DeliveryAttempt,
    outcome: AttemptOutcome,
    rule: DisableRule | null = null,
  ): Promise<boolean> {
    return (await this.finishAll([{ delivery, attempt, outcome, rule }]))[0]!;
  }

  async finishAll(attempts: FinishedAttempt[], released: number[] = []): Promise<boolean[]> {
    // Compressed before the transaction, which holds the write lock. On a SQLite file whose write worker runs, the
    // dispatcher's records are made there (sqlite/outbox-in-worker.ts): off the event loop.
    const packed = await Promise.all(attempts.map((a) => packBody(a.attempt.request.payload)));
    return this.db.transaction(async (tx) => {
      const disabled: boolean[] = [];
      for (const [n, a] of attempts.entries()) disabled.push(await this.finishIn(tx, a, packed[n]!, attempts[n + 1]));
      for (const id of released) await tx.run(HOOK_SQL.release, { id });
      return disabled;
    }, OUTBOX);
  }

  /**
   * One attempt, inside finishAll's transaction: true when it disabled its hook. `next`: the attempt recorded after
   * this one, if any. When it is to the same hook, the hook's updates it makes anyway are left to it: its last
   * response replaces this one's, and, when it delivered, it ends the failing streak this one would end (a run of
   * successes updates its hook once, not once each).
   */
  private async finishIn(
    tx: Executor,
    { delivery, attempt, outcome, rule }: FinishedAttempt,
    packed: Buffer | null,
    next?: FinishedAttempt,
  ): Promise<boolean> {
    const sameHookNext = next?.delivery.hookId === delivery.hookId;
    const hookId = delivery.hookId;
    await tx.run(HOOK_SQL.record, attemptParameters(attempt, this.bool, packed));
    if (!sameHookNext) await tx.run(HOOK_SQL.lastResponse, { hookId, ...lastResponse(attempt) });
    if (outcome.kind === "retry") {
      const body = attempt.request.payload;
      await tx.run(HOOK_SQL.retry, { id: delivery.id, due: outcome.dueAt, body, action: attempt.action });
    } else await tx.run(HOOK_SQL.dequeue, { id: delivery.id });
    if (delivered(attempt)) {
      if (!(sameHookNext && delivered(next!.attempt))) await tx.run(HOOK_SQL.succeeded, { hookId });
      return false;
    }
    await tx.run(HOOK_SQL.failed, { hookId, at: attempt.deliveredAt.getTime() });
    if (!rule) return false;
    const disabled = await tx.run(HOOK_SQL.disable, {
      hookId,
      active: this.bool(true),
      inactive: this.bool(false),
      now: tx.values.time(attempt.deliveredAt),
      reason: rule.reason,
      before: rule.failingBefore,
    });
    return disabled.changes === 1;
  }

  async redeliverFailed(scope: RedeliveryScope, since: Date, now: Date): Promise<RedeliveryCount> {
    const found = await this.db.transaction(
      async (tx) => {
        const lock = REDELIVERY_LOCK[tx.dialect];
        if (lock) await tx.get(lock);
        const parameters = { since: tx.values.time(since), ...scopeOwner(scope) };
        const rows = await tx.all<DeliveryRecord>(failedSinceSql(scope), parameters);
        // Inflated inside the transaction, so the read and the queueing are one step: no second run can queue the
        // same failures in between.
        const bodies = await Promise.all(rows.map((r) => unpackBody(r.request_body, r.request_body_gzip)));
        await this.enqueueIn(
          tx,
          rows.map((r, n) => redeliveryOf(r, bodies[n]!)),
          now,
        );
        return rows;
      },
      { write: true },
    );
    return { queued: found.length, hooks: new Set(found.map((r) => r.hook_id)).size };
  }

  async queueStats(now: number): Promise<QueueStats> {
    const row = await this.db.get<{ depth: number; oldest: number | null }>(HOOK_SQL.queueStats, {
      active: this.bool(true),
      now,
    });
    return { depth: Number(row!.depth), oldestDue: row!.oldest === null ? null : Number(row!.oldest) };
  }

  async nextDue(now: number): Promise<number | null> {
    const row = await this.db.get<{ due: number | null }>(HOOK_SQL.nextDue, { active: this.bool(true), now });
    return row?.due ?? null;
  }

  async queued(hookId: number): Promise<number> {
    return Number((await this.db.get<{ n: number }>(HOOK_SQL.queued, { hookId }))!.n);
  }

  async eventSource(eventId: string): Promise<EventSource | null> {
    const sql = HOOK_SQL.eventSource;
    const r = await this.db.get<{ body: string; repo_id: number | null; actor_id: number }>(sql, { id: eventId });
    return r ? { body: r.body, repoId: r.repo_id, actorId: r.actor_id } : null;
  }

  async hasActiveHook(repoId: number): Promise<boolean> {
    return (await this.db.get(HOOK_SQL.anyActiveHook, { repoId, active: this.db.values.bool(true) })) !== undefined;
  }

  async latestPush(repoId: number): Promise<string | null> {
    const r = await this.db.get<{ id: number }>(HOOK_SQL.latestPush, { repoId });
    return r ? String(r.id) : null;
  }

  async deliveries(hookId: number, limit: number, before: number | null): Promise<DeliveryRow[]> {
    const parameters = { hookId, limit, before: before ?? NO_CURSOR };
    return Promise.all((await this.db.all<DeliveryRecord>(HOOK_SQL.deliveries, parameters)).map(toDelivery));
  }

  async delivery(hookId: number, id: number): Promise<DeliveryRow | null> {
    const record = await this.db.get<DeliveryRecord>(HOOK_SQL.delivery, { hookId, id });
    return record ? toDelivery(record) : null;
  }
}
