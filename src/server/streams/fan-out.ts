/**
 * Fan-out with backpressure: each group's new events read once, rendered once per way of rendering them, and written
 * to each of its streams in one write, a slice of streams per turn of the event loop; a stream whose client has not
 * taken what it was sent waits (its cursor where it is), and is cut once it has waited too long.
 */
import { toWireEventJson } from "../convert/event.js";
import type { Arrivals, ArrivedEvent, FeedTarget } from "../store/store.js";
import { RenderedFrames } from "./frames.js";
import type { Group, StreamFormat, Subscriber } from "./registry.js";
import { SseStream } from "./sse.js";

/** Events read per group and read: what replaying far back holds in memory at once. */
const CHUNK = 500;
/**
 * Streams written in one turn of the event loop before the hub lets the rest of the server run: a fan-out's socket
 * writes cost tens of microseconds each (mostly the kernel's), so 10,000 streams written at once would hold an
 * ingest's acknowledgement, and every poll, for a third of a second or more.
 */
export const STREAMS_PER_TURN = 250;
/** A stream whose client has taken nothing of what it was sent for this long is cut (it reconnects when it can). */
const STALLED_MS = 30_000;

/** The kind of an event for the `event:` field: its type, or an issue event's `event` ("closed"). */
function kindOf(row: ArrivedEvent): string {
  if (row.type !== null) return row.type;
  const { event } = JSON.parse(row.body) as { event?: unknown };
  return typeof event === "string" ? event : "IssueEvent";
}

/** The API's: the event's type as `event:`, its wire JSON as `data`. */
export const WIRE_FORMAT: StreamFormat = { name: "wire", kind: kindOf, data: toWireEventJson };

/** After the I/O that is waiting (setImmediate runs after the poll phase). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Reads a feed's events that arrived after `after`, up to `upTo`, at most `limit` of them (FeedService.arrivals). */
export type ReadArrivals = (target: FeedTarget, after: number, upTo: number, limit: number) => Promise<ArrivedEvent[]>;

/**
 * Whether to skip the member for now: its client is congested (cut once it has stayed so for STALLED_MS). How long a
 * client has not read is a transport timeout, measured in real time like the sockets' own; the server's clock (which
 * a test may hold still) is for rules.
 */
function waitsForClient(member: Subscriber): boolean {
  if (!member.sink.congested) {
    member.congestedSince = undefined;
    return false;
  }
  const now = performance.now();
  member.congestedSince ??= now;
  if (now - member.congestedSince > STALLED_MS) member.sink.cut();
  return true;
}

/**
 * Sends each group's new events, up to `top`, to the members that have not had them, CHUNK at a time. Returns whether
 * a member was left behind because its client was congested: the next check (at most a check interval away) tries
 * again, so a large ingest reaches a slow reader at its own pace.
 */
export async function deliver(groups: readonly Group[], top: Arrivals, read: ReadArrivals): Promise<boolean> {
  let leftBehind = false;
  const ready = (member: Subscriber) => {
    if (member.sink.ended) return false;
    if (!waitsForClient(member)) return true;
    leftBehind = true;
    return false;
  };
  for (const group of groups) {
    const upTo = top[group.table];
    for (;;) {
      // Members that join while this group is read wait for the next pass, as their cursors are not here.
      const members = [...group.members].filter(ready);
      if (members.length === 0) break;
      const after = Math.min(...members.map((m) => m.cursor));
      if (after >= upTo) break;
      const rows = await read(group.target, after, upTo, CHUNK);
      // Each event is rendered and encoded once per way of rendering it (format, base URL, integer ids), not once per
      // stream, and each stream gets its new events in one write of those same bytes.
      const seqs = rows.map((row) => row.seq);
      const rendered = new Map<string, RenderedFrames>();
      for (let i = 0; i < members.length; i++) {
        // The event loop's other work (an ingest's acknowledgement, polls) waits for one slice, not the whole fan-out.
        if (i > 0 && i % STREAMS_PER_TURN === 0) await nextTurn();
        const member = members[i]!;
        let frames = rendered.get(member.variant);
        if (!frames) {
          const format = member.request.format ?? WIRE_FORMAT;
          frames = new RenderedFrames(
            seqs,
            rows.map((row) =>
              SseStream.frame(row.id, format.kind(row), format.data(row, member.baseUrl, member.request.integerIds)),
            ),
          );
          rendered.set(member.variant, frames);
        }
        const bytes = frames.after(member.cursor);
        if (bytes) member.sink.frames(bytes);
      }
      const reached = rows.length < CHUNK ? upTo : rows[rows.length - 1]!.seq;
      for (const member of members) member.cursor = Math.max(member.cursor, reached);
      if (rows.length < CHUNK) break;
    }
  }
  return leftBehind;
}

/** A heartbeat to each stream, STREAMS_PER_TURN per turn of the event loop, as a fan-out is written. */
export async function heartbeat(sinks: readonly SseStream[]): Promise<void> {
  for (let i = 0; i < sinks.length; i++) {
    if (i > 0 && i % STREAMS_PER_TURN === 0) await nextTurn();
    sinks[i]!.heartbeat();
  }
}
