/** Webhooks in SQLite: the hooks, their outbox and the record of attempts (SQL in ../hook-sql.ts). */
import type Database from "better-sqlite3";
import type {
  AttemptOutcome, DeliveryAttempt, DeliveryRow, EventSource, HookChanges, HookOwner, HookRow, HookStore, NewHook, NewQueuedDelivery,
  QueuedDelivery,
} from "../hook-store.js";
import {
  attemptParameters, HOOK_SQL, hookParameters, lastResponse, NO_CURSOR, ownerWhere, toDelivery, toHook, toQueued,
  type DeliveryRecord, type HookRecord, type QueueRecord,
} from "../hook-sql.js";
import type { Page, PageRequest } from "../page.js";

const bool = (value: boolean) => (value ? 1 : 0);

export class SqliteHooks implements HookStore {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  /** Statements prepared on first use: the owner's column makes two variants of several. */
  private statement(sql: string): Database.Statement {
    let prepared = this.statements.get(sql);
    if (!prepared) this.statements.set(sql, prepared = this.db.prepare(sql));
    return prepared;
  }

  async create(hook: NewHook, now: Date): Promise<HookRow> {
    const { column, value } = ownerWhere(hook.owner);
    const record = this.statement(HOOK_SQL.insert).get({
      ...hookParameters(hook, {}, bool), repo: column === "repo_id" ? value : null, org: column === "org_id" ? value : null,
      name: hook.name, now: now.toISOString(),
    }) as HookRecord;
    return toHook(record);
  }

  async find(owner: HookOwner, id: number): Promise<HookRow | null> {
    const { column, value } = ownerWhere(owner);
    const record = this.statement(HOOK_SQL.find(column)).get({ owner: value, id }) as HookRecord | undefined;
    return record ? toHook(record) : null;
  }

  async get(id: number): Promise<HookRow | null> {
    const record = this.statement(HOOK_SQL.get).get({ id }) as HookRecord | undefined;
    return record ? toHook(record) : null;
  }

  async list(owner: HookOwner, { limit, offset }: PageRequest): Promise<Page<HookRow>> {
    const { column, value } = ownerWhere(owner);
    return this.db.transaction(() => ({
      rows: (this.statement(HOOK_SQL.page(column)).all({ owner: value, limit, offset }) as HookRecord[]).map(toHook),
      total: (this.statement(HOOK_SQL.count(column)).get({ owner: value }) as { n: number }).n,
    }))();
  }

  async update(owner: HookOwner, id: number, changes: HookChanges, now: Date): Promise<HookRow | null> {
    const { column, value } = ownerWhere(owner);
    return this.db.transaction(() => {
      const found = this.statement(HOOK_SQL.find(column)).get({ owner: value, id }) as HookRecord | undefined;
      if (!found) return null;
      const record = this.statement(HOOK_SQL.update(column)).get({
        ...hookParameters(toHook(found), changes, bool), owner: value, id, now: now.toISOString(),
      }) as HookRecord;
      return toHook(record);
    }).immediate();
  }

  async delete(owner: HookOwner, id: number): Promise<boolean> {
    const { column, value } = ownerWhere(owner);
    return this.statement(HOOK_SQL.delete(column)).run({ owner: value, id }).changes === 1;
  }

  async enqueue(deliveries: NewQueuedDelivery[], now: Date): Promise<void> {
    this.db.transaction(() => {
      for (const d of deliveries) {
        this.statement(HOOK_SQL.enqueue).run({
          hookId: d.hookId, guid: d.guid, event: d.event, action: d.action, eventId: d.eventId, body: d.body,
          redelivery: bool(d.redelivery), due: now.getTime(), now: now.toISOString(),
        });
      }
    }).immediate();
  }

  async claim(now: number, leaseMs: number, limit: number): Promise<QueuedDelivery[]> {
    // One process holds the write lock at a time, so reading the heads and leasing them cannot race another claim.
    return this.db.transaction(() => {
      const heads = this.statement(HOOK_SQL.heads).all({ active: 1, now, limit }) as QueueRecord[];
      for (const head of heads) this.statement(HOOK_SQL.lease).run({ id: head.id, until: now + leaseMs });
      return heads.map(toQueued);
    }).immediate();
  }

  async release(id: number): Promise<void> {
    this.statement(HOOK_SQL.release).run({ id });
  }

  async finish(delivery: QueuedDelivery, attempt: DeliveryAttempt, outcome: AttemptOutcome): Promise<void> {
    this.db.transaction(() => {
      this.statement(HOOK_SQL.record).run(attemptParameters(attempt, bool));
      this.statement(HOOK_SQL.lastResponse).run({ hookId: delivery.hookId, ...lastResponse(attempt) });
      if (outcome.kind === "retry") {
        this.statement(HOOK_SQL.retry).run({ id: delivery.id, due: outcome.dueAt, body: attempt.request.payload, action: attempt.action });
      }
      else this.statement(HOOK_SQL.dequeue).run({ id: delivery.id });
    }).immediate();
  }

  async nextDue(now: number): Promise<number | null> {
    return (this.statement(HOOK_SQL.nextDue).get({ active: 1, now }) as { due: number | null }).due;
  }

  async queued(hookId: number): Promise<number> {
    return (this.statement(HOOK_SQL.queued).get({ hookId }) as { n: number }).n;
  }

  async eventSource(eventId: string): Promise<EventSource | null> {
    const r = this.statement(HOOK_SQL.eventSource).get({ id: eventId }) as { body: string; repo_id: number | null; actor_id: number } | undefined;
    return r ? { body: r.body, repoId: r.repo_id, actorId: r.actor_id } : null;
  }

  async latestPush(repoId: number): Promise<string | null> {
    const r = this.statement(HOOK_SQL.latestPush).get({ repoId }) as { id: number } | undefined;
    return r ? String(r.id) : null;
  }

  async deliveries(hookId: number, limit: number, before: number | null): Promise<DeliveryRow[]> {
    return (this.statement(HOOK_SQL.deliveries).all({ hookId, limit, before: before ?? NO_CURSOR }) as DeliveryRecord[])
      .map(toDelivery);
  }

  async delivery(hookId: number, id: number): Promise<DeliveryRow | null> {
    const record = this.statement(HOOK_SQL.delivery).get({ hookId, id }) as DeliveryRecord | undefined;
    return record ? toDelivery(record) : null;
  }
}
