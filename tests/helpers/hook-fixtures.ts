/**
 * Hooks and delivery attempts written straight to a store, for tests of the API that shows them: an attempt is
 * recorded as the dispatcher records one (`finish`), without a receiver or a wait.
 */
import type { DeliveryAttempt, HookOwner, HookRow } from "../../src/server/store/hook-store.js";
import type { Store } from "../../src/server/store/store.js";

/** An inactive hook: the running dispatcher leaves it alone. */
export function createHook(store: Store, owner: HookOwner, url = "https://receiver.example/hook"): Promise<HookRow> {
  return store.hooks.create(
    {
      owner,
      name: "web",
      active: false,
      events: ["push"],
      config: { url, contentType: "json", insecureSsl: "0", sealedSecret: null },
    },
    new Date("2026-01-15T09:00:00Z"),
  );
}

/** Records one attempt of a delivery to the hook; returns nothing (the API lists them). */
export async function recordAttempt(
  store: Store,
  hook: HookRow,
  attempt: Partial<DeliveryAttempt> = {},
): Promise<void> {
  const guid = attempt.guid ?? "0b989ba4-242f-11e5-81e1-c7b6966d2516";
  await store.hooks.finish(
    {
      id: 0,
      hookId: hook.id,
      guid,
      event: "push",
      action: null,
      eventId: null,
      body: null,
      redelivery: false,
      attempts: 0,
      installationId: null,
    },
    {
      hookId: hook.id,
      guid,
      deliveredAt: new Date("2026-01-15T09:30:00Z"),
      redelivery: false,
      duration: 0.27,
      status: "OK",
      statusCode: 200,
      event: "push",
      action: null,
      repositoryId: null,
      url: hook.config.url,
      request: {
        headers: { "X-GitHub-Event": "push", "X-GitHub-Delivery": guid },
        payload: JSON.stringify({ ref: "refs/heads/main" }),
      },
      response: { headers: { "content-type": "text/plain" }, payload: "thanks" },
      ...attempt,
    },
    { kind: "done" },
  );
}
