/**
 * The webhooks of one app: the secret box, the dispatcher (started when the app is ready, stopped when it closes)
 * and the deliveries the hooks API queues.
 */
import type { FastifyInstance } from "fastify";
import type { Config } from "../config.js";
import type { Clock } from "../clock.js";
import type { Store } from "../store/store.js";
import { AddressPolicy } from "./address-policy.js";
import type { Registry } from "prom-client";
import { Dispatcher } from "./dispatcher.js";
import { WebhookMetrics } from "./metrics.js";
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

/**
 * @param clockMoved subscribes to moves of a clock that tests set: a retry it brought due is sent at once.
 * @param registry where the delivery metrics are registered (the app's /metrics).
 */
export function webhooks(
  app: FastifyInstance,
  config: Config,
  store: Store,
  clock: Clock,
  clockMoved?: (listener: () => void) => () => void,
  registry?: Registry,
): Webhooks {
  const baseUrl = () => config.baseUrl ?? listeningOrigin(app);
  const secrets = secretBox(config);
  const payloads = new PayloadBuilder(store);
  const policy = config.webhooks.allowedHosts && new AddressPolicy(config.webhooks.allowedHosts);
  // GitHub makes one attempt; a failure waits for someone to ask for a redelivery.
  const maxAttempts = config.webhooks.retries === "github" ? 1 : config.webhooks.maxAttempts;
  const metrics = registry && new WebhookMetrics(registry, (now) => store.hooks.queueStats(now), clock);
  const dispatcher = new Dispatcher(
    store,
    payloads,
    secrets,
    { ...config.webhooks, maxAttempts, policy },
    baseUrl,
    app.log,
    clock,
    metrics,
  );
  const stopListening = clockMoved?.(() => dispatcher.wake());
  app.addHook("onReady", async () => dispatcher.start());
  app.addHook("onClose", async () => {
    stopListening?.();
    await dispatcher.stop();
  });
  return { secrets, dispatcher, deliveries: new WebhookDeliveries(store, payloads, dispatcher, baseUrl, clock) };
}
