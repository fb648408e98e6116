/**
 * Faults a test asks for: "answer the next 2 `GET /repos/:owner/:repo/events` with 502", "make `POST /authorizations`
 * hit a secondary rate limit". Only test instances have a list (`feedgate/testing`, `serve --test-controls`); the
 * plugin that consults it (plugins/faults.ts) is not registered otherwise. A fault is checked before authentication
 * and rate limiting, as GitHub's edge answers these before the application sees the request.
 */
import { STATUS_CODES } from "node:http";
import { InvalidInputError } from "../failures.js";

export interface FaultSpec {
  /** Any method when absent. */
  method?: string;
  /** A route pattern (`/repos/:owner/:repo/events`, or `{owner}` as GitHub's docs write it) or an exact path. */
  path: string;
  status: number;
  headers?: Record<string, string>;
  /** JSON (an object, array, ...) or text; GitHub's `{message, documentation_url}` for the status when absent. */
  body?: unknown;
  /** Waits this long before answering (a slow GitHub; up to a minute). */
  delayMs?: number;
  /** Answers this many matching requests, then leaves; every matching request until cleared when absent. */
  times?: number;
}

export interface Fault {
  id: number;
  method: string | null;
  path: string;
  status: number;
  headers: Record<string, string>;
  body: unknown;
  delayMs: number;
  /** Requests left to answer; null for every one. */
  remaining: number | null;
}

/** The answer a matched request gets. */
export interface FaultAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  delayMs: number;
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const MAX_DELAY_MS = 60_000;
/** GitHub's docs for errors it sends without a more specific page. */
const REST_DOCS = "https://docs.github.com/rest";
/** What GitHub says when a client trips a secondary rate limit (its request id is appended). */
const SECONDARY_RATE_LIMIT_MESSAGE =
  "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.";
const SECONDARY_RATE_LIMIT_DOCS =
  "https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits";

const fail = (field: string, problem: string) => new InvalidInputError(problem, { field });

/** `/repos/:owner/:repo` or `/repos/{owner}/{repo}` -> a regular expression over a path; a `*` last matches the rest. */
function patternOf(path: unknown): RegExp {
  if (typeof path !== "string" || !path.startsWith("/") || path.length > 500) {
    throw fail(
      "path",
      `must be a path starting with "/", such as /repos/:owner/:repo/events, got ${JSON.stringify(path)}`,
    );
  }
  if (/[?#\s]/.test(path))
    throw fail("path", `must be a path without query, fragment or spaces, got ${JSON.stringify(path)}`);
  const segments = path
    .split("/")
    .slice(1)
    .map((segment, index, all) => {
      if (segment === "*" && index === all.length - 1) return ".*";
      const parameter = /^(?::([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})$/.exec(segment);
      if (parameter) return "[^/]+";
      if (/[:{}*]/.test(segment)) {
        throw fail(
          "path",
          `has a malformed segment ${JSON.stringify(segment)}: a parameter is :name or {name}, and * may only end the path`,
        );
      }
      return segment.replace(/[.+^$()|[\]\\]/g, "\\$&");
    });
  return new RegExp(`^/${segments.join("/")}/?$`);
}

function checked(spec: unknown): Omit<Fault, "id"> & { pattern: RegExp } {
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) throw fail("fault", "must be an object");
  const { method, path, status, headers, body, delayMs, times, ...rest } = spec as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined)
    throw fail(unknown, "is not a field of a fault (method, path, status, headers, body, delayMs, times)");
  if (method !== undefined && (typeof method !== "string" || !METHODS.has(method.toUpperCase()))) {
    throw fail("method", `must be one of ${[...METHODS].join(", ")}, got ${JSON.stringify(method)}`);
  }
  if (!Number.isInteger(status) || (status as number) < 100 || (status as number) > 599) {
    throw fail("status", `must be an HTTP status from 100 to 599, got ${JSON.stringify(status)}`);
  }
  if (
    headers !== undefined &&
    (typeof headers !== "object" ||
      headers === null ||
      Array.isArray(headers) ||
      Object.entries(headers).some(
        ([name, value]) => typeof value !== "string" || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name),
      ))
  ) {
    throw fail("headers", "must be an object of header names to string values");
  }
  if (
    delayMs !== undefined &&
    (!Number.isInteger(delayMs) || (delayMs as number) < 0 || (delayMs as number) > MAX_DELAY_MS)
  ) {
    throw fail("delayMs", `must be whole milliseconds from 0 to ${MAX_DELAY_MS}, got ${JSON.stringify(delayMs)}`);
  }
  if (times !== undefined && (!Number.isInteger(times) || (times as number) < 1)) {
    throw fail("times", `must be a whole number of requests, at least 1, got ${JSON.stringify(times)}`);
  }
  const code = status as number;
  return {
    method: typeof method === "string" ? method.toUpperCase() : null,
    path: path as string,
    pattern: patternOf(path),
    status: code,
    headers: { ...(headers as Record<string, string> | undefined) },
    body:
      body !== undefined
        ? body
        : code === 204 || code === 304
          ? null
          : { message: STATUS_CODES[code] ?? "Error", documentation_url: REST_DOCS },
    delayMs: (delayMs as number | undefined) ?? 0,
    remaining: (times as number | undefined) ?? null,
  };
}

export class FaultList {
  private readonly faults: (Fault & { pattern: RegExp })[] = [];
  private nextId = 1;

  /** Checks the fault whole before adding it: a bad one changes nothing. */
  add(spec: unknown): Fault {
    const fault = { id: this.nextId++, ...checked(spec) };
    this.faults.push(fault);
    return shown(fault);
  }

  /** GitHub's secondary rate limit: 403, `Retry-After`, and its message naming the request. */
  secondaryRateLimit(options: { path: string; method?: string; times?: number; retryAfter?: number }): Fault {
    const retryAfter = options.retryAfter ?? 60;
    if (!Number.isInteger(retryAfter) || retryAfter < 0)
      throw fail("retryAfter", `must be whole seconds, got ${JSON.stringify(retryAfter)}`);
    return this.add({
      method: options.method,
      path: options.path,
      times: options.times,
      status: 403,
      headers: { "retry-after": String(retryAfter) },
      body: { message: SECONDARY_RATE_LIMIT_MESSAGE, documentation_url: SECONDARY_RATE_LIMIT_DOCS },
    });
  }

  /** GitHub unavailable: 502 unless another 5xx is named, with its JSON error body. */
  unavailable(options: { path: string; method?: string; times?: number; status?: number }): Fault {
    const status = options.status ?? 502;
    if (!Number.isInteger(status) || status < 500 || status > 599)
      throw fail("status", `must be a 5xx status, got ${JSON.stringify(status)}`);
    return this.add({
      method: options.method,
      path: options.path,
      times: options.times,
      status,
      body: { message: status === 503 ? "Service Unavailable" : "Server Error" },
    });
  }

  clear(): void {
    this.faults.length = 0;
  }

  list(): Fault[] {
    return this.faults.map(shown);
  }

  get size(): number {
    return this.faults.length;
  }

  /**
   * The first fault matching the request, which it then answers one time fewer; null when none does.
   * @param path the request's path without its query and without the `/api/v3` prefix.
   * @param requestId appended to GitHub's secondary-rate-limit message, as GitHub appends its own.
   */
  take(method: string, path: string, requestId: string): FaultAnswer | null {
    const index = this.faults.findIndex(
      (fault) => (fault.method === null || fault.method === method) && fault.pattern.test(path),
    );
    if (index < 0) return null;
    const fault = this.faults[index]!;
    if (fault.remaining !== null && --fault.remaining === 0) this.faults.splice(index, 1);
    const body = isSecondaryRateLimit(fault.body)
      ? {
          ...fault.body,
          message: `${SECONDARY_RATE_LIMIT_MESSAGE} If you reach out to GitHub Support for help, please include the request ID ${requestId}.`,
        }
      : fault.body;
    return { status: fault.status, headers: fault.headers, body, delayMs: fault.delayMs };
  }
}

function isSecondaryRateLimit(body: unknown): body is { message: string } {
  return (
    typeof body === "object" &&
    body !== null &&
    (body as { message?: unknown }).message === SECONDARY_RATE_LIMIT_MESSAGE
  );
}

function shown({ pattern: _pattern, ...fault }: Fault & { pattern: RegExp }): Fault {
  return { ...fault, headers: { ...fault.headers } };
}
