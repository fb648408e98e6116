/**
 * The deliveries the hooks API asks for, outside any ingest: a ping (on creation and `POST .../pings`), the latest
 * push (`POST .../tests`) and a redelivery (`POST .../deliveries/:id/attempts`, the same GUID and body, marked as a
 * redelivery). Each is queued like any other, so it keeps its hook's order and survives a restart.
 */
import { randomUUID } from "node:crypto";
import type { DeliveryRow, HookRow, NewQueuedDelivery } from "../store/hook-store.js";
import type { Store, UserRow } from "../store/store.js";
import type { Dispatcher } from "./dispatcher.js";
import type { PayloadBuilder } from "./payload.js";

export class WebhookDeliveries {
  /**
   * @param describeHook the hook as the API shows it (the ping carries it).
   * @param baseUrl the API's absolute base, for the URLs inside bodies.
   */
  constructor(private readonly store: Store, private readonly payloads: PayloadBuilder, private readonly dispatcher: Dispatcher,
    private readonly describeHook: (hook: HookRow, baseUrl: string) => object, private readonly baseUrl: () => string) {}

  private async queue(delivery: NewQueuedDelivery): Promise<void> {
    await this.store.hooks.enqueue([delivery], new Date());
    this.dispatcher.wake();
  }

  async ping(hook: HookRow, sender: UserRow): Promise<void> {
    const baseUrl = this.baseUrl();
    const where = hook.owner.kind === "repo" ? await this.payloads.context(hook.owner.repoId, baseUrl)
      : { organization: await this.payloads.organization((await this.store.users.findById(hook.owner.orgId))!, baseUrl) };
    const body = await this.payloads.ping(hook.id, this.describeHook(hook, baseUrl), where, sender, baseUrl);
    await this.queue({ hookId: hook.id, guid: randomUUID(), event: "ping", action: null, eventId: null, body, redelivery: false });
  }

  /** GitHub's test: the repository's latest push, when the hook subscribes to pushes; otherwise nothing is sent. */
  async testPush(hook: HookRow): Promise<void> {
    if (hook.owner.kind !== "repo" || !(hook.events.includes("push") || hook.events.includes("*"))) return;
    const eventId = await this.store.hooks.latestPush(hook.owner.repoId);
    if (eventId === null) return;
    await this.queue({ hookId: hook.id, guid: randomUUID(), event: "push", action: null, eventId, body: null, redelivery: false });
  }

  async redeliver(hook: HookRow, delivery: DeliveryRow): Promise<void> {
    await this.queue({
      hookId: hook.id, guid: delivery.guid, event: delivery.event, action: delivery.action, eventId: null,
      body: delivery.request.payload, redelivery: true,
    });
  }
}
