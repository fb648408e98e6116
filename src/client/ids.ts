/**
 * A feedgate started with `--numeric-ids` sends authorization and issue-event ids as JSON integers, as GitHub did;
 * the spec has them as strings. The SDK reads either and hands its callers strings, as its types say, so code
 * written against it works with a server in either mode and `get({ id: created.data.id })` needs no conversion.
 * Only the response kinds whose ids the spec types as strings are touched: numeric ids elsewhere (an event's
 * `actor.id`) are numbers on the wire and stay numbers. An integer past 2^53 has lost digits in JSON.parse before
 * this sees it; GitHub's issue-event ids are far below that.
 */
import type { ResponseKind } from "../api/endpoints.js";

const MAY_BE_INTEGER: ReadonlySet<ResponseKind> = new Set<ResponseKind>([
  "Authorization",
  "Authorization[]",
  "IssueEvent[]",
]);

function stringId(item: unknown): void {
  if (typeof item === "object" && item !== null && typeof (item as { id?: unknown }).id === "number") {
    const object = item as { id: number | string };
    object.id = String(object.id);
  }
}

/** The parsed body of a `kind` response with its items' `id`s as strings; changed in place. */
export function withStringIds(kind: ResponseKind, data: unknown): void {
  if (!MAY_BE_INTEGER.has(kind)) return;
  if (Array.isArray(data)) data.forEach(stringId);
  else stringId(data);
}
