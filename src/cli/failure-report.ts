/**
 * How a failed command is told to the operator: one line on stderr, `feedgate: <what and how to fix it>`. An
 * operator's mistake (a FeedgateFailure) says so itself; anything else is a bug or a surprise whose message is
 * still shown, with a hint to rerun for the stack: a stack of 30 frames buries the one line that matters, and
 * scripts that capture stderr get a line they can log. `--verbose` or DEBUG in the environment adds the stack.
 */
import { FeedgateFailure } from "../server/failures.js";
import type { CliIo } from "./io.js";

/** DEBUG is the variable Node tools conventionally read for "tell me more"; any non-empty value counts. */
export const wantsDetails = (verbose: unknown, env: NodeJS.ProcessEnv) => Boolean(verbose) || Boolean(env.DEBUG);

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.message || error.name;
}

export function reportFailure(error: unknown, io: CliIo, details: boolean): void {
  const expected = error instanceof FeedgateFailure;
  const hint = expected || details ? "" : " (run again with --verbose for details)";
  io.stderr.write(`feedgate: ${messageOf(error)}${hint}\n`);
  if (details && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
}
