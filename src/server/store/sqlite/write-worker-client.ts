/**
 * The main thread's side of the write worker (write-worker.ts): sends each ingest of a SQLite file to the worker's
 * own connection and awaits its answer, so the event loop keeps serving polls while the transaction runs (DESIGN.md,
 * "write path"). The worker is started at the first ingest, runs one request at a time in arrival order, and keeps
 * the process alive only while a request is pending. A worker that dies fails its pending requests as an outage
 * (503, and nothing of them written: SQLite rolls back a transaction its connection never committed); the next
 * ingest starts a new one. Once it runs, the webhook outbox's frequent writes go there too (outbox()).
 *
 * Not shared: only SQLite has a write worker: one writer per file, and better-sqlite3 blocks its thread.
 */
import type { Worker } from "node:worker_threads";
import { StoreUnavailableError } from "../../failures.js";
import { startWorker } from "../../worker-thread.js";
import type { IngestResult } from "../ingest-store.js";
import type { IngestWriter } from "./ingest.js";
import { uncarry } from "./worker-errors.js";
import type { OutboxCall, WriteReply, WriteRequest, WriteWorkerData } from "./write-messages.js";

interface Pending {
  resolve(result: unknown): void;
  reject(error: unknown): void;
  settled: Promise<unknown>;
}

/**
 * The worker's young generation is held to 8 MB (V8's default is 48): its batches are garbage as soon as they are
 * written, so a bigger nursery only holds more of them between scavenges, and a thread's heap pages stay in the
 * process's RSS. At 200,000 events with live ingest, one run each: the server's peak RSS 296 -> 264 MB, CPU per poll
 * alike. The old generation keeps V8's default: a limit there would end the worker on a large batch.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8 };

export class WriteWorker {
  private worker: Worker | undefined;
  /** Resolved once the current worker has opened its connection; until then ingests run on the calling thread. */
  private opened: Promise<void> | undefined;
  private isOpen = false;
  /** Callers of ready() waiting: like a pending request, they keep the worker referenced. */
  private awaitingOpen = 0;
  /** Why the current worker failed, when it threw: said by the error its pending requests get. */
  private failure: Error | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  /** @param onThisThread how an ingest runs while the worker is starting. */
  constructor(
    private readonly data: WriteWorkerData,
    private readonly onThisThread: IngestWriter,
  ) {}

  /**
   * An encoded batch is decoded in the worker, its bytes moved there, not copied (copying a body of a hundred events,
   * 370 KB, held the event loop 0.2-0.4 ms): a view of a whole buffer moves that buffer, which empties the caller's
   * view; a view of part of one (a small body is a slice of Node's pool) is copied into a buffer of its own first.
   * While the worker is starting, ingests run on this thread (an encoded batch decoded here, in one go).
   */
  readonly apply: IngestWriter = (batch, now, options) => {
    if (this.closed) return Promise.reject(new TypeError("The database connection is not open"));
    const worker = this.started();
    if (!this.isOpen) return this.onThisThread(batch, now, options);
    let transfer: ArrayBuffer[] = [];
    if ("decoder" in batch) {
      const whole = batch.bytes.byteOffset === 0 && batch.bytes.byteLength === batch.bytes.buffer.byteLength;
      const bytes = whole ? batch.bytes : new Uint8Array(batch.bytes); // a copy (a Buffer's slice() is a view)
      batch = { ...batch, bytes };
      transfer = [bytes.buffer as ArrayBuffer];
    }
    return this.send<IngestResult>(worker, (id) => ({ id, batch, now, options }), transfer);
  };

  /**
   * Runs one of the webhook outbox's writes on the worker's connection, in order with the ingests, when the worker
   * runs; otherwise `here`, on the caller's own connection: a server that ingests nothing starts no thread for its
   * dispatcher's claims, which are small.
   */
  outbox<T>(call: OutboxCall, here: () => Promise<T>): Promise<T> {
    return this.isOpen && !this.closed ? this.send<T>(this.worker!, (id) => ({ id, outbox: call })) : here();
  }

  private send<T>(worker: Worker, request: (id: number) => WriteRequest, transfer: ArrayBuffer[] = []): Promise<T> {
    const id = this.nextId++;
    let pending!: Pending;
    const settled = new Promise<T>((resolve, reject) => {
      pending = { resolve: resolve as (result: unknown) => void, reject, settled: Promise.resolve() };
    });
    pending.settled = settled.catch(() => undefined);
    this.pending.set(id, pending);
    worker.ref();
    worker.postMessage(request(id), transfer);
    return settled;
  }

  /** Starts the worker, if it is not running, and resolves once it takes ingests. */
  async ready(): Promise<void> {
    const worker = this.started();
    this.awaitingOpen++;
    worker.ref();
    try {
      await this.opened;
    } finally {
      this.awaitingOpen--;
      this.unrefWhenIdle();
    }
  }

  /** Stops the worker at once, as a crash would: the pending requests fail as unavailable; the next starts anew. */
  async kill(): Promise<void> {
    this.worker?.ref(); // an unreferenced worker's exit would not keep the process waiting for it
    await this.worker?.terminate();
  }

  /** Lets the pending requests finish, then stops the worker: nothing is left running to keep the process alive. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.pending.values()].map((p) => p.settled));
    // A worker still starting is let open first: terminating one mid-start left nothing holding the process for its exit.
    if (this.worker) await this.ready();
    await this.kill();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker(import.meta.url, "write-worker", {
      workerData: this.data,
      resourceLimits: WORKER_LIMITS,
    });
    worker.unref(); // referenced only while a request is pending
    // Again once running: Node 20 keeps a worker that is still starting referenced, whatever unref() said before.
    worker.once("online", () => this.unrefWhenIdle());
    this.isOpen = false;
    // Settled when the worker has opened its connection, or has stopped trying.
    this.opened = new Promise((resolve) => {
      worker.on("message", (reply: WriteReply | "open") => {
        if (reply !== "open") return this.answer(reply);
        if (this.worker === worker) this.isOpen = true;
        resolve();
      });
      worker.once("exit", () => resolve());
    });
    worker.on("error", (error) => {
      this.failure = error;
    });
    worker.on("exit", (code) => this.stopped(worker, code));
    this.worker = worker;
    this.failure = undefined;
    return worker;
  }

  private answer(reply: WriteReply): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if (reply.error) pending.reject(uncarry(reply.error));
    else pending.resolve(reply.result);
    this.unrefWhenIdle();
  }

  private unrefWhenIdle(): void {
    if (this.pending.size === 0 && this.awaitingOpen === 0) this.worker?.unref();
  }

  private stopped(worker: Worker, code: number): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.isOpen = false;
    const why = this.failure ?? new Error(`the write worker stopped (exit code ${code})`);
    for (const pending of this.pending.values()) pending.reject(new StoreUnavailableError("the database", why));
    this.pending.clear();
  }
}
