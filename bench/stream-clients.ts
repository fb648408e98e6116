/**
 * One of the stream benchmark's client processes (./streams.ts forks several, so that reading the frames of
 * thousands of streams does not saturate one event loop and turn the client's own queue into the latency measured).
 *
 * Each stream is a plain TCP socket carrying `GET /events`: the bytes are searched for `\nid: ` (an event's first
 * line; a `data:` line cannot hold a line break, and the chunked encoding's size lines end in `\r\n`), and the id
 * that follows is the event's sequence number. Nothing else is parsed: the client costs a socket read per chunk,
 * not an HTTP parser and a UTF-8 decoder per stream.
 *
 * Arrival times are wall-clock milliseconds (`performance.timeOrigin + performance.now()`, one clock for every
 * process of the machine), counted per ingest batch against the moment the batch was scheduled to be posted (known
 * before it is sent, so no message from the poster can arrive after its events); the poster shifts each batch's
 * histogram to its acknowledgement.
 *
 * Messages: in `open` (open the streams), out `opened`; in `start` (the schedule's first moment), out `complete` once
 * every stream has every event; in `finish`, out `result` (histograms, sparse), then the process exits.
 */
import { connect, type Socket } from "node:net";
import { Histogram } from "./histogram.js";

export interface ClientPlan {
  host: string;
  port: number;
  streams: number;
  /** Streams opening at once, per process. */
  opening: number;
  firstId: number;
  events: number;
  batch: number;
  /** Milliseconds between two batches' scheduled moments. */
  batchMs: number;
}

export type ToClient = { kind: "open"; plan: ClientPlan } | { kind: "start"; wallMs: number } | { kind: "finish" };
export type FromClient =
  | { kind: "opened" }
  | { kind: "complete" }
  | { kind: "result"; frames: number; incomplete: number; batches: Array<Array<[number, number]>> }
  | { kind: "failed"; message: string };

const MARK = Buffer.from("\nid: ");
/** Where every socket of the process reads (net's `onread`): a read is handled before the next one overwrites it. */
const READ_BUFFER = Buffer.alloc(256 * 1024);
const wallNow = () => performance.timeOrigin + performance.now();

interface ClientStream {
  socket?: Socket;
  received: number;
  carry: Buffer | null;
}

function send(message: FromClient): void {
  process.send!(message);
}

class Clients {
  private readonly streams: ClientStream[] = [];
  private readonly arrivals: Histogram[];
  private startWall = Number.NaN;
  private complete = 0;
  private counting = true;

  constructor(private readonly plan: ClientPlan) {
    this.arrivals = Array.from({ length: Math.ceil(plan.events / plan.batch) }, () => new Histogram());
  }

  async open(): Promise<void> {
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(this.plan.opening, this.plan.streams) }, async () => {
        while (next < this.plan.streams) {
          next++;
          const stream: ClientStream = { received: 0, carry: null };
          this.streams.push(stream);
          stream.socket = await this.openOne(stream);
        }
      }),
    );
  }

  start(wallMs: number): void {
    this.startWall = wallMs;
  }

  result(): FromClient {
    this.counting = false;
    for (const stream of this.streams) stream.socket?.destroy();
    return {
      kind: "result",
      frames: this.streams.reduce((sum, s) => sum + s.received, 0),
      incomplete: this.streams.filter((s) => s.received < this.plan.events).length,
      batches: this.arrivals.map((h) => h.buckets()),
    };
  }

  /**
   * Resolves once the status line is in (a 200), with the socket reading frames from then on. Every socket of the
   * process reads into one buffer (`onread`): no buffer allocated and no stream event per read, so that the time to
   * an arrival is the server's and the kernel's rather than this process's.
   */
  private openOne(stream: ClientStream): Promise<Socket> {
    return new Promise((resolve, reject) => {
      let head = true;
      const socket = connect({
        port: this.plan.port,
        host: this.plan.host,
        onread: {
          buffer: READ_BUFFER,
          callback: (length: number, buffer: Uint8Array) => {
            const chunk = Buffer.from(buffer.buffer, buffer.byteOffset, length);
            if (head) {
              head = false;
              if (!chunk.subarray(0, 13).toString("latin1").startsWith("HTTP/1.1 200")) {
                reject(new Error(`stream refused: ${chunk.subarray(0, 40).toString("latin1")}`));
                return false;
              }
              resolve(socket);
            }
            this.read(stream, chunk);
            return true;
          },
        },
      });
      socket.on("error", reject);
      socket.write(
        `GET /events HTTP/1.1\r\nHost: ${this.plan.host}:${this.plan.port}\r\nAccept: text/event-stream\r\n\r\n`,
      );
    });
  }

  /** Reads one chunk (a view of the shared read buffer: what is kept for the next read is copied). */
  private read(stream: ClientStream, chunk: Buffer): void {
    const now = wallNow();
    const buf = stream.carry ? Buffer.concat([stream.carry, chunk]) : chunk;
    stream.carry = null;
    let at = buf.indexOf(MARK);
    while (at >= 0) {
      const eol = buf.indexOf(10, at + MARK.length);
      if (eol < 0) {
        stream.carry = Buffer.from(buf.subarray(at));
        return;
      }
      this.arrived(stream, Number(buf.toString("latin1", at + MARK.length, eol)), now);
      at = buf.indexOf(MARK, eol);
    }
    // The mark itself may be cut in two: keep the last line's start when it is shorter than the mark.
    const lastLine = buf.lastIndexOf(10);
    if (lastLine >= 0 && buf.length - lastLine < MARK.length) stream.carry = Buffer.from(buf.subarray(lastLine));
  }

  private arrived(stream: ClientStream, id: number, now: number): void {
    if (!this.counting) return;
    const batch = Math.floor((id - this.plan.firstId) / this.plan.batch);
    this.arrivals[batch]?.add(now - (this.startWall + batch * this.plan.batchMs));
    if (++stream.received === this.plan.events && ++this.complete === this.plan.streams) send({ kind: "complete" });
  }
}

let clients: Clients | undefined;
process.on("message", (message: ToClient) => {
  if (message.kind === "open") {
    clients = new Clients(message.plan);
    clients.open().then(
      () => send({ kind: "opened" }),
      (error: unknown) => send({ kind: "failed", message: String(error) }),
    );
  } else if (message.kind === "start") {
    clients!.start(message.wallMs);
  } else {
    send(clients!.result());
    process.disconnect();
  }
});
