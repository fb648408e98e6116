/**
 * GitHub's webhook payload schemas (../shared/data/webhooks/payloads.schema.json, from @octokit/openapi-webhooks) as
 * validators for the deliveries feedgate makes: `events.<X-GitHub-Event>.actions.<action>.schema`.
 */
import { readFileSync } from "node:fs";
import assert from "node:assert/strict";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { SHARED_DATA } from "./recorded.js";

interface Payloads {
  events: Record<string, { schema?: object; actions?: Record<string, { schema: object }> }>;
}

let payloads: Payloads | undefined;
const compiled = new Map<string, ValidateFunction>();
// Not strict: the schemas carry OpenAPI's own keywords (`externalDocs`, descriptions) beside JSON Schema's.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

/**
 * Asserts that `body` is a valid `event` delivery of `action`, as GitHub's schema for it defines one; `action` null
 * for an event that has none (`status`), whose schema is the event's own.
 */
export function assertWebhook(event: string, action: string | null, body: unknown): void {
  const key = action === null ? event : `${event}.${action}`;
  let validate = compiled.get(key);
  if (!validate) {
    payloads ??= JSON.parse(readFileSync(new URL("webhooks/payloads.schema.json", SHARED_DATA), "utf8")) as Payloads;
    const schema = action === null ? payloads.events[event]?.schema : payloads.events[event]?.actions?.[action]?.schema;
    assert.ok(schema, `no schema for the ${key} webhook`);
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  assert.ok(validate(body), `${key}: ${ajv.errorsText(validate.errors)}`);
}
