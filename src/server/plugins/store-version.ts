/**
 * Reads the store's version before anything else looks at the store, so that every look-up the request makes is
 * at least as new as every write committed before it arrived (store/remembering-store.ts).
 */
import fp from "fastify-plugin";
import type { RememberingStore } from "../store/remembering-store.js";
import type { StoreVersion } from "../store/store.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The version this request read first: its answer is as of this version or newer. */
    storeVersion: StoreVersion | null;
  }
}

export default fp<{ remembering: RememberingStore }>(
  async (app, { remembering }) => {
    app.decorateRequest("storeVersion", null);
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
