/**
 * The scene of the repository action tests: the issue scene (tests/helpers/issue-scene.ts: its world, a hook on
 * alice/hello delivering everything to a receiver) plus a hook on the organization acme, delivering everything to a
 * second receiver, and a token of bob's without `repo`.
 */
import { issueScene, type Delivery, type IssueScene, type Json } from "./issue-scene.js";
import { receiver, type Receiver } from "./webhook-receiver.js";

export type { Json };

export interface RepositoryScene extends IssueScene {
  /** Every delivery acme's hook received, once there are `count`. */
  orgDelivered(count: number): Promise<Delivery[]>;
  orgDeliveries(): number;
  /** The answer's JSON, once the status is asserted. */
  json(res: { statusCode: number; body: string }, status: number): Json;
}

const deliveries = (hook: Receiver): Delivery[] =>
  hook.received.map((r) => {
    const body = JSON.parse(r.body) as Json;
    return { event: String(r.headers["x-github-event"]), action: body.action as string | undefined, body };
  });

export async function repositoryScene(): Promise<RepositoryScene> {
  const s = await issueScene();
  const acme = (await s.t.store.users.findByLogin("acme"))!;
  const hook = receiver();
  await s.t.store.hooks.create(
    {
      owner: { kind: "org", orgId: acme.id },
      name: "web",
      active: true,
      events: ["*"],
      config: { url: await hook.listen(), contentType: "json", insecureSsl: "0", sealedSecret: null },
    },
    s.t.clock.now(),
  );
  return {
    ...s,
    async orgDelivered(count) {
      await hook.until(count);
      return deliveries(hook);
    },
    orgDeliveries: () => hook.received.length,
    json(res, status) {
      if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`);
      return JSON.parse(res.body) as Json;
    },
    async close() {
      await s.close();
      await hook.close();
    },
  };
}
