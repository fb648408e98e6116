/**
 * Reads an answer: JSON when the content type says so (spec intro), `meta` from the headers, 304 as
 * NotModified, and any other non-2xx as HttpError with the body's message. A body declared as JSON that
 * does not parse is an internal server error (spec section 7), whatever the status said.
 */
import { HttpError } from "./errors.js";
import { describe, type Exchange, type WireRequest } from "./transport.js";
import { metaOf, type Result } from "./types.js";

/** Statuses that have no body by definition; an empty body there is not malformed JSON. */
const BODILESS = new Set([204, 205, 304]);

function headersOf(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

type Body = { ok: true; value: unknown } | { ok: false; error: string };

function parseBody(response: Response, text: string): Body {
  const type = response.headers.get("content-type") ?? "";
  if (!type.toLowerCase().includes("application/json")) return { ok: true, value: text === "" ? undefined : text };
  if (text === "" && BODILESS.has(response.status)) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/** The body's `message` (GitHub's error shape), or a short text body, or the status line. */
function messageOf(response: Response, body: unknown): string {
  if (typeof body === "object" && body !== null && typeof (body as { message?: unknown }).message === "string") {
    return (body as { message: string }).message;
  }
  if (typeof body === "string" && body.trim() !== "") {
    const text = body.trim();
    return text.length > 200 ? `${text.slice(0, 200)}...` : text;
  }
  return `${response.status} ${response.statusText}`.trim();
}

export function interpret(request: WireRequest, { response, text }: Exchange): Result<unknown> {
  const meta = metaOf(response.headers);
  const details = { headers: headersOf(response), meta, request: describe(request) };
  const body = parseBody(response, text);
  if (!body.ok) {
    throw new HttpError(
      `Internal Server Error: the response was declared as JSON but could not be parsed (${body.error})`,
      { ...details, status: 500, body: text },
    );
  }
  const url = response.url || request.url;
  if (response.status === 304) return { notModified: true, status: 304, url, data: undefined, meta };
  // A redirect asked to be kept (an archive's link): its answer is where it points.
  const location = response.headers.get("location");
  if (request.redirect === "manual" && response.status >= 300 && response.status < 400 && location)
    return { notModified: false, status: response.status, url, data: new URL(location, url).href, meta };
  if (response.status < 200 || response.status > 299) {
    throw new HttpError(messageOf(response, body.value), { ...details, status: response.status, body: body.value });
  }
  return { notModified: false, status: response.status, url, data: body.value, meta };
}
