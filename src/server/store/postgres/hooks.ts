/** Webhooks in PostgreSQL: the hooks, their outbox and the record of attempts (SQL in ../hook-sql.ts). */
import type pg from "pg";
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
  type QueueRecord,
} from "../hook-sql.js";
import type { Page, PageRequest } from "../page.js";
import { POSTGRES_VALUES } from "../sql-values.js";
import { named, transaction, type Queryable } from "./pool.js";
import { packBody, unpackBody } from "../delivery-bodies.js";

const { bool } = POSTGRES_VALUES;

async function query<R extends pg.QueryResultRow>(
  db: Queryable,
  sql: string,
  parameters: Record<string, unknown>,
): Promise<R[]> {
  return (await db.query<R>(named(sql, parameters))).rows;
}

/** Held by a bulk redelivery's transaction (store/hook-store.ts redeliverFailed). */
const REDELIVERY_LOCK = "hashtext('feedgate:redeliver-failed')";

/** HOOK_SQL.lease for every row a claim takes, in one statement. */
const LEASE_ALL = "UPDATE hook_queue SET claimed_until = @until WHERE id = ANY(@ids)";

/** One attempt of finishAll, inside its transaction: true when it disabled its hook. */
async function finishIn(
  client: Queryable,
  { delivery, attempt, outcome, rule }: FinishedAttempt,
  packed: Buffer | null,
): Promise<boolean> {
  await query(client, HOOK_SQL.record, attemptParameters(attempt, bool, packed));
  await query(client, HOOK_SQL.lastResponse, { hookId: delivery.hookId, ...lastResponse(attempt) });
  if (outcome.kind === "retry") {
    await query(client, HOOK_SQL.retry, {
      id: delivery.id,
      due: outcome.dueAt,
      body: attempt.request.payload,
      action: attempt.action,
    });
  } else await query(client, HOOK_SQL.dequeue, { id: delivery.id });
  const hookId = delivery.hookId;
  if (delivered(attempt)) {
    await query(client, HOOK_SQL.succeeded, { hookId });
    return false;
  }
  await query(client, HOOK_SQL.failed, { hookId, at: attempt.deliveredAt.getTime() });
  if (!rule) return false;
  const disabled = await client.query(
    named(HOOK_SQL.disable, {
      hookId,
      active: true,
      inactive: false,
      now: attempt.deliveredAt,
      reason: rule.reason,
      before: rule.failingBefore,
    }),
  );
  return disabled.rowCount === 1;
}

async function enqueueIn(client: Queryable, deliveries: NewQueuedDelivery[], now: Date): Promise<void> {
  for (const d of deliveries) {
    await query(client, HOOK_SQL.enqueue, {
      hookId: d.hookId,
      guid: d.guid,
      event: d.event,
      action: d.action,
      eventId: d.eventId,
      body: d.body,
      redelivery: d.redelivery,
      due: now.getTime(),
      now,
    });
  }
}

export class PostgresHooks implements HookStore {
  constructor(private readonly pool: pg.Pool) {}

  async create(hook: NewHook, now: Date): Promise<HookRow> {
    const { column, value } = ownerWhere(hook.owner);
    const [record] = await query<HookRecord>(this.pool, HOOK_SQL.insert, {
      ...hookParameters(hook, {}, bool),
      repo: column === "repo_id" ? value : null,
      org: column === "org_id" ? value : null,
      name: hook.name,
      now,
    });
    return toHook(record!);
  }

  async find(owner: HookOwner, id: number): Promise<HookRow | null> {
    const { column, value } = ownerWhere(owner);
    const [record] = await query<HookRecord>(this.pool, HOOK_SQL.find(column), { owner: value, id });
    return record ? toHook(record) : null;
  }

  async get(id: number): Promise<HookRow | null> {
    const [record] = await query<HookRecord>(this.pool, HOOK_SQL.get, { id });
    return record ? toHook(record) : null;
  }

  async list(owner: HookOwner, { limit, offset }: PageRequest): Promise<Page<HookRow>> {
    const { column, value } = ownerWhere(owner);
    // One snapshot, so the rows and the total agree.
    return transaction(
      this.pool,
      async (client) => ({
        rows: (await query<HookRecord>(client, HOOK_SQL.page(column), { owner: value, limit, offset })).map(toHook),
        total: Number((await query<{ n: number }>(client, HOOK_SQL.count(column), { owner: value }))[0]!.n),
      }),
      "REPEATABLE READ",
    );
  }

  async update(owner: HookOwner, id: number, changes: HookChanges, now: Date): Promise<HookRow | null> {
    const { column, value } = ownerWhere(owner);
    return transaction(this.pool, async (client) => {
      const [found] = await query<HookRecord>(client, `${HOOK_SQL.find(column)} FOR UPDATE`, { owner: value, id });
      if (!found) return null;
      const hook = toHook(found);
      const [record] = await query<HookRecord>(client, HOOK_SQL.update(column), {
        ...hookParameters(hook, changes, bool),
        owner: value,
        id,
        now,
        reactivated: reactivates(hook, changes),
      });
      return toHook(record!);
    });
  }

  async delete(owner: HookOwner, id: number): Promise<boolean> {
    const { column, value } = ownerWhere(owner);
    return (await this.pool.query(named(HOOK_SQL.delete(column), { owner: value, id }))).rowCount === 1;
  }

  async sealedSecrets(afterId: number, limit: number): Promise<SealedSecret[]> {
    const rows = await query<{ id: number; secret: string }>(this.pool, HOOK_SQL.sealedSecrets, {
      after: afterId,
      limit,
    });
    return rows.map((r) => ({ hookId: Number(r.id), sealed: r.secret }));
  }

  async reseal(id: number, from: string, to: string): Promise<boolean> {
    return (await this.pool.query(named(HOOK_SQL.reseal, { id, from, to }))).rowCount === 1;
  }

  async enqueue(deliveries: NewQueuedDelivery[], now: Date): Promise<void> {
    await transaction(this.pool, (client) => enqueueIn(client, deliveries, now));
  }

  async claim(now: number, leaseMs: number, limit: number, perHook = 1): Promise<QueuedDelivery[]> {
    // Rows another instance is claiming are skipped, not waited for; once leased, the heads query leaves them out. The
    // rows behind a head need no lock: another claimer skips the locked head, and so its hook.
    return transaction(this.pool, async (client) => {
      const claimed: QueueRecord[] = [];
      for (const head of await query<QueueRecord>(client, `${HOOK_SQL.heads} FOR UPDATE OF q SKIP LOCKED`, {
        active: true,
        now,
        limit,
      })) {
        claimed.push(head);
        if (perHook > 1) {
          claimed.push(
            ...claimableBehind(
              await query<QueueRecord>(client, HOOK_SQL.behind, {
                hookId: head.hook_id,
                after: head.id,
                limit: perHook - 1,
              }),
              now,
            ),
          );
        }
      }
      if (claimed.length) await query(client, LEASE_ALL, { ids: claimed.map((r) => r.id), until: now + leaseMs });
      return claimed.map(toQueued);
    });
  }

  async release(id: number): Promise<void> {
    await query(this.pool, HOOK_SQL.release, { id });
  }

  async postpone(id: number, dueAt: number): Promise<void> {
    await query(this.pool, HOOK_SQL.postpone, { id, due: dueAt });
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
    const packed = await Promise.all(attempts.map((a) => packBody(a.attempt.request.payload)));
    return transaction(this.pool, async (client) => {
      const disabled: boolean[] = [];
      for (const [n, a] of attempts.entries()) disabled.push(await finishIn(client, a, packed[n]!));
      for (const id of released) await query(client, HOOK_SQL.release, { id });
      return disabled;
    });
  }

  async redeliverFailed(scope: RedeliveryScope, since: Date, now: Date): Promise<RedeliveryCount> {
    const found = await transaction(this.pool, async (client) => {
      // Two bulk redeliveries at once take turns: the second sees the first's rows in the queue and skips them.
      await client.query(`SELECT pg_advisory_xact_lock(${REDELIVERY_LOCK})`);
      const rows = await query<DeliveryRecord>(client, failedSinceSql(scope), { since, ...scopeOwner(scope) });
      const bodies = await Promise.all(rows.map((r) => unpackBody(r.request_body, r.request_body_gzip)));
      await enqueueIn(
        client,
        rows.map((r, n) => redeliveryOf(r, bodies[n]!)),
        now,
      );
      return rows;
    });
    return { queued: found.length, hooks: new Set(found.map((r) => r.hook_id)).size };
  }

  async queueStats(now: number): Promise<QueueStats> {
    const [row] = await query<{ depth: number; oldest: number | null }>(this.pool, HOOK_SQL.queueStats, {
      active: true,
      now,
    });
    return { depth: Number(row!.depth), oldestDue: row!.oldest === null ? null : Number(row!.oldest) };
  }

  async nextDue(now: number): Promise<number | null> {
    const [row] = await query<{ due: number | null }>(this.pool, HOOK_SQL.nextDue, { active: true, now });
    return row?.due ?? null;
  }

  async queued(hookId: number): Promise<number> {
    return Number((await query<{ n: number }>(this.pool, HOOK_SQL.queued, { hookId }))[0]!.n);
  }

  async eventSource(eventId: string): Promise<EventSource | null> {
    const [r] = await query<{ body: string; repo_id: number | null; actor_id: number }>(
      this.pool,
      HOOK_SQL.eventSource,
      { id: eventId },
    );
    return r ? { body: r.body, repoId: r.repo_id, actorId: r.actor_id } : null;
  }

  async latestPush(repoId: number): Promise<string | null> {
    const [r] = await query<{ id: number }>(this.pool, HOOK_SQL.latestPush, { repoId });
    return r ? String(r.id) : null;
  }

  async deliveries(hookId: number, limit: number, before: number | null): Promise<DeliveryRow[]> {
    return Promise.all(
      (await query<DeliveryRecord>(this.pool, HOOK_SQL.deliveries, { hookId, limit, before: before ?? NO_CURSOR })).map(
        toDelivery,
      ),
    );
  }

  async delivery(hookId: number, id: number): Promise<DeliveryRow | null> {
    const [record] = await query<DeliveryRecord>(this.pool, HOOK_SQL.delivery, { hookId, id });
    return record ? toDelivery(record) : null;
  }
}
