/**
 * A `fetch` answered by the app in this process (Fastify's `inject`), with no socket: the same routes, hooks and bytes
 * as over HTTP, without the kernel. Octokit takes it as `{ request: { fetch } }`; any client that accepts a fetch does.
 */
import type { FastifyInstance } from "fastify";

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Statuses whose answers have no body: a Response refuses one. */
const BODYLESS = new Set([101, 204, 205, 304]);

/** @param origin the listening address, given as each request's Host: absolute URLs in answers (Link, url fields) point there. */
export function inProcessFetch(app: FastifyInstance, origin: string): Fetch {
  const host = new URL(origin).host;
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    headers.host = host;
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    const answer = await app.inject({
      method: request.method as "GET",
      url: url.pathname + url.search,
      headers,
      ...(body === undefined ? {} : { payload: body }),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [String(value)]) responseHeaders.append(name, one);
    }
    const status = answer.statusCode;
    const response = new Response(
      BODYLESS.has(status) || request.method === "HEAD" ? null : new Uint8Array(answer.rawPayload),
      { status, statusText: answer.statusMessage, headers: responseHeaders },
    );
    Object.defineProperty(response, "url", { value: request.url });
    return response;
  };
}
