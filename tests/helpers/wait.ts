/**
 * Waiting in tests: what a server does after answering (a closed socket noticed, a delivery sent, a line printed)
 * happens on its own time, so tests poll for it with a deadline instead of sleeping a guessed while.
 */

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface PollOptions {
  /** How long to keep polling, in milliseconds. */
  ms?: number;
  /** The pause between polls, in milliseconds. */
  every?: number;
}

/**
 * Polls `read` until `done` holds of its answer or `ms` has passed; returns the last answer either way, for the
 * test's own assertion to describe what it saw.
 */
export async function eventually<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  { ms = 10_000, every = 20 }: PollOptions = {},
): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await sleep(every);
    value = await read();
  }
  return value;
}

/** Polls `condition` until it holds; throws naming `what` when `ms` passes first. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  { ms = 20_000, every = 50 }: PollOptions = {},
): Promise<void> {
  if (!(await eventually(condition, (held) => held, { ms, every }))) throw new Error(`timed out waiting for ${what}`);
}

/**
 * Counts the event loop's turns until stopped: a setImmediate that queues the next, so it ticks once in every check
 * phase, whether or not a millisecond passed (a timer counts a turn only when one did, which a warm process does not
 * always take). What a slice of work let run between its parts.
 */
export function turnCounter(): { readonly turn: number; stop(): void } {
  let turn = 0;
  let ticking = true;
  const tick = () => {
    turn++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    get turn() {
      return turn;
    },
    stop() {
      ticking = false;
    },
  };
}
