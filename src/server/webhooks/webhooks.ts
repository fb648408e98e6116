/**
 * The webhooks of one app: the secret box, the dispatcher (started when the app is ready, stopped when it closes)
 * and the deliveries the hooks API queues.
 */
import type { FastifyInstance } from "fastify";
import type { Config } from "../config.js";
import type { Clock } from "../clock.js";
import type { Store } from "../store/store.js";
import { AddressPolicy } from "./address-policy.js";
import { Dispatcher } from "./dispatcher.js";
import { WebhookDeliveries } from "./deliveries.js";
import { PayloadBuilder } from "./payload.js";
import { SecretBox } from "./secret-box.js";
import { webhookKeyFile } from "./key-file.js";

export function secretBox(config: Config): SecretBox {
  const path = webhookKeyFile(config.db, config.webhooks.keyFile);
  return path === null ? SecretBox.ephemeral() : SecretBox.atPath(path);
}

/** Where the app listens; before it does (an app only injected into, in tests), GitHub's own local default. */
function listeningOrigin(app: FastifyInstance): string {
  try {
    return app.listeningOrigin;
  } catch {
    return "http://localhost";
  }
}

export interface Webhooks {
  secrets: SecretBox;
  dispatcher: Dispatcher;
  deliveries: WebhookDeliveries;
}

/** @param clockMoved subscribes to moves of a clock that tests set: a retry it brought due is sent at once. */
export function webhooks(app: FastifyInstance, config: Config, store: Store, clock: Clock,
  clockMoved?: (listener: () => void) => () => void): Webhooks {
  const baseUrl = () => config.baseUrl ?? listeningOrigin(app);
  const secrets = secretBox(config);
  const payloads = new PayloadBuilder(store);
  const policy = config.webhooks.allowedHosts && new AddressPolicy(config.webhooks.allowedHosts);
  const dispatcher = new Dispatcher(store, payloads, secrets, { ...config.webhooks, policy }, baseUrl, app.log, clock);
  const stopListening = clockMoved?.(() => dispatcher.wake());
  app.addHook("onReady", async () => dispatcher.start());
  app.addHook("onClose", async () => {
    stopListening?.();
    await dispatcher.stop();
  });
  return { secrets, dispatcher, deliveries: new WebhookDeliveries(store, payloads, dispatcher, baseUrl, clock) };
}
