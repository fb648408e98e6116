/** Webhooks in SQLite: the hooks, their outbox and the record of attempts (SQL in ../hook-sql.ts). */
import type Database from "better-sqlite3";
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
} from "../hook-store.js";
import {
  attemptParameters,
  claimableBehind,
  delivered,
  failedSinceSql,
  HOOK_SQL,
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
  type OwnerColumn,
  type QueueRecord,
} from "../hook-sql.js";
import type { Page, PageRequest } from "../page.js";
import { SQLITE_VALUES } from "../sql-values.js";
import { packBody, unpackBodySync } from "../delivery-bodies.js";

const { bool } = SQLITE_VALUES;

type HookParameters = ReturnType<typeof hookParameters<number>>;
type Owned = { owner: number; id: number };

/** The statements on one hook name its owner's column: one statement per column, each typed alike. */
function perOwner<P extends object, R = unknown>(db: Database.Database, sql: (column: OwnerColumn) => string) {
  return {
    repo_id: db.prepare<P, R>(sql("repo_id")),
    org_id: db.prepare<P, R>(sql("org_id")),
  };
}

function prepare(db: Database.Database) {
  return {
    insert: db.prepare<
      HookParameters & { repo: number | null; org: number | null; name: string; now: string },
      HookRecord
    >(HOOK_SQL.insert),
    find: perOwner<Owned, HookRecord>(db, HOOK_SQL.find),
    get: db.prepare<{ id: number }, HookRecord>(HOOK_SQL.get),
    page: perOwner<{ owner: number } & PageRequest, HookRecord>(db, HOOK_SQL.page),
    count: perOwner<{ owner: number }, { n: number }>(db, HOOK_SQL.count),
    update: perOwner<HookParameters & Owned & { now: string; reactivated: number }, HookRecord>(db, HOOK_SQL.update),
    delete: perOwner<Owned>(db, HOOK_SQL.delete),
    sealedSecrets: db.prepare<{ after: number; limit: number }, { id: number; secret: string }>(HOOK_SQL.sealedSecrets),
    reseal: db.prepare<{ id: number; from: string; to: string }>(HOOK_SQL.reseal),
    enqueue: db.prepare<{
      hookId: number;
      guid: string;
      event: string;
      action: string | null;
      eventId: string | null;
      body: string | null;
      redelivery: number;
      due: number;
      now: string;
    }>(HOOK_SQL.enqueue),
    relaxed: db.prepare("PRAGMA synchronous = NORMAL"),
    heads: db.prepare<{ active: number; now: number; limit: number }, QueueRecord>(HOOK_SQL.heads),
    behind: db.prepare<{ hookId: number; after: number; limit: number }, QueueRecord>(HOOK_SQL.behind),
    leaseRun: db.prepare<{ hookId: number; first: number; last: number; until: number }>(HOOK_SQL.leaseRun),
    release: db.prepare<{ id: number }>(HOOK_SQL.release),
    postpone: db.prepare<{ id: number; due: number }>(HOOK_SQL.postpone),
    retry: db.prepare<{ id: number; due: number; body: string; action: string | null }>(HOOK_SQL.retry),
    dequeue: db.prepare<{ id: number }>(HOOK_SQL.dequeue),
    nextDue: db.prepare<{ active: number; now: number }, { due: number | null }>(HOOK_SQL.nextDue),
    queued: db.prepare<{ hookId: number }, { n: number }>(HOOK_SQL.queued),
    record: db.prepare<ReturnType<typeof attemptParameters<number>>>(HOOK_SQL.record),
    lastResponse: db.prepare<{ hookId: number } & ReturnType<typeof lastResponse>>(HOOK_SQL.lastResponse),
    succeeded: db.prepare<{ hookId: number }>(HOOK_SQL.succeeded),
    failed: db.prepare<{ hookId: number; at: number }>(HOOK_SQL.failed),
    disable: db.prepare<{
      hookId: number;
      active: number;
      inactive: number;
      now: string;
      reason: string;
      before: number;
    }>(HOOK_SQL.disable),
    queueStats: db.prepare<{ active: number; now: number }, { depth: number; oldest: number | null }>(
      HOOK_SQL.queueStats,
    ),
    failedSince: {
      all: db.prepare<{ since: string }, DeliveryRecord>(failedSinceSql({ kind: "all" })),
      repo: db.prepare<{ since: string; owner: number }, DeliveryRecord>(failedSinceSql({ kind: "repo", repoId: 0 })),
      org: db.prepare<{ since: string; owner: number }, DeliveryRecord>(failedSinceSql({ kind: "org", orgId: 0 })),
    },
    eventSource: db.prepare<{ id: string }, { body: string; repo_id: number | null; actor_id: number }>(
      HOOK_SQL.eventSource,
    ),
    latestPush: db.prepare<{ repoId: number }, { id: number }>(HOOK_SQL.latestPush),
    deliveries: db.prepare<{ hookId: number; limit: number; before: number }, DeliveryRecord>(HOOK_SQL.deliveries),
    delivery: db.prepare<{ hookId: number; id: number }, DeliveryRecord>(HOOK_SQL.delivery),
  };
}

export class SqliteHooks implements HookStore {
  private readonly s: ReturnType<typeof prepare>;
  /** The connection's own `synchronous`, set back after each claim and record (outbox). */
  private readonly strict: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.s = prepare(db);
    this.strict = db.prepare(`PRAGMA synchronous = ${Number(db.pragma("synchronous", { simple: true }))}`);
  }

  /**
   * The dispatcher's transactions (claims, attempts recorded), committed without waiting for the disk (WAL's
   * `synchronous = NORMAL`): an fsync per commit was a good part of each delivery's CPU. The database stays consistent
   * whatever happens; what a power cut can lose is the last of these commits, which only makes deliveries go out
   * again (a lease lost, or an attempt's record and its dequeue together): at least once, as always. The next commit
   * at the connection's own level (an ingest, a token) syncs the log, these commits with it.
   */
  private outbox<T>(run: () => T): T {
    this.s.relaxed.run();
    try {
      return this.db.transaction(run).immediate();
    } finally {
      this.strict.run();
    }
  }

  async create(hook: NewHook, now: Date): Promise<HookRow> {
    const { column, value } = ownerWhere(hook.owner);
    const record = this.s.insert.get({
      ...hookParameters(hook, {}, bool),
      repo: column === "repo_id" ? value : null,
      org: column === "org_id" ? value : null,
      name: hook.name,
      now: now.toISOString(),
    });
    return toHook(record!);
  }

  async find(owner: HookOwner, id: number): Promise<HookRow | null> {
    const { column, value } = ownerWhere(owner);
    const record = this.s.find[column].get({ owner: value, id });
    return record ? toHook(record) : null;
  }

  async get(id: number): Promise<HookRow | null> {
    const record = this.s.get.get({ id });
    return record ? toHook(record) : null;
  }

  async list(owner: HookOwner, { limit, offset }: PageRequest): Promise<Page<HookRow>> {
    const { column, value } = ownerWhere(owner);
    return this.db.transaction(() => ({
      rows: this.s.page[column].all({ owner: value, limit, offset }).map(toHook),
      total: this.s.count[column].get({ owner: value })!.n,
    }))();
  }

  async update(owner: HookOwner, id: number, changes: HookChanges, now: Date): Promise<HookRow | null> {
    const { column, value } = ownerWhere(owner);
    return this.db
      .transaction(() => {
        const found = this.s.find[column].get({ owner: value, id });
        if (!found) return null;
        const hook = toHook(found);
        const record = this.s.update[column].get({
          ...hookParameters(hook, changes, bool),
          owner: value,
          id,
          now: now.toISOString(),
          reactivated: bool(reactivates(hook, changes)),
        });
        return toHook(record!);
      })
      .immediate();
  }

  async delete(owner: HookOwner, id: number): Promise<boolean> {
    const { column, value } = ownerWhere(owner);
    return this.s.delete[column].run({ owner: value, id }).changes === 1;
  }

  async sealedSecrets(afterId: number, limit: number): Promise<SealedSecret[]> {
    return this.s.sealedSecrets.all({ after: afterId, limit }).map((r) => ({ hookId: r.id, sealed: r.secret }));
  }

  async reseal(id: number, from: string, to: string): Promise<boolean> {
    return this.s.reseal.run({ id, from, to }).changes === 1;
  }

  async enqueue(deliveries: NewQueuedDelivery[], now: Date): Promise<void> {
    this.db.transaction(() => this.enqueueNow(deliveries, now)).immediate();
  }

  /** Inside a transaction. */
  private enqueueNow(deliveries: NewQueuedDelivery[], now: Date): void {
    for (const d of deliveries) {
      this.s.enqueue.run({
        hookId: d.hookId,
        guid: d.guid,
        event: d.event,
        action: d.action,
        eventId: d.eventId,
        body: d.body,
        redelivery: bool(d.redelivery),
        due: now.getTime(),
        now: now.toISOString(),
      });
    }
  }

  async claim(now: number, leaseMs: number, limit: number, perHook = 1): Promise<QueuedDelivery[]> {
    // One process holds the write lock at a time, so reading the heads and leasing them cannot race another claim.
    return this.outbox(() => {
      const claimed: QueueRecord[] = [];
      for (const head of this.s.heads.all({ active: 1, now, limit })) {
        const run =
          perHook > 1
            ? [
                head,
                ...claimableBehind(
                  this.s.behind.all({ hookId: head.hook_id, after: head.id, limit: perHook - 1 }),
                  now,
                ),
              ]
            : [head];
        // A hook's run is the next ids of its queue, nothing between them: one statement leases them all.
        this.s.leaseRun.run({ hookId: head.hook_id, first: head.id, last: run.at(-1)!.id, until: now + leaseMs });
        claimed.push(...run);
      }
      return claimed.map(toQueued);
    });
  }

  async release(id: number): Promise<void> {
    this.s.release.run({ id });
  }

  async postpone(id: number, dueAt: number): Promise<void> {
    this.s.postpone.run({ id, due: dueAt });
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
    // Compressed before the transaction, which cannot wait for the thread pool (delivery-bodies.ts). On a file whose
    // write worker runs, the dispatcher's records are made there (outbox-in-worker.ts): off the event loop.
    const packed = await Promise.all(attempts.map((a) => packBody(a.attempt.request.payload)));
    return this.outbox(() => {
      const disabled = attempts.map((a, n) => this.finishNow(a, packed[n]!, attempts[n + 1]));
      for (const id of released) this.s.release.run({ id });
      return disabled;
    });
  }

  /**
   * Inside a transaction. `next`: the attempt recorded after this one, if any. When it is to the same hook, the
   * hook's updates it makes anyway are left to it: its last response replaces this one's, and, when it delivered, it
   * ends the failing streak this one would end (a run of successes updates its hook once, not once each).
   */
  private finishNow(
    { delivery, attempt, outcome, rule }: FinishedAttempt,
    packed: Buffer | null,
    next?: FinishedAttempt,
  ): boolean {
    const sameHookNext = next?.delivery.hookId === delivery.hookId;
    this.s.record.run(attemptParameters(attempt, bool, packed));
    if (!sameHookNext) this.s.lastResponse.run({ hookId: delivery.hookId, ...lastResponse(attempt) });
    if (outcome.kind === "retry") {
      this.s.retry.run({ id: delivery.id, due: outcome.dueAt, body: attempt.request.payload, action: attempt.action });
    } else this.s.dequeue.run({ id: delivery.id });
    const hookId = delivery.hookId;
    if (delivered(attempt)) {
      if (!(sameHookNext && delivered(next!.attempt))) this.s.succeeded.run({ hookId });
      return false;
    }
    this.s.failed.run({ hookId, at: attempt.deliveredAt.getTime() });
    if (!rule) return false;
    return (
      this.s.disable.run({
        hookId,
        active: 1,
        inactive: 0,
        now: attempt.deliveredAt.toISOString(),
        reason: rule.reason,
        before: rule.failingBefore,
      }).changes === 1
    );
  }

  async nextDue(now: number): Promise<number | null> {
    return this.s.nextDue.get({ active: 1, now })!.due;
  }

  async redeliverFailed(scope: RedeliveryScope, since: Date, now: Date): Promise<RedeliveryCount> {
    const found = this.db
      .transaction(() => {
        const rows = this.s.failedSince[scope.kind].all({ since: since.toISOString(), ...scopeOwner(scope) } as {
          since: string;
          owner: number;
        });
        // SQLite's transaction cannot wait: the compressed bodies are inflated in it, which keeps the read and the queueing
        // one step (no second run can queue the same failures in between).
        this.enqueueNow(
          rows.map((r) => redeliveryOf(r, unpackBodySync(r.request_body, r.request_body_gzip))),
          now,
        );
        return rows;
      })
      .immediate();
    return { queued: found.length, hooks: new Set(found.map((r) => r.hook_id)).size };
  }

  async queueStats(now: number): Promise<QueueStats> {
    const { depth, oldest } = this.s.queueStats.get({ active: 1, now })!;
    return { depth, oldestDue: oldest };
  }

  async queued(hookId: number): Promise<number> {
    return this.s.queued.get({ hookId })!.n;
  }

  async eventSource(eventId: string): Promise<EventSource | null> {
    const r = this.s.eventSource.get({ id: eventId });
    return r ? { body: r.body, repoId: r.repo_id, actorId: r.actor_id } : null;
  }

  async latestPush(repoId: number): Promise<string | null> {
    const r = this.s.latestPush.get({ repoId });
    return r ? String(r.id) : null;
  }

  async deliveries(hookId: number, limit: number, before: number | null): Promise<DeliveryRow[]> {
    return Promise.all(this.s.deliveries.all({ hookId, limit, before: before ?? NO_CURSOR }).map(toDelivery));
  }

  async delivery(hookId: number, id: number): Promise<DeliveryRow | null> {
    const record = this.s.delivery.get({ hookId, id });
    return record ? toDelivery(record) : null;
  }
}
