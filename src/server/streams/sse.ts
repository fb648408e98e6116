/**
 * One Server-Sent Events response (https://html.spec.whatwg.org/multipage/server-sent-events.html): frames written
 * to a stream that Fastify pipes to the socket, so every onSend hook (rate-limit and response headers) runs as for
 * any answer. Nothing here knows about feeds.
 */
import type { ServerResponse } from "node:http";
import { PassThrough } from "node:stream";

/**
 * Bytes a client may leave unread before its stream is ended: a stalled reader must not grow the server's memory.
 * It loses nothing by it: it reconnects with `Last-Event-ID` and is replayed what it missed.
 */
const MAX_UNSENT_BYTES = 1024 * 1024;

/** How long EventSource clients wait before reconnecting (the `retry` field), in milliseconds. */
const RECONNECT_MS = 1000;

export class SseStream {
  readonly body = new PassThrough();
  #ended = false;

  constructor(private readonly response: ServerResponse) {
    // The first bytes: Fastify sends the headers with them, so the client sees the stream open at once.
    this.body.write(`retry: ${RECONNECT_MS}\n\n`);
    // A client that goes away may only half-close (undici does, on abort): Node then drops the response but keeps
    // the socket, unfinished, until a timeout, and a stopping server waits for it. A stream cut short takes it along.
    this.body.once("close", () => {
      if (!response.writableFinished) response.destroy();
    });
  }

  get ended(): boolean {
    return this.#ended || this.body.destroyed;
  }

  /** One event's frame. A field's value cannot hold a line break: each line of `data` is a `data:` line of its own. */
  static frame(id: string, type: string, data: string): string {
    return `id: ${id}\nevent: ${type}\n${data.split(/\r\n|\r|\n/).map((line) => `data: ${line}`).join("\n")}\n\n`;
  }

  event(id: string, type: string, data: string): void {
    this.write(SseStream.frame(id, type, data));
  }

  /** Frames made by frame(), several at once: one write to the socket for all of them. */
  frames(text: string): void {
    if (text) this.write(text);
  }

  /** A comment line: clients ignore it; proxies and idle timers see traffic. */
  comment(text: string): void {
    this.write(`: ${text}\n\n`);
  }

  /** Ends the response; `why`, when given, is sent first as a comment. */
  end(why?: string): void {
    if (this.ended) return;
    if (why) this.body.write(`: ${why}\n\n`);
    this.#ended = true;
    // The connection goes with the stream: kept alive, it would hold a stopping server's close until the keep-alive
    // timeout (its headers said keep-alive long before the stop), and a client that reconnects opens a new one anyway.
    this.response.once("finish", () => this.response.socket?.end());
    this.body.end();
  }

  /** Called once the stream is over, however it ended (the client went away, or end()). */
  onClose(listener: () => void): void {
    this.body.once("close", listener);
  }

  private write(frame: string): void {
    if (this.ended) return;
    if (this.body.readableLength + this.response.writableLength > MAX_UNSENT_BYTES) return this.end("closed: the client reads too slowly");
    this.body.write(frame);
  }
}
