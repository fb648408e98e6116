/**
 * One delivery attempt: a POST of the exact bytes, with GitHub's headers, and what came back. Never throws: a
 * refused destination, a network error or a timeout is an outcome with status code 0 and GitHub's wording.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { type AddressPolicy, RefusedDestination } from "./address-policy.js";

/** What the record keeps of a receiver's answer; GitHub shows deliveries' bodies, not megabytes of them. */
const RESPONSE_KEPT_BYTES = 64 * 1024;

/**
 * Keep-alive connections to receivers: a receiver that keeps its connection open (HTTP/1.1's default) gets the next
 * delivery on it instead of a new TCP (and TLS) handshake; one that answers `Connection: close` gets a new one each
 * time. Pooled per host, port and TLS options (`insecure_ssl` included), so a socket is only reused for the host it
 * was opened to, and every socket was checked by --webhook-allowed-hosts' look-up when it connected.
 */
export class ReceiverAgents {
  // Idle sockets are closed after 4 s: below Node's and most servers' 5 s keep-alive timeout, so that a socket
  // is not reused at the moment its receiver closes it.
  private readonly options = { keepAlive: true, timeout: 4000, maxFreeSockets: 4 };
  readonly http = new HttpAgent(this.options);
  readonly https = new HttpsAgent(this.options);

  destroy(): void {
    this.http.destroy();
    this.https.destroy();
  }
}

export interface SendOptions {
  timeoutMs: number;
  /** `insecure_ssl: "1"`: do not verify the receiver's certificate. */
  insecure: boolean;
  /** null: every destination is allowed. */
  policy: AddressPolicy | null;
  /** Aborts the attempt (a stopping server): its outcome is then `cancelled`. */
  signal?: AbortSignal;
  /** Connections kept open between attempts; none: a new connection each time. */
  agents?: ReceiverAgents;
}

export interface SendOutcome {
  /** The server stopped before the receiver answered: the attempt says nothing of the receiver. */
  cancelled?: boolean;
  statusCode: number;
  /** GitHub's delivery `status`: "OK", "Invalid HTTP Response: 503", "timed out", ... */
  status: string;
  seconds: number;
  responseHeaders: Record<string, string>;
  responseBody: string | null;
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  return flat;
}

export function send(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
  options: SendOptions,
): Promise<SendOutcome> {
  const started = performance.now();
  const outcome = (
    statusCode: number,
    status: string,
    response?: { headers: IncomingHttpHeaders; body: string },
  ): SendOutcome => ({
    statusCode,
    status,
    seconds: (performance.now() - started) / 1000,
    responseHeaders: response ? flatHeaders(response.headers) : {},
    responseBody: response ? response.body : null,
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(outcome(0, `invalid URL: ${url}`));
  }
  const refusal = options.policy?.refusal(target.hostname);
  if (refusal) return Promise.resolve(outcome(0, refusal));
  const request = target.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // The signal lives as long as the dispatcher: a listener left on it by each attempt would pile up.
      options.signal?.removeEventListener("abort", cancel);
      resolve(result);
    };
    const outgoing = request(
      target,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(body.length) },
        lookup: options.policy?.lookup(target.hostname),
        rejectUnauthorized: !options.insecure,
        agent: (target.protocol === "https:" ? options.agents?.https : options.agents?.http) ?? false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on("data", (chunk: Buffer) => {
          if (kept < RESPONSE_KEPT_BYTES) chunks.push(chunk.subarray(0, RESPONSE_KEPT_BYTES - kept));
          kept += chunk.length;
        });
        response.on("end", () => {
          const code = response.statusCode ?? 0;
          finish(
            outcome(code, code >= 200 && code < 300 ? "OK" : `Invalid HTTP Response: ${code}`, {
              headers: response.headers,
              body: Buffer.concat(chunks).toString("utf8"),
            }),
          );
        });
        response.on("error", (error) =>
          finish(outcome(response.statusCode ?? 0, `failed to read the response: ${error.message}`)),
        );
      },
    );
    const timer = setTimeout(() => {
      finish(outcome(0, "timed out"));
      outgoing.destroy();
    }, options.timeoutMs);
    const cancel = () => {
      finish({ ...outcome(0, "cancelled: the server stopped"), cancelled: true });
      outgoing.destroy();
    };
    if (options.signal?.aborted) cancel();
    else options.signal?.addEventListener("abort", cancel, { once: true });
    outgoing.on("error", (error) =>
      finish(
        outcome(
          0,
          error instanceof RefusedDestination || (error as { cause?: unknown }).cause instanceof RefusedDestination
            ? error.message
            : `failed to connect: ${(error as NodeJS.ErrnoException).code ?? error.message}`,
        ),
      ),
    );
    outgoing.end(body);
  });
}
