/**
 * The webhooks of one app: the secret box, the dispatcher (a background job: ../composition.ts starts it when the
 * app is ready and stops it when it closes) and the deliveries the hooks API queues.
 */
import type { FastifyBaseLogger } from "fastify";
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

/**
 * Where the app listens; before it does (an app only injected into, in tests), GitHub's own local default. Kept once
 * known: a server listens once, and Fastify's getter asks its socket for the address on every call (1.5% of the CPU
 * of opening an issue, measured).
 */
function listeningOriginOr(listeningOrigin: () => string): () => string {
  let known: string | undefined;
  return () => {
    if (known !== undefined) return known;
    try {
      return (known = listeningOrigin());
    } catch {
      return "http://localhost";
    }
  };
}

export interface Webhooks {
  secrets: SecretBox;
  /** Started and stopped with the app's background jobs (../composition.ts). */
  dispatcher: Dispatcher;
  deliveries: WebhookDeliveries;
  /** What webhook bodies are built from, for the actions that build theirs when they write (services/actions/). */
  payloads: PayloadBuilder;
  /** The base of the URLs in webhook bodies: `--base-url`, else where the app listens. */
  baseUrl: () => string;
}

export interface WebhookParts {
  config: Config;
  /** The database itself: the dispatcher runs outside requests, where remembered answers are not refreshed. */
  store: Store;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The app's `listeningOrigin`, which throws until it listens. */
  listeningOrigin: () => string;
  /** Where the delivery metrics are registered (the app's /metrics). */
  registry?: Registry;
  /** The box secrets were sealed with before the app was made (the test double's world); else the config's. */
  secrets?: SecretBox;
}

export function webhooks({ config, store, clock, log, listeningOrigin, registry, ...parts }: WebhookParts): Webhooks {
  const origin = listeningOriginOr(listeningOrigin);
  const baseUrl = () => config.baseUrl ?? origin();
  const secrets = parts.secrets ?? secretBox(config);
  const payloads = new PayloadBuilder(store);
  const policy = config.webhooks.allowedHosts && new AddressPolicy(config.webhooks.allowedHosts);
  // GitHub makes one attempt; a failure waits for someone to ask for a redelivery.
  const maxAttempts = config.webhooks.retries === "github" ? 1 : config.webhooks.maxAttempts;
  const metrics = registry && new WebhookMetrics(registry, (now) => store.hooks.queueStats(now), clock);
  const dispatcher = new Dispatcher({
    store,
    payloads,
    secrets,
    settings: { ...config.webhooks, maxAttempts, policy },
    baseUrl,
    log,
    clock,
    metrics,
  });
  return {
    secrets,
    dispatcher,
    deliveries: new WebhookDeliveries({ store, payloads, dispatcher, baseUrl, clock }),
    payloads,
    baseUrl,
  };
}
