/**
 * Puts repeated answers (../repeats/repeated-answers.ts) in front of Fastify: the server's request listener asks the
 * kept answers first and hands Fastify the rest. Registered after every other plugin's onSend hook, so that what it
 * keeps is what left. Requests made with `app.inject()` never pass through the listener, so none is ever repeated.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import fp from "fastify-plugin";
import type { RepeatedAnswers } from "../repeats/repeated-answers.js";

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

export default fp<{ answers: RepeatedAnswers }>(
  async (app, { answers }) => {
    app.decorateRequest("repeatable", null);
    app.decorateRequest("onRepeat", null);
    app.addHook("onSend", (request, reply, payload, done) => {
      if (request.repeatable !== null) answers.record(request, reply, payload);
      done(null, payload);
    });
    // Fastify's own listener, added when it made the server: the only one there is.
    const listeners = app.server.listeners("request") as Listener[];
    if (listeners.length !== 1) throw new Error(`expected Fastify's request listener alone, found ${listeners.length}`);
    const fastify = listeners[0]!;
    app.server.removeListener("request", fastify);
    app.server.on("request", (request: IncomingMessage, response: ServerResponse) =>
      answers.handle(request, response, fastify),
    );
    app.addHook("preClose", (done) => {
      answers.stop();
      done();
    });
  },
  { name: "repeat-answers", dependencies: ["store-version", "rate-limit", "response-headers"] },
);
