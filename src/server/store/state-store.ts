/**
 * Images of the whole database, for the test double: `snapshot()`, `restore()` and `reset()` of `feedgate/testing`
 * and of `serve --test-controls`. An image is kept inside the database itself (SQLite: an attached in-memory
 * database; PostgreSQL: a schema of its own), so that taking and putting back one is a copy at the speed of SQL,
 * never a trip of every row through JavaScript.
 *
 * What an image leaves out: the schema's version, and the numbers by which requests remember answers
 * (`ingest_state`, `received_versions`, `ingest_log`). Those only ever move forward, also across a restore: putting
 * an image back raises every one of them, so every instance forgets what it remembered and counts feeds again.
 */
export interface StateStore {
  /** Copies every table's rows and its id counters aside under `name` (letters, digits and `_`). */
  capture(name: string): Promise<void>;
  /** Replaces every table's rows and id counters with those captured under `name`, in one transaction. */
  replace(name: string): Promise<void>;
  /** Drops what was captured under `name`. */
  discard(name: string): Promise<void>;
  /** Whether an image `name` exists (another instance sharing the database may have taken it). */
  has(name: string): Promise<boolean>;
}

/**
 * `state` whose replace() also calls `forget` (before, and after the rows are back): for what a store keeps in memory
 * on the understanding that rows are never taken away, which only an image put back does (store/git.ts's objects).
 */
export function forgettingOnReplace(state: StateStore, forget: () => void): StateStore {
  return {
    capture: (name) => state.capture(name),
    async replace(name) {
      forget();
      try {
        await state.replace(name);
      } finally {
        forget();
      }
    },
    discard: (name) => state.discard(name),
    has: (name) => state.has(name),
  };
}

/** Tables that are not state: the schema's version, and the numbers that only move forward (see above). */
export const NOT_STATE = ["schema_migrations", "ingest_state", "received_versions", "ingest_log"];

/** Raises every remembered-answer number once a restore has put rows back, and forgets the ingest log. */
export const RAISE_EVERY_VERSION = [
  `UPDATE ingest_state SET generation = generation + 1, credentials = credentials + 1, repos = repos + 1,
    access = access + 1, received = received + 1, hooks = hooks + 1 WHERE id = 1`,
  "UPDATE received_versions SET version = version + 1",
  "DELETE FROM ingest_log",
];

export function checkImageName(name: string): string {
  if (!/^[A-Za-z0-9_]{1,40}$/.test(name))
    throw new RangeError(`an image name is letters, digits and _, got ${JSON.stringify(name)}`);
  return name;
}
