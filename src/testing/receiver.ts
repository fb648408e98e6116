/**
 * A webhook receiver for tests: a real HTTP server on 127.0.0.1 that keeps every delivery it is sent, checks its
 * signature against the hook's secret as a receiving app must, and hands deliveries to the test one at a time.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedDelivery {
  /** `X-GitHub-Event`. */
  event: string;
  /** The payload's `action`, when it has one. */
  action: string | null;
  /** `X-GitHub-Delivery`. */
  guid: string;
  headers: IncomingHttpHeaders;
  /** The payload, parsed (a `form` hook's `payload=` field too). */
  body: unknown;
  /** The bytes as sent. */
  raw: string;
  /** Whether `X-Hub-Signature-256` is the HMAC of the bytes with the receiver's secret; false without a secret. */
  verified: boolean;
}

export interface DeliveryFilter {
  event?: string;
  action?: string;
}

export interface Receiver {
  /** Where a hook sends to: `http://127.0.0.1:PORT/`. */
  readonly url: string;
  /** The first delivery not yet taken that matches, waiting up to `timeoutMs` (5 s) for it to arrive. */
  next(filter?: DeliveryFilter, timeoutMs?: number): Promise<ReceivedDelivery>;
  /** Every delivery received so far, taken or not, oldest first. */
  readonly received: readonly ReceivedDelivery[];
  /** The status answered from now on (200 by default): a 500 makes feedgate retry. */
  respondWith(status: number): void;
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 5000;

function verify(secret: string | undefined, signature: string | string[] | undefined, raw: Buffer): boolean {
  if (secret === undefined || typeof signature !== "string") return false;
  const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function parsed(raw: string, contentType: string | undefined): unknown {
  const json = contentType?.startsWith("application/x-www-form-urlencoded")
    ? (new URLSearchParams(raw).get("payload") ?? "")
    : raw;
  try {
    return JSON.parse(json);
  } catch {
    return raw;
  }
}

const matches = (delivery: ReceivedDelivery, filter: DeliveryFilter) =>
  (filter.event === undefined || delivery.event === filter.event) &&
  (filter.action === undefined || delivery.action === filter.action);

export async function startReceiver(options: { secret?: string } = {}): Promise<Receiver> {
  const received: ReceivedDelivery[] = [];
  const taken = new Set<ReceivedDelivery>();
  const waiting = new Set<{ filter: DeliveryFilter; deliver: (delivery: ReceivedDelivery) => void }>();
  let status = 200;

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const bytes = Buffer.concat(chunks);
      const raw = bytes.toString("utf8");
      const body = parsed(raw, request.headers["content-type"]);
      const action =
        typeof body === "object" && body !== null && typeof (body as { action?: unknown }).action === "string"
          ? (body as { action: string }).action
          : null;
      const delivery: ReceivedDelivery = {
        event: String(request.headers["x-github-event"] ?? ""),
        action,
        guid: String(request.headers["x-github-delivery"] ?? ""),
        headers: request.headers,
        body,
        raw,
        verified: verify(options.secret, request.headers["x-hub-signature-256"], bytes),
      };
      received.push(delivery);
      response.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : "failing on purpose");
      // A failed delivery is not handed out: feedgate sends it again, and the test waits for the one that succeeded.
      if (status >= 300) return;
      for (const waiter of waiting) {
        if (!matches(delivery, waiter.filter)) continue;
        waiting.delete(waiter);
        taken.add(delivery);
        waiter.deliver(delivery);
        return;
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/`,
    received,
    respondWith(next: number) {
      if (!Number.isInteger(next) || next < 100 || next > 599)
        throw new RangeError(`a receiver answers an HTTP status, got ${next}`);
      status = next;
    },
    next(filter = {}, timeoutMs = DEFAULT_TIMEOUT_MS) {
      const ready = received.find((delivery) => !taken.has(delivery) && matches(delivery, filter));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise((resolve, reject) => {
        const waiter = {
          filter,
          deliver: (delivery: ReceivedDelivery) => {
            clearTimeout(timer);
            resolve(delivery);
          },
        };
        const timer = setTimeout(() => {
          waiting.delete(waiter);
          reject(
            new Error(
              `no ${filter.event ?? "webhook"}${filter.action ? ` (${filter.action})` : ""} delivery arrived within ${timeoutMs} ms; ` +
                `received so far: ${received.map((d) => d.event + (d.action ? `.${d.action}` : "")).join(", ") || "none"}`,
            ),
          );
        }, timeoutMs);
        waiting.add(waiter);
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
