/**
 * What the webhooks need from persistence: the hooks themselves (GitHub's repository and organization hooks API),
 * their outbox (deliveries still to make, claimed by one dispatcher at a time), and the record of every attempt.
 */
import type { Page, PageRequest } from "./page.js";

/**
 * A hook belongs to one repository, one organization, or one GitHub App (its webhook, receiving what its
 * installations subscribe to).
 */
export type HookOwner =
  | { kind: "repo"; repoId: number }
  | { kind: "org"; orgId: number }
  | { kind: "app"; appId: number };

export type ContentType = "json" | "form";

export interface HookConfig {
  url: string;
  contentType: ContentType;
  /** GitHub's `insecure_ssl`: "0" verifies the receiver's certificate, "1" does not. */
  insecureSsl: "0" | "1";
  /** The secret sealed (webhooks/secret-box.ts): unreadable from the database alone; null when none is set. */
  sealedSecret: string | null;
}

export interface HookRow {
  id: number;
  owner: HookOwner;
  /** Always "web" for repository and organization hooks. */
  name: string;
  active: boolean;
  /** Webhook event names (`push`, `issues`, ...) or `*`. */
  events: string[];
  config: HookConfig;
  createdAt: Date;
  updatedAt: Date;
  /** The last delivery's outcome, GitHub's `last_response`: status "unused" before any. */
  lastResponse: { code: number | null; status: string; message: string | null };
  /** When every attempt since began to fail (the first failure after its last success); null while it succeeds. */
  failingSince: Date | null;
  /** Set when --webhook-disable-after made the hook inactive: when, and why; null otherwise (and once reactivated). */
  disabled: { at: Date; reason: string } | null;
}

/** A hook's secret as stored, sealed. */
export interface SealedSecret {
  hookId: number;
  sealed: string;
}

export type NewHook = Omit<HookRow, "id" | "createdAt" | "updatedAt" | "lastResponse" | "failingSince" | "disabled">;

export interface HookChanges {
  active?: boolean;
  events?: string[];
  config?: HookConfig;
}

export interface EventSource {
  body: string;
  repoId: number | null;
  actorId: number;
}

/** A delivery still to make: a row of the outbox. */
export interface QueuedDelivery {
  id: number;
  hookId: number;
  /** Shared by every delivery of the same event, to every hook (GitHub's `guid`), and kept by retries. */
  guid: string;
  /** The webhook event name (`X-GitHub-Event`). */
  event: string;
  action: string | null;
  /** The stored event it announces; null for `ping` and other deliveries whose body is made when queued. */
  eventId: string | null;
  /** The exact bytes' JSON, made at the first attempt (or when queued) and sent unchanged by every retry. */
  body: string | null;
  redelivery: boolean;
  /** Attempts made so far. */
  attempts: number;
  /** To an app's hook: the installation it is for, which the payload names (`installation`); null otherwise. */
  installationId: number | null;
}

/** A delivery to queue; `installationId` only for an app's hook. */
export type NewQueuedDelivery = Omit<QueuedDelivery, "id" | "attempts" | "installationId"> & {
  installationId?: number | null;
};

/** One attempt, as GitHub's hook-delivery object shows it. */
export interface DeliveryAttempt {
  hookId: number;
  guid: string;
  deliveredAt: Date;
  redelivery: boolean;
  /** Seconds. */
  duration: number;
  /** "OK", "Invalid HTTP Response: 500", "timed out", ... */
  status: string;
  /** The receiver's HTTP status; 0 when none came. */
  statusCode: number;
  event: string;
  action: string | null;
  /** The repository's wire id; null for organization events without one. */
  repositoryId: number | null;
  url: string;
  request: { headers: Record<string, string>; payload: string };
  response: { headers: Record<string, string>; payload: string | null };
}

export interface DeliveryRow extends DeliveryAttempt {
  id: number;
}

/** What to do with a queued delivery after an attempt. */
export type AttemptOutcome =
  | { kind: "done" } // delivered, or failed for the last time: it leaves the queue
  | { kind: "retry"; dueAt: number }; // epoch ms

/** --webhook-disable-after, as an attempt's outcome is recorded: a failing hook failing since `before` is turned off. */
export interface DisableRule {
  /** Epoch ms: a hook whose failures began at or before this is made inactive by a failed attempt. */
  failingBefore: number;
  /** Why, as the console shows it. */
  reason: string;
}

/** An attempt to record (HookStore.finishAll): the delivery, the attempt, what follows, and the disabling rule if any. */
export interface FinishedAttempt {
  delivery: QueuedDelivery;
  attempt: DeliveryAttempt;
  outcome: AttemptOutcome;
  rule?: DisableRule | null;
}

/** Whose failed deliveries a bulk redelivery takes: every hook's, a repository's hooks', or an organization's hooks'. */
export type RedeliveryScope = { kind: "all" } | HookOwner;

export interface RedeliveryCount {
  /** Deliveries queued again. */
  queued: number;
  /** Hooks they were queued for. */
  hooks: number;
}

/** What /metrics shows of the outbox. */
export interface QueueStats {
  /** Deliveries queued, in flight included. */
  depth: number;
  /** Epoch ms at which the delivery due longest ago (of an active hook) fell due; null when none is due. */
  oldestDue: number | null;
}

export interface HookStore {
  create(hook: NewHook, now: Date): Promise<HookRow>;
  /** The owner's hook with that id, or null (another owner's id is null too). */
  find(owner: HookOwner, id: number): Promise<HookRow | null>;
  /** Any hook by id, whoever owns it: for the dispatcher, never for a request. */
  get(id: number): Promise<HookRow | null>;
  /** The owner's hooks, oldest first. */
  list(owner: HookOwner, page: PageRequest): Promise<Page<HookRow>>;
  /** Applies the changes and moves updated_at; null when the owner has no such hook. */
  update(owner: HookOwner, id: number, changes: HookChanges, now: Date): Promise<HookRow | null>;
  /** Deletes the hook, its queued deliveries and its record; true when there was one. */
  delete(owner: HookOwner, id: number): Promise<boolean>;
  /** Every hook's sealed secret, by hook id after `afterId`, at most `limit`: `feedgate keys rotate` walks them. */
  sealedSecrets(afterId: number, limit: number): Promise<SealedSecret[]>;
  /**
   * Replaces a hook's sealed secret with the same secret sealed under another key, only if it is still `from` (a
   * secret changed meanwhile through the API is left alone); true when replaced. `updated_at` stays: the hook is unchanged.
   */
  reseal(id: number, from: string, to: string): Promise<boolean>;

  /** Queues deliveries made outside an ingest (ping, test, redelivery), due now. */
  enqueue(deliveries: NewQueuedDelivery[], now: Date): Promise<void>;
  /**
   * Claims due deliveries for `leaseMs`: for each active hook (at most `limit` hooks), the oldest in its queue, so that a
   * hook's deliveries keep their order; one not claimed by anyone else (PostgreSQL: FOR UPDATE SKIP LOCKED). With
   * `perHook` > 1, each head is followed by the deliveries queued behind it, up to `perHook` in all, as long as they
   * are due and unclaimed: a hook's next deliveries, in its order, leased alike (whoever holds a hook's head holds its
   * queue, since nobody claims behind a leased head). The result lists each hook's deliveries together, head first.
   */
  claim(now: number, leaseMs: number, limit: number, perHook?: number): Promise<QueuedDelivery[]>;
  /** Gives a claim back unattempted (a stopping server cut its attempt short): the next claimer takes it at once. */
  release(id: number): Promise<void>;
  /** Gives a claim back unattempted, due again at `dueAt` (epoch ms): --webhook-rate held its hook back. */
  postpone(id: number, dueAt: number): Promise<void>;
  /**
   * Records the attempt, updates the hook's last response, and retries or removes the delivery, in one transaction.
   * A retried delivery keeps the body the attempt sent (`attempt.request.payload`), so every retry sends the same bytes.
   * It also keeps the hook's failing streak (a success ends it, a failure starts it when none was running) and, with a
   * rule, makes a hook failing since `rule.failingBefore` inactive: true when this attempt disabled it.
   */
  finish(
    delivery: QueuedDelivery,
    attempt: DeliveryAttempt,
    outcome: AttemptOutcome,
    rule?: DisableRule | null,
  ): Promise<boolean>;
  /**
   * finish() for several attempts, in the order given, and release() for the claims in `released`, all in one
   * transaction: a dispatcher records what it sent to a hook in one go. Answers, attempt by attempt, whether it
   * disabled its hook.
   */
  finishAll(attempts: FinishedAttempt[], released?: number[]): Promise<boolean[]>;
  /**
   * Queues again, as redeliveries, the failed deliveries (by hook and GUID) attempted since `since`: each once, its
   * last failed attempt's body, and none that is queued already (a retry or a redelivery still to make) or that any
   * attempt delivered. In one transaction, so two calls at once cannot queue one delivery twice.
   */
  redeliverFailed(scope: RedeliveryScope, since: Date, now: Date): Promise<RedeliveryCount>;
  /** The outbox's depth and its oldest due delivery, for /metrics. */
  queueStats(now: number): Promise<QueueStats>;
  /**
   * When a delivery can next be claimed (epoch ms): a head of a hook's queue falling due, or its lease running out;
   * null when nothing is queued. How long a dispatcher may sleep.
   */
  nextDue(now: number): Promise<number | null>;
  /** The deliveries queued for a hook (in flight included). */
  queued(hookId: number): Promise<number>;

  /** A stored event as a delivery announces it: its JSON and the rows it names; null when there is no such event. */
  eventSource(eventId: string): Promise<EventSource | null>;
  /**
   * Whether an active hook of the repository or of its owning organization exists: when none does, an action makes
   * no webhook body at all (building one reads the repository's whole object).
   */
  hasActiveHook(repoId: number): Promise<boolean>;
  /** The repository's newest PushEvent (`POST .../hooks/:id/tests` delivers it). */
  latestPush(repoId: number): Promise<string | null>;

  /** The hook's attempts, newest first, `before` an id (GitHub's cursor). */
  deliveries(hookId: number, limit: number, before: number | null): Promise<DeliveryRow[]>;
  delivery(hookId: number, id: number): Promise<DeliveryRow | null>;
}
