/**
 * The hook store of a SQLite file: the writes its webhook dispatcher makes all the time (claims, and each run's
 * attempts recorded, their bodies compressed) run in the write worker while it runs, since in a flood each run's
 * record held the event loop some 12 ms; everything else, and those too while no worker runs, on the main thread's
 * connection as before. Both connections write the same tables through the same code (../hooks.ts).
 *
 * Not shared: only SQLite has a write worker: PostgreSQL's writes never hold the event loop.
 */
import type { HookStore } from "../hook-store.js";
import type { WriteWorker } from "./write-worker-client.js";
import type { OutboxOp } from "./write-messages.js";

export function outboxInWorker(hooks: HookStore, writer: WriteWorker): HookStore {
  const routed: Pick<HookStore, OutboxOp> = {
    claim: (...args) => writer.outbox({ op: "claim", args }, () => hooks.claim(...args)),
    finishAll: (...args) => writer.outbox({ op: "finishAll", args }, () => hooks.finishAll(...args)),
  };
  return new Proxy(hooks, {
    get: (target, key) =>
      typeof key === "string" && Object.hasOwn(routed, key) ? routed[key as OutboxOp] : Reflect.get(target, key),
  });
}
