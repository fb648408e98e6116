/**
 * A secret given to a command without its value on the command line, where the shell's history and the process
 * list (`ps`, /proc/<pid>/cmdline) would keep it: from standard input (a pipe, or a prompt without echo on a
 * terminal), from a file, or from an environment variable named on the command line. One way at a time; an empty
 * secret is refused before anything is sent or changed.
 */
import { readFileSync } from "node:fs";
import { InvalidInputError } from "../server/failures.js";
import type { CliIo } from "./io.js";
import { readSecret } from "./prompt.js";

/** The ways given, as commander parsed them (the flags' names are the command's own: `--secret-file`, `--new-key-file`). */
export interface SecretWays {
  /** The value itself on the command line (`--secret`), where the command still takes it. */
  inline?: string;
  stdin?: boolean;
  file?: string;
  env?: string;
}

/** What the secret is and the flags that give it, for the messages. */
export interface SecretFlags {
  what: string;
  inline?: string;
  stdin: string;
  file: string;
  env: string;
}

/** A file's text without the line end editors and `echo >` add: the secret is the line. */
const withoutLineEnd = (text: string) => text.replace(/\r?\n$/, "");

/** The secret, or undefined when none of the ways was given. Fails with one line: several ways, or an empty or unreadable one. */
export async function givenSecret(ways: SecretWays, flags: SecretFlags, io: CliIo): Promise<string | undefined> {
  const given = [
    ways.inline !== undefined && flags.inline,
    ways.stdin && flags.stdin,
    ways.file !== undefined && flags.file,
    ways.env !== undefined && flags.env,
  ].filter((flag): flag is string => typeof flag === "string");
  if (given.length === 0) return undefined;
  if (given.length > 1)
    throw new InvalidInputError(
      `give the ${flags.what} one way, not ${given.join(" and ")}; nothing was sent or changed`,
    );
  // On the command line it is taken as it always was (an empty `--secret ""` included, which the API takes as none).
  if (ways.inline !== undefined) return ways.inline;
  let secret: string;
  let from: string;
  if (ways.stdin) {
    return readSecret(`${flags.what}: `, io, {
      what: flags.what,
      otherwise: `pipe it to ${flags.stdin}, or use ${flags.file} or ${flags.env}`,
    });
  } else if (ways.file !== undefined) {
    try {
      secret = withoutLineEnd(readFileSync(ways.file, "utf8"));
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message;
      throw new InvalidInputError(
        `cannot read the ${flags.what} from ${ways.file} (${flags.file}): ${reason}; nothing was sent or changed`,
      );
    }
    from = `${flags.file} ${ways.file}`;
  } else {
    const name = ways.env!;
    if (io.env[name] === undefined)
      throw new InvalidInputError(`${flags.env} ${name}: the environment has no ${name}; nothing was sent or changed`);
    [secret, from] = [io.env[name], `${flags.env} ${name}`];
  }
  if (secret === "")
    throw new InvalidInputError(`the ${flags.what} from ${from} is empty; nothing was sent or changed`);
  return secret;
}
