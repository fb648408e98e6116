/**
 * One Server-Sent Events response (https://html.spec.whatwg.org/multipage/server-sent-events.html): frames written
 * to a stream that Fastify pipes to the socket, so every onSend hook (rate-limit and response headers) runs as for
 * any answer. Nothing here knows about feeds.
 */
import type { ServerResponse } from "node:http";
import { Socket } from "node:net";
import { PassThrough } from "node:stream";
import { FrameBytes } from "./frames.js";

/**
 * Bytes a stream may hold unsent before the hub stops writing to it for a while (`congested`): a large ingest is
 * written a chunk at a time, faster than any socket takes it, and the hub waits for the client to catch up.
 */
const CONGESTED_BYTES = 1024 * 1024;
/**
 * Past this, a stream is cut: only comments (heartbeats) and one chunk can be written to a congested stream, so
 * this is a safety net against a reader that never reads, not a limit the hub runs into.
 */
const MAX_UNSENT_BYTES = 16 * 1024 * 1024;

/** How long EventSource clients wait before reconnecting (the `retry` field), in milliseconds. */
const RECONNECT_MS = 1000;

const HEARTBEAT = new FrameBytes(Buffer.from(": heartbeat\n\n"));

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
    return `id: ${id}\nevent: ${type}\n${data
      .split(/\r\n|\r|\n/)
      .map((line) => `data: ${line}`)
      .join("\n")}\n\n`;
  }

  event(id: string, type: string, data: string): void {
    this.write(SseStream.frame(id, type, data));
  }

  /**
   * An event that is not one of the feed's: no `id` field, so the client's last event id (what it resumes after)
   * stays the last feed event it was sent.
   */
  notice(type: string, data: string): void {
    this.write(
      `event: ${type}\n${data
        .split(/\r\n|\r|\n/)
        .map((line) => `data: ${line}`)
        .join("\n")}\n\n`,
    );
  }

  /** Frames made by frame(), several at once, already encoded (shared by every stream they go to): one write for all. */
  frames(frames: FrameBytes): void {
    if (frames.bytes.length === 0 || this.ended) return;
    const socket = this.direct();
    if (socket && this.unsent <= MAX_UNSENT_BYTES) socket.write(frames.chunk());
    else this.write(frames.bytes);
  }

  /** A comment line: clients ignore it; proxies and idle timers see traffic. The same bytes for every stream. */
  heartbeat(): void {
    this.frames(HEARTBEAT);
  }

  /**
   * The connection, when shared frames may be written to it as they are: the response is under way as a chunked
   * body, and neither the body nor the response holds bytes that they would have to follow. Written there as one
   * ready-made chunk (FrameBytes.chunk), a stream's frames skip the body's and the response's stream machinery and the
   * response's write deferred to the next tick, so that the kernel's write is most of what is left. Anything
   * else (the first bytes, which carry the headers; notices; the end) goes through the body, behind whatever it holds.
   * A response without a network socket (an injected request's) is always written through the body.
   */
  private direct(): Socket | null {
    const { response, body } = this;
    const socket = response.socket;
    if (
      !(socket instanceof Socket) ||
      !socket.writable ||
      !response.headersSent ||
      !response.chunkedEncoding ||
      response.writableEnded
    ) {
      return null;
    }
    // The response's own length counts its socket's: past that, it holds bytes it has not handed over yet.
    if (body.writableLength + body.readableLength > 0 || response.writableLength > socket.writableLength) return null;
    return socket;
  }

  /**
   * Bytes written and not yet taken by the client's socket: both sides of the body (once the response stops taking
   * them, the body's readable side fills to its mark, and every later write waits on its writable side) and the response.
   */
  private get unsent(): number {
    return this.body.writableLength + this.body.readableLength + this.response.writableLength;
  }

  /** The client has not taken what it was sent: write it nothing more until it has. */
  get congested(): boolean {
    return this.unsent > CONGESTED_BYTES;
  }

  /**
   * Ends the stream at once, unsent bytes and socket included: for a client that stopped reading (a graceful end
   * would wait for it to read them, and hold its stream slot meanwhile). It loses nothing it cannot get back: it
   * reconnects with `Last-Event-ID`.
   */
  cut(): void {
    if (this.ended) return;
    this.#ended = true;
    this.body.destroy();
    this.response.destroy();
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

  private write(frame: string | Buffer): void {
    if (this.ended) return;
    if (this.unsent > MAX_UNSENT_BYTES) {
      this.cut();
      return;
    }
    this.body.write(frame);
  }
}
