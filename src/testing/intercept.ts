/**
 * Points code that calls GitHub at the test double without changing the code: the global `fetch`, for requests to
 * one origin (`https://api.github.com`, or a GitHub Enterprise host), is answered in process; every other request
 * goes out as before. As msw's fetch interceptor does, by standing in for `globalThis.fetch` until restored. Clients
 * that open sockets through `node:http` themselves (node-github, Octokit before v18) do not go through fetch: give
 * them `fg.url` instead.
 */
import type { Fetch } from "./in-process-fetch.js";

export interface Interception {
  restore(): void;
}

/** @param answer answers the intercepted requests (a fetch in process whose answers name `origin`'s host). */
export function interceptFetch(origin: string, answer: Fetch): Interception {
  const base = new URL(origin);
  if (base.protocol !== "http:" && base.protocol !== "https:")
    throw new RangeError(`intercept an http(s) origin, got ${JSON.stringify(origin)}`);
  // A GitHub Enterprise base (`https://ghe.example/api/v3`) keeps its path: requests under it lose it here, as the
  // double serves the same routes at / and under /api/v3.
  const prefix = base.pathname.replace(/\/+$/, "");
  const original = globalThis.fetch;
  const standIn: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    // By host, whatever the scheme: answers given in process carry http:// links to the same host (Link's next page).
    if (
      url.host !== base.host ||
      !(prefix === "" || url.pathname === prefix || url.pathname.startsWith(`${prefix}/`))
    ) {
      return original(input, init);
    }
    return answer(
      input instanceof Request ? new Request(input, init) : url,
      input instanceof Request ? undefined : init,
    );
  };
  globalThis.fetch = standIn;
  let restored = false;
  return {
    restore() {
      if (restored) return;
      restored = true;
      // Only when nothing replaced it since: restoring out of order must not undo a later interception.
      if (globalThis.fetch === standIn) globalThis.fetch = original;
    },
  };
}
