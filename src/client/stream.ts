/**
 * `client.events.stream(operation, params)`: a feed's new events as an async iterator, read from the server's
 * Server-Sent Events (`Accept: text/event-stream`). A lost connection, or a stream the server ends, is opened again
 * with `Last-Event-ID`, so the server replays what arrived meanwhile and nothing is lost or repeated. Web-standard
 * APIs only (fetch, ReadableStream, TextDecoder), as the rest of the SDK, so it runs in browsers too.
 */
import { FeedgateError, type RedactedRequest } from "./errors.js";

/** The server answered the stream request with something else (a server without streams, or with them off). */
export class StreamUnavailableError extends FeedgateError {
  override name = "StreamUnavailableError";
  readonly code = "ENOSTREAM";
  constructor(
    message: string,
    readonly request: RedactedRequest,
  ) {
    super(message);
  }
}

/**
 * The server's `gap` event: the stream resumed after `last_event_id`, but more events than the server replays
 * (`replay_max`, its `--stream-replay-max`) were stored since. They are not sent on the stream: read them from
 * `feed_url` (the feed's pages, newest first, down to `last_event_id`). The stream goes on with newer events.
 */
export interface StreamGap {
  last_event_id: string;
  replay_max: number;
  feed_url: string;
  message: string;
}

/** A gap the caller gave no `onGap` for: thrown, so that events are never skipped without the caller knowing. */
export class StreamGapError extends FeedgateError {
  override name = "StreamGapError";
  readonly code = "ESTREAMGAP";
  constructor(readonly gap: StreamGap) {
    super(`stream gap: ${gap.message} (${gap.feed_url})`);
  }
}

export interface StreamOptions {
  /** Start after this event (its id), as a reconnecting client would; without it, with the next event stored. */
  lastEventId?: string;
  /** Ends the iteration (it returns, it does not throw). */
  signal?: AbortSignal;
  /**
   * Called when the server skipped events (a resume too far back): read them from `gap.feed_url`; the iteration
   * goes on with newer events. Without it, a gap ends the iteration with StreamGapError.
   */
  onGap?: (gap: StreamGap) => void;
}

interface Frame {
  id: string | undefined;
  event: string;
  data: string;
}

/** What opening a stream gave: its body, or a failure to throw (HttpError, StreamUnavailableError, ...). */
export type Opened = { body: ReadableStream<Uint8Array> } | { failure: Error };

/** The HTML standard's event-stream parser, for the fields feedgate sends (id, event, data, retry). */
async function* frames(body: ReadableStream<Uint8Array>, onRetry: (ms: number) => void): AsyncGenerator<Frame> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = "";
  let frame: Frame = { id: undefined, event: "message", data: "" };
  let hasData = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split(/\r\n|\r|\n/);
      buffer = lines.pop()!;
      for (const line of lines) {
        if (line === "") {
          if (hasData) yield frame;
          frame = { id: undefined, event: "message", data: "" };
          hasData = false;
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const name = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (name === "data") {
          frame.data = hasData ? `${frame.data}\n${value}` : value;
          hasData = true;
        } else if (name === "id") frame.id = value;
        else if (name === "event") frame.event = value;
        else if (name === "retry" && /^[0-9]+$/.test(value)) onRetry(Number(value));
      }
    }
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => undefined);
  }
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/**
 * Events, parsed, from `open` and its reopenings. The first opening's failure is thrown (a wrong URL, a 404);
 * afterwards, a failure to reach the server is waited out (the server's `retry` interval) and tried again,
 * while an answer that refuses (a deleted token's 401) is thrown.
 * @param isUnreachable whether a failure of `open` is the network's (tried again) rather than the server's answer.
 */
export async function* followStream<T>(
  open: (lastEventId: string | undefined, signal: AbortSignal) => Promise<Opened>,
  parse: (data: string) => T,
  isUnreachable: (error: Error) => boolean,
  options: StreamOptions = {},
): AsyncGenerator<T, void, undefined> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  options.signal?.addEventListener("abort", stop, { once: true });
  let lastEventId = options.lastEventId;
  let retryMs = 1000;
  try {
    for (let opened = false; !controller.signal.aborted; opened = true) {
      let answer: Opened;
      try {
        answer = await open(lastEventId, controller.signal);
      } catch (error) {
        if (controller.signal.aborted) return;
        if (!opened || !isUnreachable(error as Error)) throw error;
        await pause(retryMs, controller.signal);
        continue;
      }
      if ("failure" in answer) throw answer.failure;
      // Thrown after the loop, whose catch is for the connection's failures only: a gap nobody handles, or onGap's own error.
      let failure: unknown;
      try {
        for await (const frame of frames(answer.body, (ms) => (retryMs = ms))) {
          if (frame.event === "gap") {
            // Not a feed event, and without an id: the last event id stays the one the server skipped from.
            const gap = JSON.parse(frame.data) as StreamGap;
            try {
              if (!options.onGap) throw new StreamGapError(gap);
              options.onGap(gap);
            } catch (error) {
              failure = error;
              break;
            }
            continue;
          }
          if (frame.id !== undefined) lastEventId = frame.id;
          yield parse(frame.data);
        }
      } catch {
        // The connection broke mid-stream: reopened after the pause, as an ended stream is.
        if (controller.signal.aborted) return;
      }
      if (failure !== undefined) throw failure;
      await pause(retryMs, controller.signal);
    }
  } finally {
    options.signal?.removeEventListener("abort", stop);
    controller.abort();
  }
}
