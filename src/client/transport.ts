/**
 * One HTTP exchange over `fetch`: send, read the whole body, and turn "no answer" into NetworkError or
 * TimeoutError. The timeout covers the body too: a server that sends headers and then stalls is as stuck as
 * one that never answers. Only standard web APIs, so it runs in browsers as well as in Node.
 */
import { NetworkError, redactRequest, redactUrl, TimeoutError } from "./errors.js";

export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

export interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Record<string, unknown>;
  /** `manual`: a redirect is the answer (an archive's link), not followed. */
  redirect?: "manual";
}

export interface Exchange {
  response: Response;
  text: string;
}

export const describe = (request: WireRequest) =>
  redactRequest(request.method, request.url, request.headers, request.body);

/** The innermost message: Node's fetch says only "fetch failed" and keeps the reason (ECONNREFUSED ...) in `cause`. */
function reason(error: unknown): string {
  let current = error;
  let message = "unknown error";
  for (let depth = 0; current instanceof Error && depth < 5; depth++, current = current.cause)
    message = current.message;
  // Some reasons quote the URL ("Failed to parse URL from ..."), which may carry a token.
  return redactUrl(message);
}

export async function exchange(request: WireRequest, fetch: Fetch, timeout: number | undefined): Promise<Exchange> {
  const controller = new AbortController();
  let timedOut = false;
  const timer =
    timeout === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeout);
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      ...(request.redirect ? { redirect: request.redirect } : {}),
      signal: controller.signal,
    });
    return { response, text: await response.text() };
  } catch (error) {
    const shown = describe(request);
    if (timedOut) {
      throw new TimeoutError(`${request.method} ${shown.url} timed out after ${timeout} ms`, shown, timeout!);
    }
    throw new NetworkError(`${request.method} ${shown.url} failed: ${reason(error)}`, shown, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}
