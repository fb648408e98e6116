/**
 * Stored hooks and delivery attempts -> GitHub's hook, org-hook, webhook-config, hook-delivery-item and hook-delivery
 * objects. The secret never leaves: a hook that has one shows `"********"`, as GitHub does.
 */
import type { Hook, HookDelivery, HookDeliveryItem, OrgHook, WebhookConfig } from "../../api/schemas.js";
import type { DeliveryAttempt, DeliveryRow, HookConfig, HookRow } from "../store/hook-store.js";
import { isoSeconds } from "./time.js";

/** What GitHub shows in place of a secret. */
export const MASKED_SECRET = "********";

/** A hook's URLs: `${baseUrl}/${ownerPath}/hooks/:id`, ownerPath being `repos/:owner/:repo` or `orgs/:org`. */
function hookUrl(baseUrl: string, ownerPath: string, hook: HookRow): string {
  return `${baseUrl}/${ownerPath}/hooks/${hook.id}`;
}

export function toWireConfig(config: HookConfig): WebhookConfig {
  return {
    content_type: config.contentType,
    insecure_ssl: config.insecureSsl,
    url: config.url,
    ...(config.sealedSecret !== null ? { secret: MASKED_SECRET } : {}),
  };
}

/** The fields both kinds of hook share. */
function common(hook: HookRow) {
  return {
    name: hook.name,
    active: hook.active,
    events: hook.events,
    config: toWireConfig(hook.config),
    updated_at: isoSeconds(hook.updatedAt),
    created_at: isoSeconds(hook.createdAt),
  };
}

/** A repository's hook; `ownerPath` is `repos/:owner/:repo` as the repository's full name has it. */
export function toWireHook(hook: HookRow, ownerPath: string, baseUrl: string): Hook {
  const url = hookUrl(baseUrl, ownerPath, hook);
  const { name, active, events, config, updated_at, created_at } = common(hook);
  return {
    type: "Repository",
    id: hook.id,
    name,
    active,
    events,
    config,
    updated_at,
    created_at,
    url,
    test_url: `${url}/test`,
    ping_url: `${url}/pings`,
    deliveries_url: `${url}/deliveries`,
    last_response: { ...hook.lastResponse },
  };
}

/** An organization's hook; `ownerPath` is `orgs/:org`. */
export function toWireOrgHook(hook: HookRow, ownerPath: string, baseUrl: string): OrgHook {
  const url = hookUrl(baseUrl, ownerPath, hook);
  const { name, active, events, config, updated_at, created_at } = common(hook);
  return {
    id: hook.id,
    url,
    ping_url: `${url}/pings`,
    deliveries_url: `${url}/deliveries`,
    name,
    events,
    active,
    config,
    updated_at,
    created_at,
    type: "Organization",
  };
}

/**
 * A GitHub App's hook as its `ping` describes it (the app's webhook has no URL of its own in the API: it is
 * `/app/hook/config`). `appId`: the app it belongs to.
 */
export function toWireAppHook(hook: HookRow, appId: number, baseUrl: string) {
  return {
    type: "App",
    id: hook.id,
    ...common(hook),
    app_id: appId,
    deliveries_url: `${baseUrl}/app/hook/deliveries`,
  };
}

export function toWireDeliveryItem(delivery: DeliveryAttempt & { id: number }): HookDeliveryItem {
  return {
    id: delivery.id,
    guid: delivery.guid,
    delivered_at: isoSeconds(delivery.deliveredAt),
    redelivery: delivery.redelivery,
    duration: delivery.duration,
    status: delivery.status,
    status_code: delivery.statusCode,
    event: delivery.event,
    action: delivery.action,
    installation_id: null,
    repository_id: delivery.repositoryId,
    throttled_at: null,
  };
}

/**
 * GitHub shows the request's payload parsed, whether it was sent as JSON or form-encoded (`payload=<json>`, the
 * `form` content type); anything else shows as null.
 */
function parsedPayload(payload: string): Record<string, unknown> | null {
  const json = payload.startsWith("payload=") ? (new URLSearchParams(payload).get("payload") ?? "") : payload;
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export function toWireDelivery(delivery: DeliveryRow): HookDelivery {
  return {
    ...toWireDeliveryItem(delivery),
    url: delivery.url,
    request: { headers: delivery.request.headers, payload: parsedPayload(delivery.request.payload) },
    response: { headers: delivery.response.headers, payload: delivery.response.payload },
  };
}
