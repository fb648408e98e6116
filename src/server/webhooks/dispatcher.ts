/**
 * Delivers the outbox: claims the head of each hook's queue (store/hook-store.ts), builds and signs the body, POSTs
 * it, records the attempt, and retries failures with exponential backoff and jitter up to `maxAttempts` (1 with
 * `--webhook-retries github`). It paces each hook (`--webhook-rate`), reuses connections to receivers that keep them
 * open, and turns off a hook that has failed for `--webhook-disable-after`. Claims are
 * leased, so several instances share one database's queue and a crashed instance's deliveries are taken up again:
 * at least once, in order per hook. It wakes when this process queues something and otherwise looks again every
 * second, which is how it sees what other processes (an import, another instance) queued.
 */
import { createHmac } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.js";
import type { DeliveryAttempt, DisableRule, HookRow, QueuedDelivery } from "../store/hook-store.js";
import type { Store } from "../store/store.js";
import type { AddressPolicy } from "./address-policy.js";
import type { WebhookMetrics } from "./metrics.js";
import type { PayloadBuilder } from "./payload.js";
import type { SecretBox } from "./secret-box.js";
import { ReceiverAgents, send, type SendOutcome } from "./send.js";
import { HookThrottle } from "./throttle.js";

export interface DispatchSettings {
  /** Attempts in all, the first included; 1 behaves as GitHub (no automatic retry). */
  maxAttempts: number;
  maxBackoffMs: number;
  /** GitHub's 10 seconds. */
  timeoutMs: number;
  /** null: every destination. */
  policy: AddressPolicy | null;
  /** A hook failing every attempt for this long is made inactive; 0: never. */
  disableAfterMs: number;
  /** Deliveries per second to one hook at most; 0: no limit. */
  ratePerSecond: number;
}

/** Deliveries in flight at once, each to a different hook. */
const CONCURRENCY = 16;
/** How often the queue is looked at when nothing woke the dispatcher: what other processes queued arrives this late. */
const POLL_MS = 1000;
/** A claim outlives the longest attempt by far; a claimer gone for this long has died, and its claims pass on. */
const LEASE_MS = 60_000;
/** The first retry's delay; each further one doubles it. */
const FIRST_RETRY_MS = 1000;

/** `attempt`: attempts made so far (1 after the first). About 1 s, 2 s, 4 s ... up to the cap, each within +-20%. */
export function backoffMs(attempt: number, maxBackoffMs: number, random = Math.random): number {
  const base = Math.min(maxBackoffMs, FIRST_RETRY_MS * 2 ** (attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** GitHub's `X-Hub-Signature` (sha1) and `X-Hub-Signature-256` values: the HMAC of the exact bytes sent. */
export const signature = (algorithm: "sha1" | "sha256", secret: string, body: Buffer) =>
  `${algorithm}=${createHmac(algorithm, secret).update(body).digest("hex")}`;

export class Dispatcher {
  private readonly inFlight = new Set<Promise<void>>();
  /**
   * The queue rows of those attempts. Leases are reckoned on the server's clock, and a test that advances it past a
   * lease while the attempt is still on the wire must not see the delivery claimed again and sent twice.
   */
  private readonly inFlightIds = new Set<number>();
  /** Told of every attempt once recorded (the test controls' `GET /_feedgate/deliveries`). */
  private readonly attemptListeners = new Set<(attempt: DeliveryAttempt) => void>();
  /** Cuts the attempts in flight short when the server stops: their claims are given back, not waited for. */
  private readonly stopping = new AbortController();
  private stopped = false;
  private running: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private readonly throttle: HookThrottle;
  /** Connections kept open to receivers that allow it, closed when the dispatcher stops. */
  private readonly agents = new ReceiverAgents();

  /** @param baseUrl the API's absolute base, for the URLs inside bodies. */
  constructor(private readonly store: Store, private readonly payloads: PayloadBuilder, private readonly secrets: SecretBox,
    private readonly settings: DispatchSettings, private readonly baseUrl: () => string, private readonly log: FastifyBaseLogger,
    private readonly clock: Clock, private readonly metrics?: WebhookMetrics) {
    this.throttle = new HookThrottle(settings.ratePerSecond);
  }

  onAttempt(listener: (attempt: DeliveryAttempt) => void): () => void {
    this.attemptListeners.add(listener);
    return () => this.attemptListeners.delete(listener);
  }

  start(): void {
    this.running ??= this.loop();
  }

  /** Something was queued: look now rather than at the next poll. */
  wake(): void {
    this.wakeUp?.();
  }

  /**
   * Stops claiming, cuts the attempts in flight short and gives their claims back, so that a stopping server does not
   * wait out a slow receiver and the next instance (or this one restarted) sends them at once. A receiver that had
   * already taken one gets it again: delivery is at least once.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    this.wake();
    await this.running;
    await Promise.all(this.inFlight);
    this.agents.destroy();
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const free = CONCURRENCY - this.inFlight.size;
      const claimed = free > 0 ? await this.store.hooks.claim(this.clock().getTime(), LEASE_MS, free).catch((error: unknown) => {
        this.log.warn({ err: error }, "webhooks: could not claim deliveries; trying again");
        return [];
      }) : [];
      for (const delivery of claimed) {
        if (this.inFlightIds.has(delivery.id)) continue; // its lease ran out on a moved clock: still ours, on the wire
        this.inFlightIds.add(delivery.id);
        const attempt = this.attempt(delivery).catch((error: unknown) => {
          // The attempt's record could not be written: the lease runs out and the delivery is tried again.
          this.log.warn({ err: error, hook: delivery.hookId }, "webhooks: delivery not recorded; it will be tried again");
        }).finally(() => {
          this.inFlight.delete(attempt);
          this.inFlightIds.delete(delivery.id);
          this.wake();
        });
        this.inFlight.add(attempt);
      }
      if (claimed.length === free && free > 0) continue;
      // Every slot busy: the next completion wakes the loop; nothing to ask the database until then.
      await this.sleep(free === claimed.length ? POLL_MS : await this.untilDue());
    }
  }

  private async untilDue(): Promise<number> {
    const now = this.clock().getTime();
    const due = await this.store.hooks.nextDue(now).catch(() => null);
    return due === null ? POLL_MS : Math.max(0, Math.min(POLL_MS, due - now));
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const self = this;
      function done() {
        clearTimeout(timer);
        self.wakeUp = undefined;
        resolve();
      }
      this.wakeUp = done;
    });
  }

  private async attempt(delivery: QueuedDelivery): Promise<void> {
    const hook = await this.store.hooks.get(delivery.hookId);
    if (!hook) return; // deleted meanwhile, its queue with it
    const wait = this.throttle.take(hook.id, this.clock().getTime());
    // Given back, due when the hook's next slot comes: the loop sleeps until then (nextDue), holding no claim.
    if (wait > 0) return this.store.hooks.postpone(delivery.id, this.clock().getTime() + wait);
    let { body, action } = delivery;
    if (body === null) {
      // Events are never deleted, so an event delivery always has its event.
      const built = (await this.payloads.forEvent(delivery.eventId!, this.baseUrl()))!;
      ({ body, action } = built); // kept by finish() for the retries
    }
    let secret: string | null = null;
    try {
      secret = hook.config.sealedSecret === null ? null : this.secrets.open(hook.config.sealedSecret);
    } catch {
      // This instance's key is not the one the secret was sealed with (a key file not shared, or replaced): a failed
      // attempt, retried as any other, so that an instance holding the right key may make the next one.
      return this.record(delivery, hook, { ...delivery, body, action }, {}, this.clock(), {
        statusCode: 0, seconds: 0, responseHeaders: {}, responseBody: null,
        status: "the hook's secret cannot be opened with this instance's --webhook-key-file",
      });
    }
    const bytes = Buffer.from(hook.config.contentType === "json" ? body : `payload=${encodeURIComponent(body)}`);
    const headers = this.headers(delivery, hook, body, bytes, secret);
    const deliveredAt = this.clock();
    const outcome = await send(hook.config.url, headers, bytes, {
      timeoutMs: this.settings.timeoutMs, insecure: hook.config.insecureSsl === "1", policy: this.settings.policy,
      signal: this.stopping.signal, agents: this.agents,
    });
    if (outcome.cancelled) return this.store.hooks.release(delivery.id);
    await this.record(delivery, hook, { ...delivery, body, action }, headers, deliveredAt, outcome);
  }

  private headers(delivery: QueuedDelivery, hook: HookRow, body: string, bytes: Buffer, secret: string | null): Record<string, string> {
    const target = hook.owner.kind === "repo"
      ? { type: "repository", id: repositoryIdOf(body) ?? hook.owner.repoId } : { type: "organization", id: hook.owner.orgId };
    return {
      "Accept": "*/*",
      "Content-Type": hook.config.contentType === "json" ? "application/json" : "application/x-www-form-urlencoded",
      "User-Agent": "GitHub-Hookshot/feedgate",
      "X-GitHub-Delivery": delivery.guid,
      "X-GitHub-Event": delivery.event,
      "X-GitHub-Hook-ID": String(hook.id),
      "X-GitHub-Hook-Installation-Target-ID": String(target.id),
      "X-GitHub-Hook-Installation-Target-Type": target.type,
      ...(secret === null ? {} : { "X-Hub-Signature": signature("sha1", secret, bytes), "X-Hub-Signature-256": signature("sha256", secret, bytes) }),
    };
  }

  private async record(queued: QueuedDelivery, hook: HookRow, sent: QueuedDelivery & { body: string }, headers: Record<string, string>,
    deliveredAt: Date, outcome: SendOutcome): Promise<void> {
    const made = queued.attempts + 1;
    const delivered = outcome.statusCode >= 200 && outcome.statusCode < 300;
    const last = delivered || made >= this.settings.maxAttempts;
    if (!delivered) {
      this.log.warn({ hook: hook.id, delivery: queued.guid, event: queued.event, attempt: made, status: outcome.status },
        last ? "webhooks: delivery failed for the last time" : "webhooks: delivery failed; retrying");
    }
    const attempt: DeliveryAttempt = {
      // GitHub's `redelivery` is a delivery someone asked for again: the first attempt of one, never an automatic retry.
      hookId: hook.id, guid: queued.guid, deliveredAt, redelivery: queued.redelivery && queued.attempts === 0, duration: outcome.seconds,
      status: outcome.status, statusCode: outcome.statusCode, event: queued.event, action: sent.action,
      repositoryId: repositoryIdOf(sent.body), url: hook.config.url,
      request: { headers, payload: sent.body },
      response: { headers: outcome.responseHeaders, payload: outcome.responseBody },
    };
    const after = this.settings.disableAfterMs;
    const rule: DisableRule | null = after > 0
      ? { failingBefore: this.clock().getTime() - after, reason: `every delivery failed for ${spoken(after)}; the last: ${outcome.status}` }
      : null;
    const disabled = await this.store.hooks.finish(queued, attempt,
      last ? { kind: "done" } : { kind: "retry", dueAt: this.clock().getTime() + backoffMs(made, this.settings.maxBackoffMs) }, rule);
    if (last) {
      this.metrics?.deliveries.inc({ result: delivered ? "delivered" : "failed" });
      this.metrics?.attempts.observe(made);
    }
    if (disabled) {
      this.metrics?.hooksDisabled.inc();
      // The hook's id, not its URL: a URL may carry credentials.
      this.log.warn({ hook: hook.id, reason: rule!.reason },
        "webhooks: hook disabled (active: false) for failing; set it active again to resume its deliveries");
    }
    for (const listener of this.attemptListeners) listener(attempt);
  }
}

/** `5 days`, `2 hours`, `90 seconds`: a duration as the log and the console say it. */
function spoken(ms: number): string {
  for (const [unit, size] of [["day", 86_400_000], ["hour", 3_600_000], ["minute", 60_000], ["second", 1000]] as const) {
    if (ms % size === 0) return `${ms / size} ${unit}${ms === size ? "" : "s"}`;
  }
  return `${ms} ms`;
}

/** The `repository.id` a body carries (GitHub's delivery `repository_id`), without trusting its shape. */
function repositoryIdOf(body: string): number | null {
  try {
    const id = (JSON.parse(body) as { repository?: { id?: unknown } } | null)?.repository?.id;
    return typeof id === "number" ? id : null;
  } catch {
    return null; // a redelivered body is whatever the record kept; it must not stop the hook's queue
  }
}
