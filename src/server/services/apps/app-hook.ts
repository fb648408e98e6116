/**
 * A GitHub App's own webhook (`/app/hook/...`, the app its JWT names): its config, read and changed key by key as a
 * repository hook's is, and its deliveries, listed, shown and made again. An app registered without a webhook URL
 * has none: 404, as a hook that is not there.
 */
import { notFound } from "../../errors.js";
import type { DeliveryRow, HookRow } from "../../store/hook-store.js";
import type { AppRow, Store } from "../../store/store.js";
import { changedConfig } from "../hook-input.js";
import {
  deliveryOf,
  deliveryPage,
  type DeliveryPage,
  type DeliveryQueue,
  type SecretSealer,
  type UpdateConfigInput,
} from "../hooks.js";

export interface AppHookParts {
  store: Store;
  clock: () => Date;
  secrets: SecretSealer;
  deliveries: DeliveryQueue;
}

export class AppHookService {
  constructor(private readonly parts: AppHookParts) {}

  async hook(app: AppRow): Promise<HookRow> {
    const [hook] = (await this.parts.store.hooks.list({ kind: "app", appId: app.id }, { limit: 1, offset: 0 })).rows;
    if (!hook) throw notFound();
    return hook;
  }

  /** Changes only the config keys given, the secret sealed as every hook's is. */
  async updateConfig(app: AppRow, input: UpdateConfigInput): Promise<HookRow> {
    const hook = await this.hook(app);
    const config = changedConfig(hook.config, input, (secret) => this.parts.secrets.seal(secret));
    const updated = await this.parts.store.hooks.update(hook.owner, hook.id, { config }, this.parts.clock());
    if (!updated) throw notFound(); // the app went meanwhile
    return updated;
  }

  async deliveries(app: AppRow, limit: number, cursor: string | undefined): Promise<DeliveryPage> {
    return deliveryPage(this.parts.store, await this.hook(app), limit, cursor);
  }

  async delivery(app: AppRow, id: string): Promise<DeliveryRow> {
    return deliveryOf(this.parts.store, await this.hook(app), id);
  }

  async redeliver(app: AppRow, id: string): Promise<void> {
    const hook = await this.hook(app);
    await this.parts.deliveries.redeliver(hook, await deliveryOf(this.parts.store, hook, id));
  }
}
