/**
 * What a stream request asks for: a stream at all (`Accept: text/event-stream`), and where to resume
 * (`Last-Event-ID`, which EventSource clients send on reconnecting, or `?since=<event id>` for clients that cannot
 * set headers). Malformed values are 400, never guessed at; an id the store does not know is the hub's 422.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../errors.js";

const DOCS = "https://html.spec.whatwg.org/multipage/server-sent-events.html#the-last-event-id-header";

/** Event and issue-event ids as ingest accepts them (up to 18 digits, services/event-envelope.ts). */
const EVENT_ID = /^[0-9]{1,18}$/;

/** Whether the client asked for Server-Sent Events rather than a JSON page. */
export function wantsStream(request: FastifyRequest): boolean {
  // HEAD asks for headers only: it gets the page's, never a stream that would hold a slot open.
  if (request.method !== "GET") return false;
  const accept = request.headers.accept;
  return typeof accept === "string" && /(^|,)\s*text\/event-stream\s*(;|,|$)/i.test(accept);
}

/** Whether the answer is a stream (plugins that treat answers as finished documents leave these alone). */
export function isEventStream(reply: FastifyReply): boolean {
  return String(reply.getHeader("content-type") ?? "").startsWith("text/event-stream");
}

/** Where to resume: the id of the last event the client has, or null to start with the next event stored. */
export function resumeAfter(request: FastifyRequest): string | null {
  const header = request.headers["last-event-id"];
  const since = (request.query as Record<string, unknown> | undefined)?.since;
  const [name, value] = header !== undefined ? ["Last-Event-ID", header] : ["since", since];
  if (value === undefined) return null;
  if (typeof value !== "string" || !EVENT_ID.test(value.trim())) {
    throw new ApiError(400, `${name} must be the id of an event (up to 18 digits), got ${JSON.stringify(value)}`, {
      documentationUrl: DOCS,
    });
  }
  return value.trim();
}

/** 422 for a well-formed id that names no stored event (of the feed's kind): nothing to resume after. */
export const unknownEvent = (id: string) =>
  new ApiError(422, "Validation Failed", {
    documentationUrl: DOCS,
    errors: [
      {
        resource: "Event",
        field: "Last-Event-ID",
        code: "invalid",
        message: `no event with id ${id} is stored; open the stream without Last-Event-ID (or since) to start with the next event`,
      },
    ],
  });

/** The path without its query: the feed's own URL, without the stream's `since`. */
const pathOf = (url: string) => url.replace(/[?#].*$/s, "");

/**
 * The `gap` event's data: the client missed more than `replayMax` events after `after`, which the stream does not
 * replay. It reads them from `feed_url` (the feed's pages, newest first, down to `last_event_id`); the stream's next
 * events are those stored after the gap.
 */
export function gapNotice(request: FastifyRequest, after: string, replayMax: number): string {
  return JSON.stringify({
    last_event_id: after,
    replay_max: replayMax,
    feed_url: `${request.baseUrl}${pathOf(request.url)}`,
    message: `more than ${replayMax} events were stored after ${after}: read them from feed_url; this stream goes on with newer events`,
  });
}
