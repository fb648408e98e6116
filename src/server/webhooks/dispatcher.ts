/**
 * Delivers the outbox: claims the head of each hook's queue with the deliveries behind it (store/hook-store.ts), and
 * for each in turn builds and signs the body and POSTs it; records the run's attempts in one transaction, and retries failures with exponential backoff and jitter up to `maxAttempts` (1 with
 * `--webhook-retries github`). It paces each hook (`--webhook-rate`), reuses connections to receivers that keep them
 * open, and turns off a hook that has failed for `--webhook-disable-after`. Claims are
 * leased, so several instances share one database's queue and a crashed instance's deliveries are taken up again:
 * at least once, in order per hook. It wakes when this process queues something and otherwise looks again every
 * second, which is how it sees what other processes (an import, another instance) queued.
 */
import { createHmac } from "node:crypto";
import { setMaxListeners } from "node:events";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.js";
import type { DeliveryAttempt, DisableRule, FinishedAttempt, HookRow, QueuedDelivery } from "../store/hook-store.js";
import type { Store } from "../store/store.js";
import type { AddressPolicy } from "./address-policy.js";
import type { WebhookMetrics } from "./metrics.js";
import { ContextCache, type PayloadBuilder, withInstallation } from "./payload.js";
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
/**
 * Deliveries of one hook claimed and sent in one go, recorded in one transaction: a backlog costs a claim, a record
 * and a read of the repository's objects per run, not per delivery (at 16 these were still a tenth of a delivery's
 * CPU in a flood). Its order is kept: they are sent one after the other, and a failure ends the run.
 */
const PER_HOOK = 64;
/** Unsealed secrets kept in memory (by sealed value); past this many the cache starts afresh. */
const SECRETS_KEPT = 10_000;
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

/** What the dispatcher claims from, signs with and reports to. */
export interface DispatcherParts {
  store: Store;
  payloads: PayloadBuilder;
  secrets: SecretBox;
  settings: DispatchSettings;
  /** The API's absolute base, for the URLs inside bodies. */
  baseUrl: () => string;
  log: FastifyBaseLogger;
  clock: Clock;
  metrics?: WebhookMetrics;
}

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
  /** Hooks' secrets opened, by their sealed value (openSecret). */
  private readonly openedSecrets = new Map<string, string>();

  private readonly store: Store;
  private readonly payloads: PayloadBuilder;
  private readonly secrets: SecretBox;
  private readonly settings: DispatchSettings;
  private readonly baseUrl: () => string;
  private readonly log: FastifyBaseLogger;
  private readonly clock: Clock;
  private readonly metrics: WebhookMetrics | undefined;

  constructor(parts: DispatcherParts) {
    ({
      store: this.store,
      payloads: this.payloads,
      secrets: this.secrets,
      settings: this.settings,
      baseUrl: this.baseUrl,
      log: this.log,
      clock: this.clock,
      metrics: this.metrics,
    } = parts);
    this.throttle = new HookThrottle(parts.settings.ratePerSecond);
    // Each attempt in flight listens for the stop (and stops listening when done): up to CONCURRENCY at once, past
    // Node's default of 10, whose warning ("possible memory leak") would be a false alarm in the server's log.
    setMaxListeners(CONCURRENCY, this.stopping.signal);
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
      // Paced hooks take one delivery at a time: the throttle holds back the next one anyway.
      const perHook = this.settings.ratePerSecond > 0 ? 1 : PER_HOOK;
      const claimed =
        free > 0
          ? await this.store.hooks.claim(this.clock().getTime(), LEASE_MS, free, perHook).catch((error: unknown) => {
              this.log.warn({ err: error }, "webhooks: could not claim deliveries; trying again");
              return [];
            })
          : [];
      const runs = byHook(claimed);
      for (const run of runs) {
        if (this.inFlightIds.has(run[0]!.id)) {
          // Its lease ran out on a moved clock: still ours, on the wire. What this claim took behind it is given back,
          // or it would stay leased while the clock stands still.
          this.giveBack(run.filter((d) => !this.inFlightIds.has(d.id)).map((d) => d.id));
          continue;
        }
        for (const delivery of run) this.inFlightIds.add(delivery.id);
        const sending = this.sendRun(run)
          .catch((error: unknown) => {
            // The run failed before its attempts were recorded (the record could not be written, or a body not
            // built): its claims are given back, so the deliveries are tried again at the next claim. Were they left
            // to their leases, a clock that stands still (a test's) would hold them for ever.
            this.log.warn(
              { err: error, hook: run[0]!.hookId },
              "webhooks: delivery not recorded; it will be tried again",
            );
            this.giveBack(run.map((d) => d.id));
          })
          .finally(() => {
            this.inFlight.delete(sending);
            for (const delivery of run) this.inFlightIds.delete(delivery.id);
            this.wake();
          });
        this.inFlight.add(sending);
      }
      if (runs.length === free && free > 0) continue;
      // Every slot busy: the next completion wakes the loop; nothing to ask the database until then.
      await this.sleep(free === runs.length ? POLL_MS : await this.untilDue());
    }
  }

  private giveBack(ids: number[]): void {
    if (!ids.length) return;
    this.store.hooks.finishAll([], ids).catch((error: unknown) => {
      this.log.warn({ err: error }, "webhooks: claims not given back; they pass on when their lease runs out");
    });
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

  /**
   * Sends a hook's claimed deliveries one after the other, in their order, and records them in one transaction. The
   * run stops at the first that fails (it is retried before any behind it), that the throttle holds back, or when the
   * server stops or the run has taken long enough for its lease to be at risk: the deliveries not sent are given back.
   */
  private async sendRun(run: QueuedDelivery[]): Promise<void> {
    const hook = await this.store.hooks.get(run[0]!.hookId);
    if (!hook) return; // deleted meanwhile, its queue with it
    const started = this.clock().getTime();
    const contexts = new ContextCache();
    const baseUrl = this.baseUrl();
    const finished: Sent[] = [];
    let next = 0;
    for (; next < run.length; next++) {
      const delivery = run[next]!;
      if (next > 0 && (this.stopped || this.clock().getTime() - started > LEASE_MS / 4)) break;
      const wait = this.throttle.take(hook.id, this.clock().getTime());
      if (wait > 0) {
        if (next > 0) break; // given back behind what was sent: the hook's head next, held back then
        // Given back, due when the hook's next slot comes: the loop sleeps until then (nextDue), holding no claim.
        await this.store.hooks.postpone(delivery.id, this.clock().getTime() + wait);
        next = 1;
        break;
      }
      const sent = await this.attempt(delivery, hook, contexts, baseUrl);
      if (sent === "cancelled") break;
      finished.push(sent);
      if (!sent.delivered) {
        next++;
        break;
      }
    }
    await this.record(
      hook,
      finished,
      run.slice(next).map((d) => d.id),
    );
  }

  /** One delivery: its body (built at its first attempt), signed, POSTed; "cancelled" when the server stopped meanwhile. */
  private async attempt(
    delivery: QueuedDelivery,
    hook: HookRow,
    contexts: ContextCache,
    baseUrl: string,
  ): Promise<Sent | "cancelled"> {
    let { body, action } = delivery;
    let repositoryId: number | null;
    const { installationId } = delivery;
    if (body === null && delivery.eventId === null && installationId !== null) {
      // An app's `installation` webhook, made now from the installation; one removed meanwhile is named only.
      const built = await this.payloads.forInstallation(installationId, action ?? "created", baseUrl);
      ({ body, repositoryId } = built ?? {
        body: withInstallation(JSON.stringify({ action }), installationId),
        repositoryId: null,
      });
    } else if (body === null) {
      // Events are never deleted, so an event delivery always has its event.
      const built = (await this.payloads.forEvent(delivery.eventId!, baseUrl, contexts))!;
      ({ body, action, repositoryId } = built); // kept by finish() for the retries
      if (installationId !== null) body = withInstallation(body, installationId);
    } else {
      repositoryId = repositoryIdOf(body);
      // Once: the body a retry sends is the one the first attempt sent, installation included (finish() keeps it).
      if (installationId !== null && delivery.attempts === 0 && !delivery.redelivery)
        body = withInstallation(body, installationId);
    }
    const sent = { delivery, body, action, repositoryId };
    let secret: string | null;
    try {
      secret = hook.config.sealedSecret === null ? null : this.openSecret(hook.config.sealedSecret);
    } catch {
      // This instance's key is not the one the secret was sealed with (a key file not shared, or replaced): a failed
      // attempt, retried as any other, so that an instance holding the right key may make the next one.
      return {
        ...sent,
        headers: {},
        deliveredAt: this.clock(),
        delivered: false,
        outcome: {
          statusCode: 0,
          seconds: 0,
          responseHeaders: {},
          responseBody: null,
          status: "the hook's secret cannot be opened with this instance's --webhook-key-file",
        },
      };
    }
    const bytes = Buffer.from(hook.config.contentType === "json" ? body : `payload=${encodeURIComponent(body)}`);
    const headers = this.headers(delivery, hook, repositoryId, bytes, secret);
    const deliveredAt = this.clock();
    const outcome = await send(hook.config.url, headers, bytes, {
      timeoutMs: this.settings.timeoutMs,
      insecure: hook.config.insecureSsl === "1",
      policy: this.settings.policy,
      signal: this.stopping.signal,
      agents: this.agents,
    });
    if (outcome.cancelled) return "cancelled";
    return { ...sent, headers, deliveredAt, outcome, delivered: outcome.statusCode >= 200 && outcome.statusCode < 300 };
  }

  /**
   * The hook's secret, opened once and kept in memory: opening it (AES-GCM) for every delivery is work for nothing.
   * Keyed by the sealed value, so a secret changed through the API (or resealed by a rotation) is opened anew.
   */
  private openSecret(sealed: string): string {
    let secret = this.openedSecrets.get(sealed);
    if (secret === undefined) {
      secret = this.secrets.open(sealed);
      if (this.openedSecrets.size >= SECRETS_KEPT) this.openedSecrets.clear();
      this.openedSecrets.set(sealed, secret);
    }
    return secret;
  }

  private headers(
    delivery: QueuedDelivery,
    hook: HookRow,
    repositoryId: number | null,
    bytes: Buffer,
    secret: string | null,
  ): Record<string, string> {
    // An app's deliveries name the app (`integration`), as GitHub's to apps do.
    const target =
      hook.owner.kind === "repo"
        ? { type: "repository", id: repositoryId ?? hook.owner.repoId }
        : hook.owner.kind === "org"
          ? { type: "organization", id: hook.owner.orgId }
          : { type: "integration", id: hook.owner.appId };
    return {
      Accept: "*/*",
      "Content-Type": hook.config.contentType === "json" ? "application/json" : "application/x-www-form-urlencoded",
      "User-Agent": "GitHub-Hookshot/feedgate",
      "X-GitHub-Delivery": delivery.guid,
      "X-GitHub-Event": delivery.event,
      "X-GitHub-Hook-ID": String(hook.id),
      "X-GitHub-Hook-Installation-Target-ID": String(target.id),
      "X-GitHub-Hook-Installation-Target-Type": target.type,
      ...(secret === null
        ? {}
        : {
            "X-Hub-Signature": signature("sha1", secret, bytes),
            "X-Hub-Signature-256": signature("sha256", secret, bytes),
          }),
    };
  }

  /** Records a run's attempts and gives back its deliveries not sent, in one transaction; then metrics, log, listeners. */
  private async record(hook: HookRow, sent: Sent[], notSent: number[]): Promise<void> {
    if (!sent.length && !notSent.length) return;
    const after = this.settings.disableAfterMs;
    const finished = sent.map((s) => this.finished(hook, s, after));
    const disabled = await this.store.hooks.finishAll(finished, notSent);
    for (const [n, { delivery, attempt, outcome, rule }] of finished.entries()) {
      if (outcome.kind === "done") {
        this.metrics?.deliveries.inc({ result: sent[n]!.delivered ? "delivered" : "failed" });
        this.metrics?.attempts.observe(delivery.attempts + 1);
      }
      if (disabled[n]) {
        this.metrics?.hooksDisabled.inc();
        // The hook's id, not its URL: a URL may carry credentials.
        this.log.warn(
          { hook: hook.id, reason: rule!.reason },
          "webhooks: hook disabled (active: false) for failing; set it active again to resume its deliveries",
        );
      }
      for (const listener of this.attemptListeners) listener(attempt);
    }
  }

  /** An attempt as the store records it, and what follows it: done, or a retry after a backoff. */
  private finished(hook: HookRow, sent: Sent, disableAfterMs: number): FinishedAttempt {
    const { delivery: queued, outcome } = sent;
    const made = queued.attempts + 1;
    const last = sent.delivered || made >= this.settings.maxAttempts;
    if (!sent.delivered) {
      this.log.warn(
        { hook: hook.id, delivery: queued.guid, event: queued.event, attempt: made, status: outcome.status },
        last ? "webhooks: delivery failed for the last time" : "webhooks: delivery failed; retrying",
      );
    }
    const attempt: DeliveryAttempt = {
      // GitHub's `redelivery` is a delivery someone asked for again: the first attempt of one, never an automatic retry.
      hookId: hook.id,
      guid: queued.guid,
      deliveredAt: sent.deliveredAt,
      redelivery: queued.redelivery && queued.attempts === 0,
      duration: outcome.seconds,
      status: outcome.status,
      statusCode: outcome.statusCode,
      event: queued.event,
      action: sent.action,
      repositoryId: sent.repositoryId,
      url: hook.config.url,
      request: { headers: sent.headers, payload: sent.body },
      response: { headers: outcome.responseHeaders, payload: outcome.responseBody },
    };
    const rule: DisableRule | null =
      disableAfterMs > 0 && !sent.delivered
        ? {
            failingBefore: this.clock().getTime() - disableAfterMs,
            reason: `every delivery failed for ${spoken(disableAfterMs)}; the last: ${outcome.status}`,
          }
        : null;
    return {
      delivery: queued,
      attempt,
      rule,
      outcome: last
        ? { kind: "done" }
        : { kind: "retry", dueAt: this.clock().getTime() + backoffMs(made, this.settings.maxBackoffMs) },
    };
  }
}

/** An attempt made, to be recorded. */
interface Sent {
  delivery: QueuedDelivery;
  /** The body's JSON, kept for the retries. */
  body: string;
  action: string | null;
  repositoryId: number | null;
  headers: Record<string, string>;
  deliveredAt: Date;
  outcome: SendOutcome;
  /** A 2xx came back. */
  delivered: boolean;
}

/** Claimed deliveries by hook, each hook's in its order (the store lists them together, head first). */
function byHook(claimed: QueuedDelivery[]): QueuedDelivery[][] {
  const runs: QueuedDelivery[][] = [];
  for (const delivery of claimed) {
    const last = runs.at(-1);
    if (last && last[0]!.hookId === delivery.hookId) last.push(delivery);
    else runs.push([delivery]);
  }
  return runs;
}

/** `5 days`, `2 hours`, `90 seconds`: a duration as the log and the console say it. */
function spoken(ms: number): string {
  for (const [unit, size] of [
    ["day", 86_400_000],
    ["hour", 3_600_000],
    ["minute", 60_000],
    ["second", 1000],
  ] as const) {
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
