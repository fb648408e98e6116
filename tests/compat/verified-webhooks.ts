/**
 * Webhooks for the tests of clients that make no hooks of their own (PyGithub's and octokit.rb's case scripts): a
 * repository hook with a secret, made over REST before the script runs, and its deliveries taken as a receiver
 * written with @octokit/webhooks takes them (the signature verified with the secret, the payload routed by its
 * name), each checked against GitHub's schema for its event and action.
 */
import assert from "node:assert/strict";
import { Webhooks, type EmitterWebhookEvent, type EmitterWebhookEventName } from "@octokit/webhooks";
import type { ListeningApp } from "../helpers/listening-app.js";
import { receiver, type Receiver } from "../helpers/webhook-receiver.js";
import { assertWebhook } from "../helpers/webhook-schemas.js";

/** A receiver listening, and an active hook of `events` on `fullName` sending to it, signed with `secret`. */
export async function hookedWithSecret(
  t: ListeningApp,
  fullName: string,
  token: string,
  events: string[],
  secret: string,
): Promise<Receiver> {
  const hook = receiver();
  const made = await fetch(`${t.url}/repos/${fullName}/hooks`, {
    method: "POST",
    headers: { authorization: `token ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "web", events, config: { url: await hook.listen(), content_type: "json", secret } }),
  });
  assert.equal(made.status, 201, await made.text());
  return hook;
}

/**
 * The first `count` deliveries after the hook's ping, in the order they came, once they all have: each verified and
 * received by @octokit/webhooks (a bad signature rejects), each valid by GitHub's schema.
 */
export async function verifiedDeliveries(
  hook: Receiver,
  count: number,
  secret: string,
): Promise<EmitterWebhookEvent[]> {
  await hook.until(count + 1);
  const webhooks = new Webhooks({ secret });
  const received: EmitterWebhookEvent[] = [];
  webhooks.onAny((event) => {
    received.push(event);
  });
  const [ping, ...deliveries] = hook.received;
  assert.equal(ping?.headers["x-github-event"], "ping");
  for (const delivery of deliveries.slice(0, count)) {
    const name = String(delivery.headers["x-github-event"]) as EmitterWebhookEventName;
    await webhooks.verifyAndReceive({
      id: String(delivery.headers["x-github-delivery"]),
      name,
      payload: delivery.body,
      signature: String(delivery.headers["x-hub-signature-256"]),
    });
    const payload = JSON.parse(delivery.body) as { action?: string };
    assertWebhook(name, payload.action ?? null, payload);
  }
  return received;
}

/** A delivery as `event.action` (`fork`, which has no action, as itself). */
export const named = (event: EmitterWebhookEvent) => {
  const { action } = event.payload as { action?: string };
  return action === undefined ? event.name : `${event.name}.${action}`;
};
