/**
 * Request bodies are JSON whatever their Content-Type, as on GitHub: `curl -d '{...}'` sends
 * application/x-www-form-urlencoded and still works. Prototype-poisoning keys are refused as bad JSON.
 * A JSON value that is not an object is refused here, before any handler sees it.
 */
import fp from "fastify-plugin";
import sjson from "secure-json-parse";
import { ApiError } from "../errors.js";

export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") return undefined; // no body: the handler's defaults apply
  let value: unknown;
  try {
    value = sjson.parse(text, undefined, { protoAction: "error", constructorAction: "error" });
  } catch {
    throw new ApiError(400, "Problems parsing JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ApiError(400, "Body should be a JSON object");
  }
  return value;
}

export default fp(async (app) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string" }, async (_request: unknown, body: string | Buffer) =>
    parseJsonBody(body.toString()));
}, { name: "body-parser" });
