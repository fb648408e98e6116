/**
 * Each row's own ceiling (issue 27) answers the row's requests with the bytes feedgate sent for them. This file
 * captures those bytes from the running feedgate (status, reason phrase, headers in wire order with their case,
 * body), writes them where bench/row-ceiling.ts loads them, and compares a response with its capture, so a row is
 * never measured against a ceiling that sends something else.
 *
 * Requests go through node:http, not fetch: its rawHeaders keep the names' case, the order and repeated headers.
 */
import { writeFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { Measurement, Scenario } from "./load.js";

/** Headers node:http writes itself, per connection (the ceiling's server adds them the way feedgate's does). */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding"]);

/**
 * Headers whose value changes from one request to the next (counters, the time): the ceiling sends a captured
 * value, taken again from feedgate just before the row runs (see checkRow), so it has the size feedgate's has
 * then; a counter may gain a digit during the row. Headers seen to change between the two captures of a row are
 * added to these.
 */
const ALWAYS_VOLATILE = [
  "date",
  "x-github-request-id",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "x-ratelimit-used",
];

export interface RawResponse {
  status: number;
  statusMessage: string;
  /** Name, value, name, value...: node:http's rawHeaders, hop-by-hop headers removed. */
  headers: string[];
  body: Buffer;
  /** Sent with Transfer-Encoding: chunked (no Content-Length): the ceiling must send it the same way. */
  chunked: boolean;
  /** From `Keep-Alive: timeout=N`, so the ceiling's server sends the same header. */
  keepAliveSeconds: number | null;
}

/** One row's capture, as the ceiling loads it (the body in base64). */
export interface CaptureEntry {
  /** The idle scenario's key: live rows use their idle counterpart's ceiling. */
  key: string;
  method: string;
  path: string;
  /** The 304 row: the ETag its requests send; the ceiling answers 304 to it only. */
  ifNoneMatch: string | null;
  status: number;
  statusMessage: string;
  headers: string[];
  body: string;
  chunked: boolean;
  keepAliveSeconds: number | null;
  /** Lowercased names whose values change per request (see ALWAYS_VOLATILE): any value passes a check, refreshed before the row. */
  volatileHeaders: string[];
  /** The two captures' bodies differed (POST /authorizations mints a new token each time): only the length is held. */
  volatileBody: boolean;
}

export interface CaptureFile {
  entries: CaptureEntry[];
}

/** The ceiling a row is measured against: its own key, or its idle counterpart's for a live row. */
export const ceilingKey = (key: string) => key.replace(/^live-/, "");

/** One request, answered as node:http sees it on the wire. */
export function rawRequest(
  url: string,
  scenario: Pick<Scenario, "method" | "path" | "headers" | "body">,
): Promise<RawResponse> {
  // Keep-alive like autocannon's connections, so the server answers as it answers the load (Keep-Alive included);
  // an agent of its own, destroyed once answered, so no idle socket outlives the request.
  const agent = new Agent({ keepAlive: true });
  return new Promise<RawResponse>((resolve, reject) => {
    const sent = httpRequest(
      url + scenario.path,
      { method: scenario.method, headers: scenario.headers, agent },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.once("error", reject);
        response.once("end", () => {
          const headers: string[] = [];
          let chunked = false;
          let keepAliveSeconds: number | null = null;
          const raw = response.rawHeaders;
          for (let i = 0; i < raw.length; i += 2) {
            const [name, value] = [raw[i]!, raw[i + 1]!];
            const lower = name.toLowerCase();
            if (lower === "transfer-encoding") chunked = /chunked/i.test(value);
            if (lower === "keep-alive") keepAliveSeconds = Number(/timeout=(\d+)/.exec(value)?.[1] ?? NaN) || null;
            if (!HOP_BY_HOP.has(lower)) headers.push(name, value);
          }
          resolve({
            status: response.statusCode!,
            statusMessage: response.statusMessage ?? "",
            headers,
            body: Buffer.concat(chunks),
            chunked,
            keepAliveSeconds,
          });
        });
      },
    );
    sent.once("error", reject);
    sent.end(scenario.body);
  }).finally(() => agent.destroy());
}

/** The request a row sends: the 304 row's If-None-Match is the ETag of a first, unconditional response. */
export async function rowRequest(url: string, scenario: Scenario): Promise<Scenario> {
  if (scenario.expect !== 304) return scenario;
  const { "If-None-Match": _earlier, ...unconditional } = scenario.headers;
  const first = await rawRequest(url, { ...scenario, headers: unconditional });
  const etag = header(first, "etag");
  if (etag === null) throw new Error(`${scenario.path} sent no ETag`);
  return { ...scenario, headers: { ...scenario.headers, "If-None-Match": etag } };
}

export function header(response: Pick<RawResponse, "headers">, name: string): string | null {
  for (let i = 0; i < response.headers.length; i += 2)
    if (response.headers[i]!.toLowerCase() === name) return response.headers[i + 1]!;
  return null;
}

/** Captures a row twice: headers that differ between the two join ALWAYS_VOLATILE; a body that differs is held to its length. */
export async function capture(url: string, key: string, scenario: Scenario): Promise<CaptureEntry> {
  const first = await rawRequest(url, scenario);
  const second = await rawRequest(url, scenario);
  if (first.status !== scenario.expect) {
    throw new Error(
      `capture of ${scenario.method} ${scenario.path}: ${first.status}, expected ${scenario.expect}: ${first.body.toString().slice(0, 300)}`,
    );
  }
  const volatile = new Set(ALWAYS_VOLATILE);
  for (let i = 0; i < first.headers.length; i += 2) {
    const name = first.headers[i]!.toLowerCase();
    if (header(second, name) !== first.headers[i + 1]) volatile.add(name);
  }
  return {
    key,
    method: scenario.method,
    path: scenario.path,
    ifNoneMatch: scenario.headers["If-None-Match"] ?? null,
    status: second.status,
    statusMessage: second.statusMessage,
    headers: second.headers,
    body: second.body.toString("base64"),
    chunked: second.chunked,
    keepAliveSeconds: second.keepAliveSeconds,
    volatileHeaders: [...volatile].sort(),
    volatileBody: !first.body.equals(second.body),
  };
}

/**
 * Why `response` is not what `entry` captured, or null when it is. `exact`: byte for byte (the ceiling replaying
 * its capture); otherwise (feedgate answering again) volatile headers may hold any value and a volatile body
 * must keep its length, give or take a digit or two.
 */
export function difference(entry: CaptureEntry, response: RawResponse, exact: boolean): string | null {
  if (response.status !== entry.status) return `status ${response.status}, captured ${entry.status}`;
  if (response.statusMessage !== entry.statusMessage)
    return `reason "${response.statusMessage}", captured "${entry.statusMessage}"`;
  if (response.chunked !== entry.chunked) return `chunked ${response.chunked}, captured ${entry.chunked}`;
  if (response.keepAliveSeconds !== entry.keepAliveSeconds)
    return `Keep-Alive timeout ${response.keepAliveSeconds}, captured ${entry.keepAliveSeconds}`;
  const names = (h: string[]) => h.filter((_, i) => i % 2 === 0).join(", ");
  if (names(response.headers) !== names(entry.headers))
    return `headers [${names(response.headers)}], captured [${names(entry.headers)}]`;
  for (let i = 1; i < entry.headers.length; i += 2) {
    const [name, was, is] = [entry.headers[i - 1]!, entry.headers[i]!, response.headers[i]!];
    if (is === was) continue;
    if (exact || !entry.volatileHeaders.includes(name.toLowerCase())) return `${name}: "${is}", captured "${was}"`;
  }
  const body = Buffer.from(entry.body, "base64");
  if (body.equals(response.body)) return null;
  if (exact || !entry.volatileBody)
    return `body of ${response.body.length} bytes differs from the captured ${body.length}`;
  // A minted token's id may gain a digit; anything more is another answer.
  return Math.abs(body.length - response.body.length) > 16
    ? `body is ${response.body.length} bytes, captured ${body.length}`
    : null;
}

/** A capture in a line: what the report shows beside the row's ceiling. */
export function describeCapture(entry: CaptureEntry): string {
  const bytes = Buffer.from(entry.body, "base64").length;
  // "Name: value\r\n": two bytes after each name and after each value.
  const headerBytes = entry.headers.reduce((sum, h) => sum + Buffer.byteLength(h) + 2, 0);
  return (
    `${entry.status}, ${entry.headers.length / 2} headers (${headerBytes} bytes), ${bytes.toLocaleString("en-US")} bytes of body` +
    `${entry.chunked ? " (chunked)" : ""}${entry.volatileBody ? ", body differs per request (length held)" : ""}`
  );
}

/** A row's own ceiling through the run: its capture, whether it still holds, and its measurement. */
export interface OwnCeiling {
  /** The idle row's key (ceilingKey). */
  key: string;
  /** The row's request, sent to the ceiling process (the 304 row's with the captured ETag). */
  scenario: Scenario;
  entry: CaptureEntry;
  /** Why the ceiling would not send what feedgate sends (then it is not measured and the row has no ratio). */
  problem: string | null;
  measurement?: Measurement;
}

/** Captures each distinct row once (a live row shares its idle counterpart's), before any load. */
export async function captureRows(url: string, scenarios: Scenario[]): Promise<OwnCeiling[]> {
  const ceilings: OwnCeiling[] = [];
  for (const s of scenarios) {
    const key = ceilingKey(s.key);
    if (s.target !== "feedgate" || ceilings.some((c) => c.key === key)) continue;
    const request = await rowRequest(url, { ...s, key, live: undefined });
    const entry = await capture(url, key, request);
    const label = s.label.replace(/^live: /, "");
    ceilings.push({
      key,
      scenario: { ...request, target: "ceiling", label: `own ceiling: ${label}` },
      entry,
      problem: null,
    });
  }
  return ceilings;
}

/** The ceiling process must send each capture back byte for byte (hop-by-hop headers aside). */
export async function checkReplay(url: string, ceilings: OwnCeiling[]): Promise<void> {
  for (const c of ceilings) {
    const problem = difference(c.entry, await rawRequest(url, c.scenario), true);
    if (problem !== null) c.problem = `the ceiling's replay differs: ${problem}`;
  }
}

/**
 * Just before a row is measured, while its ceiling is still to be measured. An idle row: feedgate must still
 * answer its request as captured (same status, header names and values, body; the 304 row's ETag unchanged), or
 * the row is not compared with a ceiling that sends something else; then the capture takes feedgate's answer of
 * now, so counters and request ids have the size they have during the row. A live row (its idle counterpart did
 * not run): only the volatile headers are taken, the page stays the one captured before any ingest.
 * @returns whether the capture changed (the ceiling process must load it again: reloadCeiling).
 */
export async function checkRow(url: string, row: Scenario, ceiling: OwnCeiling): Promise<boolean> {
  if (ceiling.problem !== null || ceiling.measurement !== undefined) return false;
  const etag = row.headers["If-None-Match"] ?? null;
  if (!row.live && etag !== ceiling.entry.ifNoneMatch) {
    ceiling.problem = `the row polls with ETag ${etag}, captured with ${ceiling.entry.ifNoneMatch}`;
    return false;
  }
  const now = await rawRequest(url, row.live ? ceiling.scenario : row);
  if (row.live) return refreshVolatileHeaders(ceiling.entry, now);
  const problem = difference(ceiling.entry, now, false);
  if (problem !== null) {
    ceiling.problem = `feedgate's answer changed since the capture: ${problem}`;
    return false;
  }
  if (difference(ceiling.entry, now, true) === null) return false;
  ceiling.entry = { ...ceiling.entry, headers: now.headers, body: now.body.toString("base64") };
  return true;
}

/** The volatile headers' values of `now`, when it has the same header names as the capture. */
function refreshVolatileHeaders(entry: CaptureEntry, now: RawResponse): boolean {
  if (now.headers.length !== entry.headers.length) return false;
  const headers = [...entry.headers];
  for (let i = 0; i < headers.length; i += 2) {
    if (now.headers[i] !== headers[i]) return false;
    if (entry.volatileHeaders.includes(headers[i]!.toLowerCase())) headers[i + 1] = now.headers[i + 1]!;
  }
  if (headers.every((h, i) => h === entry.headers[i])) return false;
  entry.headers = headers;
  return true;
}

/** Writes the captures where bench/row-ceiling.ts reads them. */
export function writeCaptures(file: string, ceilings: OwnCeiling[]): void {
  writeFileSync(file, JSON.stringify({ entries: ceilings.map((c) => c.entry) } satisfies CaptureFile));
}

/**
 * Has the ceiling process read the captures again (SIGHUP) and waits until it sends `ceiling`'s back byte for
 * byte: the replay check of a refreshed capture.
 */
export async function reloadCeiling(
  pid: number,
  url: string,
  file: string,
  ceilings: OwnCeiling[],
  ceiling: OwnCeiling,
): Promise<void> {
  writeCaptures(file, ceilings);
  process.kill(pid, "SIGHUP");
  const deadline = Date.now() + 10_000;
  for (;;) {
    const problem = difference(ceiling.entry, await rawRequest(url, ceiling.scenario), true);
    if (problem === null) return;
    if (Date.now() > deadline) {
      ceiling.problem = `the ceiling's replay of the refreshed capture differs: ${problem}`;
      return;
    }
    await sleep(50);
  }
}
