/**
 * The deliveries the hooks API asks for, outside any ingest: a ping (on creation and `POST .../pings`), the latest
 * push (`POST .../tests`) and a redelivery (`POST .../deliveries/:id/attempts`, the same GUID and body, marked as a
 * redelivery). Each is queued like any other, so it keeps its hook's order and survives a restart.
 */
import { randomUUID } from "node:crypto";
import type { Clock } from "../clock.js";
import type { DeliveryRow, HookRow, NewQueuedDelivery } from "../store/hook-store.js";
import type { Store, UserRow } from "../store/store.js";
import type { Dispatcher } from "./dispatcher.js";
import type { PayloadBuilder } from "./payload.js";
import { subscribes } from "../../api/webhook-events.js";
import { toWireAppHook, toWireHook, toWireOrgHook } from "../convert/hook.js";

/** What the hooks API's deliveries are built from and queued on. */
export interface WebhookDeliveryParts {
  store: Store;
  payloads: PayloadBuilder;
  dispatcher: Dispatcher;
  /** The API's absolute base, for the URLs inside bodies. */
  baseUrl: () => string;
  clock: Clock;
}

export class WebhookDeliveries {
  private readonly store: Store;
  private readonly payloads: PayloadBuilder;
  private readonly dispatcher: Dispatcher;
  private readonly baseUrl: () => string;
  private readonly clock: Clock;

  constructor(parts: WebhookDeliveryParts) {
    ({
      store: this.store,
      payloads: this.payloads,
      dispatcher: this.dispatcher,
      baseUrl: this.baseUrl,
      clock: this.clock,
    } = parts);
  }

  private async queue(delivery: NewQueuedDelivery): Promise<void> {
    await this.store.hooks.enqueue([delivery], this.clock());
    this.dispatcher.wake();
  }

  /** GitHub's ping: the hook as the API shows it, where it lives (`repository` or `organization`), and who asked. */
  async ping(hook: HookRow, sender: UserRow): Promise<void> {
    const baseUrl = this.baseUrl();
    let described: object;
    let where: Record<string, unknown>;
    if (hook.owner.kind === "repo") {
      where = await this.payloads.context(hook.owner.repoId, baseUrl);
      described = toWireHook(hook, `repos/${(where.repository as { full_name: string }).full_name}`, baseUrl);
    } else if (hook.owner.kind === "app") {
      where = {};
      described = toWireAppHook(hook, hook.owner.appId, baseUrl);
    } else {
      const org = (await this.store.users.findById(hook.owner.orgId))!;
      where = { organization: await this.payloads.organization(org, baseUrl) };
      described = toWireOrgHook(hook, `orgs/${org.login}`, baseUrl);
    }
    const body = await this.payloads.ping(hook.id, described, where, sender, baseUrl);
    await this.queue({
      hookId: hook.id,
      guid: randomUUID(),
      event: "ping",
      action: null,
      eventId: null,
      body,
      redelivery: false,
    });
  }

  /** GitHub's test: the repository's latest push, when the hook subscribes to pushes; otherwise nothing is sent. */
  async testPush(hook: HookRow): Promise<void> {
    if (hook.owner.kind !== "repo" || !subscribes(hook.events, "push")) return;
    const eventId = await this.store.hooks.latestPush(hook.owner.repoId);
    if (eventId === null) return;
    await this.queue({
      hookId: hook.id,
      guid: randomUUID(),
      event: "push",
      action: null,
      eventId,
      body: null,
      redelivery: false,
    });
  }

  wake(): void {
    this.dispatcher.wake();
  }

  async redeliver(hook: HookRow, delivery: DeliveryRow): Promise<void> {
    await this.queue({
      hookId: hook.id,
      guid: delivery.guid,
      event: delivery.event,
      action: delivery.action,
      eventId: null,
      body: delivery.request.payload,
      redelivery: true,
    });
  }
}
