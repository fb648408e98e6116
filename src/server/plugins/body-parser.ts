/**
 * Request bodies are JSON whatever their Content-Type, as on GitHub: `curl -d '{...}'` sends
 * application/x-www-form-urlencoded and still works. Prototype-poisoning keys are refused as bad JSON.
 * A JSON value that is not an object is refused here, before any handler sees it; a bare array only where a route
 * says what it stands for (`arrayBody`: GitHub takes an issue's labels as `["bug"]` as well as `{labels: ["bug"]}`).
 */
import { isUtf8 } from "node:buffer";
import fp from "fastify-plugin";
import type { FastifyRequest } from "fastify";
import sjson from "secure-json-parse";
import { ApiError } from "../errors.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The body key a bare JSON array sent to this route stands for; without one, an array is refused. */
    arrayBody?: string;
  }
}

/** `fatal`: a malformed sequence is an error, not U+FFFD quietly stored in a note (RFC 8259 8.1: JSON is UTF-8). */
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** A request body as text; bytes that are not UTF-8 are bad JSON, as they are on GitHub. */
export function decodeBody(body: Buffer): string {
  try {
    return utf8.decode(body);
  } catch {
    throw new ApiError(400, "Problems parsing JSON");
  }
}

/** decodeBody's check alone, for a body kept as bytes: the same refusal, without decoding it. */
export function checkedUtf8(body: Buffer): Buffer {
  if (!isUtf8(body)) throw new ApiError(400, "Problems parsing JSON");
  return body;
}

export function parseJsonBody(text: string, arrayBody?: string): unknown {
  if (text.trim() === "") return {}; // an empty body means "all defaults", as it does on GitHub
  let value: unknown;
  try {
    value = sjson.parse(text, undefined, { protoAction: "error", constructorAction: "error" });
  } catch {
    throw new ApiError(400, "Problems parsing JSON");
  }
  if (arrayBody !== undefined && Array.isArray(value)) return { [arrayBody]: value };
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ApiError(400, "Body should be a JSON object");
  }
  return value;
}

export default fp(
  async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("*", { parseAs: "buffer" }, async (request: FastifyRequest, body: Buffer) =>
      parseJsonBody(decodeBody(body), request.routeOptions.config?.arrayBody),
    );
    // A write sent with no body at all never reaches a parser: it means "all defaults" too.
    app.addHook("preValidation", async (request) => {
      if (request.body === undefined && request.method !== "GET" && request.method !== "DELETE") request.body = {};
    });
  },
  { name: "body-parser" },
);
