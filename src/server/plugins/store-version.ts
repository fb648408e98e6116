/**
 * Reads the store's version before anything else looks at the store, so that every look-up the request makes is
 * at least as new as every write committed before it arrived (store/remembering-store.ts).
 */
import { createHash } from "node:crypto";
import fp from "fastify-plugin";
import type { FastifyRequest } from "fastify";
import type { RememberingStore } from "../store/remembering-store.js";
import type { Store, StoreVersion } from "../store/store.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The version this request read first: its answer is as of this version or newer. */
    storeVersion: StoreVersion | null;
  }
}

/**
 * Who a request's reads must not be older than the writes of (store/postgres/read-scope.ts): its credential, hashed
 * (it is kept in Redis, and a secret is never stored), and its client's address.
 */
function callersOf(request: FastifyRequest): string[] {
  const credential = request.headers.authorization;
  const callers = [`ip:${request.ip}`];
  if (credential) callers.push(`cred:${createHash("sha256").update(credential).digest("base64url").slice(0, 24)}`);
  return callers;
}

export default fp<{ remembering: RememberingStore; store: Store }>(
  async (app, { remembering, store }) => {
    app.decorateRequest("storeVersion", null);
    const { readScope } = store;
    // With standbys: the rest of the request (the version read below included) runs as its callers' read scope. What
    // follows the body's parsing runs in the context of the socket's events, so preValidation enters the scope again
    // (as @fastify/request-context does, nodejs/node#34430).
    if (readScope) {
      const scopes = new WeakMap<FastifyRequest, (work: () => void) => void>();
      app.addHook("onRequest", (request, _reply, done) => {
        readScope(callersOf(request)).then((inScope) => {
          scopes.set(request, inScope);
          inScope(done);
        }, done);
      });
      app.addHook("preValidation", (request, _reply, done) => {
        const inScope = scopes.get(request);
        if (inScope) inScope(done);
        else done();
      });
    }
    app.addHook("onRequest", (request, _reply, done) => {
      const read = remembering.refresh();
      if (read instanceof Promise) {
        read.then((version) => {
          request.storeVersion = version;
          done();
        }, done);
      } else {
        request.storeVersion = read;
        done();
      }
    });
  },
  { name: "store-version", dependencies: ["request-context"] },
);
