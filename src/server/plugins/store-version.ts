/**
 * Reads the store's version before anything else looks at the store, so that every look-up the request makes is
 * at least as new as every write committed before it arrived (store/remembering-store.ts).
 */
import fp from "fastify-plugin";
import type { RememberingStore } from "../store/remembering-store.js";

export default fp<{ remembering: RememberingStore }>(async (app, { remembering }) => {
  app.addHook("onRequest", (_request, _reply, done) => {
    const read = remembering.refresh();
    if (read instanceof Promise) read.then(() => done(), done);
    else done();
  });
}, { name: "store-version", dependencies: ["request-context"] });
