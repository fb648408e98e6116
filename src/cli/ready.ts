/**
 * How `feedgate serve` tells a script or a test that it is listening, and where: one JSON line on stdout, printed
 * whatever the log level (the "Server listening" log line is gone at `--log-level warn`, and its words are not an
 * interface), and, with `--port-file`, the bound port alone in a file. Both come once the port is open, so a
 * reader of either can connect at once; that is what makes `--port 0` (any free port) usable from a script.
 */
import { randomBytes } from "node:crypto";
import { rename, rm, writeFile } from "node:fs/promises";
import { StartupError } from "../server/failures.js";
import type { CliIo } from "./io.js";

export interface ReadyAddress {
  /** Where the API listens, as Fastify reports it: `http://127.0.0.1:40315`. */
  url: string;
  port: number;
  /** Where `/metrics` listens when `--metrics-port` gives it a port of its own. */
  metricsUrl: string | undefined;
}

/**
 * The ready line: `{"feedgate":"ready","url":"http://127.0.0.1:40315","port":40315,"pid":4242}`, keys always in that
 * order (then `metrics_url` when there is one), so that `grep '^{"feedgate":"ready"'` finds it among JSON log lines
 * and `jq` or `sed` reads it.
 */
export function readyLine(address: ReadyAddress, pid: number): string {
  const metrics = address.metricsUrl === undefined ? {} : { metrics_url: address.metricsUrl };
  return `${JSON.stringify({ feedgate: "ready", url: address.url, port: address.port, pid, ...metrics })}\n`;
}

/**
 * Writes `port` to `path` atomically: into a temporary file beside it, then renamed over it, so that a script polling
 * for the file never reads it empty or half-written.
 */
export async function writePortFile(path: string, port: number): Promise<void> {
  const temporary = `${path}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(temporary, String(port)); // the number alone: `$(cat file)`, int() and Atoi all read it
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new StartupError(`cannot write the port file ${path} (${reason}); check --port-file (or FEEDGATE_PORT_FILE)`);
  }
}

/** The port file first, then the line: whoever waits for the line may read the file at once. */
export async function announceReady(address: ReadyAddress, portFile: string | undefined, io: CliIo): Promise<void> {
  if (portFile !== undefined) await writePortFile(portFile, address.port);
  io.stdout.write(readyLine(address, process.pid));
}
