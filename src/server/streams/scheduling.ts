/**
 * When the hub looks: wake-ups from writes through this app (an ingest, a deleted token), from PostgreSQL's NOTIFY
 * for writes through other instances, and from a check every CHECK_MS that cannot miss anything: it is what finds
 * writes of other processes on a SQLite file (`PRAGMA data_version` moves) and what covers a LISTEN connection being
 * lost. One pass runs at a time; wake-ups that come during it are one more pass after it. The timers and the LISTEN
 * connection exist while a stream is open.
 */
import type { FastifyBaseLogger } from "fastify";

/** How often the version is checked when nothing woke the hub: "within a second" with room to spare. */
const CHECK_MS = 500;

export interface SchedulerParts {
  /** One pass over the streams; false when it failed, and the next check, not the wake-ups meanwhile, tries again. */
  pass(): Promise<boolean>;
  /** A heartbeat to every stream, every `heartbeatMs`. */
  heartbeat(): Promise<void>;
  heartbeatMs: number;
  /** Listens for writes through other instances (EventStore.listenForChanges). */
  listenForChanges(listener: () => void): Promise<() => Promise<void>>;
  log: FastifyBaseLogger;
}

export class Scheduler {
  private checkTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private stopListening: Promise<() => Promise<void>> | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private active = false;
  #closed = false;

  constructor(private readonly parts: SchedulerParts) {}

  get closed(): boolean {
    return this.#closed;
  }

  /** The first stream opened: check, send heartbeats and listen until stop(). */
  start(): void {
    this.active = true;
    this.checkTimer = setInterval(() => this.wake(), CHECK_MS).unref();
    this.heartbeatTimer = setInterval(() => void this.parts.heartbeat(), this.parts.heartbeatMs).unref();
    // Listening starts with the first stream and stops with the last: an instance nobody streams from holds no connection.
    this.stopListening = this.parts.listenForChanges(() => this.wake());
    this.stopListening.catch((error: unknown) =>
      this.parts.log.warn({ err: error }, "streams: cannot listen for changes; checking every 500 ms"),
    );
  }

  /** The last stream ended, or the hub is closing. */
  stop(): void {
    this.active = false;
    clearInterval(this.checkTimer);
    clearInterval(this.heartbeatTimer);
    const stopping = this.stopListening;
    this.stopListening = undefined;
    void stopping?.then(
      (stop) => stop(),
      () => undefined,
    );
  }

  /** Something may have been written: look now rather than at the next check. */
  wake(): void {
    if (!this.active || this.#closed) return;
    if (this.running !== undefined) {
      this.again = true;
      return;
    }
    this.running = this.run().finally(() => (this.running = undefined));
  }

  /** No pass starts from now on, and none is repeated. */
  close(): void {
    this.#closed = true;
  }

  /** Once the pass in progress, if any, has finished. */
  async idle(): Promise<void> {
    await this.running;
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      if (!(await this.parts.pass())) return;
    } while (this.again && !this.#closed);
  }
}
