/**
 * Reads a secret: from the terminal without echo, or the first line of stdin when it is piped
 * (`echo "$PW" | feedgate user passwd alice`), so scripts need not put passwords in argv.
 */
import { createInterface } from "node:readline";
import type { CliIo } from "./io.js";

export async function readSecret(question: string, io: CliIo): Promise<string> {
  const input = io.stdin;
  if (!input.isTTY) {
    const lines = createInterface({ input });
    for await (const line of lines) {
      lines.close();
      return line;
    }
    return "";
  }
  io.stderr.write(question);
  input.setRawMode?.(true);
  input.resume();
  return new Promise((resolve, reject) => {
    let secret = "";
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString("utf8")) {
        if (char === "\r" || char === "\n") {
          done();
          return resolve(secret);
        }
        if (char === "\u0003") {
          done();
          return reject(new Error("cancelled"));
        }
        secret = char === "\u007f" ? secret.slice(0, -1) : secret + char;
      }
    };
    const done = () => {
      input.off("data", onData);
      input.setRawMode?.(false);
      input.pause();
      io.stderr.write("\n");
    };
    input.on("data", onData);
  });
}
