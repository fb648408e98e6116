/**
 * Reads a secret: from the terminal without echo, or the first line of stdin when it is piped
 * (`echo "$PW" | feedgate user passwd alice`), so scripts need not put passwords in argv.
 * An empty secret is refused here, before anything is sent or stored: sent, an empty password is a
 * `401 Bad credentials` that counts toward the account's lockout, and a script with an unset variable piped
 * nothing at all, which is what it most often means.
 */
import { createInterface } from "node:readline";
import { InvalidInputError } from "../server/failures.js";
import type { CliIo } from "./io.js";

/** What is asked for, and how else it can be given, for the refusal of an empty one. */
export interface SecretSource {
  what: string;
  /** e.g. "set FEEDGATE_PASSWORD or pipe the password" */
  otherwise: string;
}

/** The commands with a `--password` flag (`user add`, `user passwd`). */
const PASSWORD_FLAG: SecretSource = {
  what: "password",
  otherwise: "give --password or pipe the password on standard input",
};

export async function readSecret(question: string, io: CliIo, source: SecretSource = PASSWORD_FLAG): Promise<string> {
  const secret = io.stdin.isTTY ? await prompt(question, io) : await firstLine(io);
  if (secret !== "") return secret;
  throw new InvalidInputError(
    io.stdin.isTTY
      ? `the ${source.what} is empty, and an empty ${source.what} is never accepted; nothing was sent or changed`
      : `no ${source.what}: standard input is not a terminal and gave none; ${source.otherwise}`,
  );
}

async function firstLine(io: CliIo): Promise<string> {
  const lines = createInterface({ input: io.stdin });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  return "";
}

/** Reads a line from the terminal without echo. */
function prompt(question: string, io: CliIo): Promise<string> {
  const input = io.stdin;
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
          return reject(new InvalidInputError("cancelled; nothing was sent or changed"));
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
