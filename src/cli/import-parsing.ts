/**
 * Parses an import source in a worker thread (import-worker.ts) and hands its batches to the writer, this thread,
 * in order. The worker is ended whatever happens: when the source is done, when it fails, or when the writer
 * stops early (a failed transaction).
 */
import type { Readable } from "node:stream";
import { startWorker } from "../server/worker-thread.js";
import type { ParsedBatch } from "../server/services/event-import.js";
import { fromParserMessage, type ParserMessage, type ParserTask } from "./import-messages.js";

export interface WorkerParse {
  /** Settles once a strict source has been checked in full (at once when not strict); rejects with its first error. */
  checked: Promise<void>;
  batches: AsyncIterable<ParsedBatch>;
  /** Ends the worker (also done when `batches` ends, however it ends); safe to call more than once. */
  close(): Promise<void>;
}

export function parseInWorker(
  task: ParserTask,
  stdin: Readable,
  onMalformed: (where: string, message: string) => void,
): WorkerParse {
  const worker = startWorker(import.meta.url, "import-worker", { workerData: task, stdin: task.path === null });
  if (task.path === null) stdin.pipe(worker.stdin!);
  const queue: ParserMessage[] = [];
  let wake: (() => void) | null = null;
  let settleChecked: { resolve: () => void; reject: (error: Error) => void };
  const checked = new Promise<void>((resolve, reject) => {
    settleChecked = { resolve, reject };
  });
  checked.catch(() => {}); // also raised by `batches`; a caller that never waits for it must not see it unhandled

  const receive = (message: ParserMessage) => {
    if (message.kind === "checked") settleChecked.resolve();
    else if (message.kind === "malformed") onMalformed(message.where, message.message);
    else {
      if (message.kind === "failed") settleChecked.reject(fromParserMessage(message));
      queue.push(message);
      wake?.();
      wake = null;
    }
  };
  worker.on("message", receive);
  // A worker that dies without saying why (out of memory, a crash in its start-up) fails the import all the same.
  worker.on("error", (error) =>
    receive({ kind: "failed", name: error.name, message: error.message, stack: error.stack }),
  );
  worker.on("exit", (code) =>
    receive({ kind: "failed", name: "Error", message: `the import's parsing thread ended (${code})` }),
  );

  async function* batches(): AsyncIterable<ParsedBatch> {
    try {
      for (;;) {
        if (queue.length === 0)
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
        const message = queue.shift()!;
        if (message.kind === "done") return;
        if (message.kind === "failed") throw fromParserMessage(message);
        if (message.kind === "batch") {
          worker.postMessage("taken");
          yield message.parsed;
        }
      }
    } finally {
      await close();
    }
  }
  let closed: Promise<void> | null = null;
  const close = () => {
    closed ??= (async () => {
      worker.removeAllListeners();
      if (task.path === null) stdin.unpipe(worker.stdin!);
      await worker.terminate();
    })();
    return closed;
  };
  return { checked, batches: batches(), close };
}
