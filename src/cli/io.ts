/**
 * What a command reads and writes besides its arguments. `process` is one; tests run the commands in their own
 * process with captured streams and an environment of their own (tests/helpers/cli.ts).
 */
import type { Readable, Writable } from "node:stream";

export interface CliIo {
  /** Where `import -` and piped secrets come from; a terminal (`isTTY`) is prompted without echo instead. */
  stdin: Readable & { isTTY?: boolean; setRawMode?(mode: boolean): unknown };
  /** A terminal (`isTTY`) gets readable log lines; anything else, JSON lines for machines. */
  stdout: Writable & { isTTY?: boolean };
  /** Progress and failures; a terminal (`isTTY`) gets progress bars, anything else plain lines. */
  stderr: Writable & { isTTY?: boolean };
  /** FEEDGATE_* settings, read where a flag is not given. */
  env: NodeJS.ProcessEnv;
}
