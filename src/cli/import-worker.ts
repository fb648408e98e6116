/**
 * The parsing half of `feedgate import`, in a worker thread (started by import-parsing.ts): reads one source,
 * checks every envelope and posts the batches ready to apply, so that the main thread only writes. Parsing
 * was a quarter of an import's time; on two cores it now overlaps the writes. At most a few batches are ahead of
 * the writer (it acknowledges each), so memory stays constant whatever the file's size.
 */
import { createReadStream } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { parsedBatches, validateEvents } from "../server/services/event-import.js";
import { ndjsonFromStream, type NdjsonSource } from "../server/services/ndjson.js";
import { batchMessage, toParserMessage, type ParserMessage, type ParserTask } from "./import-messages.js";

/** Batches posted and not yet taken by the writer: one being applied, one waiting, one being parsed. */
const AHEAD = 2;

const task = workerData as ParserTask;
const port = parentPort!;
const post = (message: ParserMessage) => port.postMessage(message);

let unacknowledged = 0;
let wake: (() => void) | null = null;
port.on("message", () => {
  unacknowledged -= 1;
  wake?.();
  wake = null;
});
const room = () =>
  unacknowledged < AHEAD
    ? Promise.resolve()
    : new Promise<void>((resolve) => {
        wake = resolve;
      });

// Sources are named as the operator typed them: a spooled stdin reports `-:2`, not its temporary file.
const open = (): NdjsonSource =>
  task.path === null
    ? ndjsonFromStream(task.name, process.stdin)
    : ndjsonFromStream(task.name, createReadStream(task.path, { highWaterMark: 1 << 20 }));

async function run(): Promise<void> {
  if (task.strict) await validateEvents(open());
  post({ kind: "checked" });
  const options = {
    strict: task.strict,
    batchSize: task.batchSize,
    onMalformed: (where: string, message: string) => post({ kind: "malformed", where, message }),
  };
  for await (const parsed of parsedBatches(open(), options)) {
    await room();
    unacknowledged += 1;
    const { message, transfer } = batchMessage(parsed);
    port.postMessage(message, transfer);
  }
  post({ kind: "done" });
}

// Posted messages still arrive after the thread ends; an unreferenced port lets it end.
run()
  .catch((error: unknown) => post(toParserMessage(error)))
  .finally(() => port.unref());
