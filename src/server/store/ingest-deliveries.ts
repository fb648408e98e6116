/**
 * The webhook fan-out of an ingest: each event the ingest added goes to every active hook of its repository, of
 * the organization owning it, or of an app installed on it, that subscribes to the event's webhook name (or `*`), with one GUID an event shared by
 * its deliveries, as GitHub's. It runs in the events' own transaction, so a delivery is recorded if and only if its
 * event is.
 */
import { randomUUID } from "node:crypto";
import { subscribes, webhookEventName } from "../../api/webhook-events.js";
import { ask, type HookTarget, type QueuedEventDelivery, type Step } from "./ingest-protocol.js";

/** What the fan-out needs of an added event. */
export interface AddedEvent {
  id: string;
  type: string;
  repoId: number | null;
}

export interface FanOut {
  /** The deliveries to queue, event by event in the order given, each event's hooks in the order of `targets`. */
  rows: QueuedEventDelivery[];
  /** Hooks that got no delivery of some event because their queue held `maxQueue` already. */
  full: number[];
}

/**
 * The deliveries of `events` to `targets` (the active hooks of their repositories, with their queues' lengths). A
 * hook whose queue holds `maxQueue` deliveries gets no more (`--webhook-max-queue`), and is named in `full`.
 */
export function fanOut(
  events: AddedEvent[],
  targets: HookTarget[],
  maxQueue: number,
  newGuid: () => string = randomUUID,
): FanOut {
  const byRepo = new Map<number, HookTarget[]>();
  for (const target of targets) byRepo.set(target.repoId, [...(byRepo.get(target.repoId) ?? []), target]);
  const queued = new Map(targets.map((t) => [t.hookId, t.queued]));
  const full = new Set<number>();
  const rows: QueuedEventDelivery[] = [];
  for (const e of events) {
    if (e.repoId === null) continue;
    const event = webhookEventName(e.type);
    const guid = newGuid();
    for (const target of byRepo.get(e.repoId) ?? []) {
      if (!event || !subscribes(target.events, event)) continue;
      const length = queued.get(target.hookId)!;
      if (length >= maxQueue) {
        full.add(target.hookId);
        continue;
      }
      queued.set(target.hookId, length + 1);
      rows.push({ hookId: target.hookId, guid, event, eventId: e.id, installationId: target.installationId });
    }
  }
  return { rows, full: [...full] };
}

/** What an ingest queued: how many deliveries, and the hooks whose queue was full. */
export interface Queued {
  deliveries: number;
  full: number[];
}

/**
 * Queues the deliveries of the events of `events` whose ids are in `added` (those the ingest stored; the others were
 * stored already); answers how many, and the hooks whose queue was full, so that the caller can say so.
 */
export function* queueDeliveries(events: AddedEvent[], added: string[], maxQueue: number, now: Date): Step<Queued> {
  const ids = new Set(added);
  const fresh = events.filter((e) => ids.has(e.id) && e.repoId !== null);
  if (!fresh.length) return { deliveries: 0, full: [] };
  const repoIds = [...new Set(fresh.map((e) => e.repoId).filter((id) => id !== null))];
  const targets = yield* ask({ op: "findHookTargets", repoIds });
  if (!targets.length) return { deliveries: 0, full: [] };
  const { rows, full } = fanOut(fresh, targets, maxQueue);
  if (rows.length) yield* ask({ op: "queueDeliveries", rows, now });
  return { deliveries: rows.length, full };
}
