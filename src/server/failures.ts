/**
 * Failures the caller can fix, carrying their fields as Octokit's RequestError and undici's errors carry theirs:
 * which entry (`field`, e.g. `events[3].repo.name` or `line 7`), what is wrong with it (`problem`), and GitHub's
 * validation `code`. The API turns them into 422 entries and the CLI prints their message as one line; nothing
 * parses a message to get a field back.
 */
export class FeedgateFailure extends Error {
  readonly field: string | undefined;
  /** GitHub's validation error code: `invalid`, `already_exists`, `missing_field`... */
  readonly code: string;

  constructor(
    readonly problem: string,
    fields: { field?: string; code?: string } = {},
  ) {
    super(fields.field ? `${fields.field}: ${problem}` : problem);
    this.field = fields.field;
    this.code = fields.code ?? "invalid";
  }
}

/** Input an operator or an ingest gave that cannot be used; names the entry, when there is one, and says why. */
export class InvalidInputError extends FeedgateFailure {
  override name = "InvalidInputError";
}

/**
 * A command that cannot begin for a reason the operator can fix (a port in use, a database that does not exist or
 * cannot be reached): the message says what and how, and the CLI prints it as one line.
 */
export class StartupError extends FeedgateFailure {
  override name = "StartupError";
}

/** What a StoreUnavailableError names, as the 503 says it. */
export type UnavailableStore = "the database" | "the rate-limit store";

/**
 * A store this process depends on (the database, the rate-limit store) cannot be reached or did not answer in time:
 * nothing is wrong with the request, and the same request may succeed in a moment. Only the drivers know which of
 * their errors mean that (store/postgres/outage.ts, store/sqlite/outage.ts, counters/redis-counters.ts), so they
 * raise this, with their own error as the cause; the API answers it 503 with Retry-After, which clients and load
 * balancers retry, instead of 500. Not a FeedgateFailure: the caller cannot fix it.
 */
export class StoreUnavailableError extends Error {
  override name = "StoreUnavailableError";

  constructor(
    readonly store: UnavailableStore,
    cause: unknown,
  ) {
    super(`${store} cannot be reached (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
  }
}

/** An entry that is not JSON at all (a line of NDJSON, a whole body): GitHub answers such a body 400, not 422. */
export class UnparsableEntryError extends InvalidInputError {
  override name = "UnparsableEntryError";
}

/**
 * A failure as a message to another thread carries it (a worker's parse, its ingest): a structured clone keeps an
 * Error's message but neither its class nor its fields, which say how the API answers it.
 */
export interface CarriedFailure {
  name: string;
  problem: string;
  field: string | undefined;
  code: string;
}

export const carriedFailure = (failure: FeedgateFailure): CarriedFailure => ({
  name: failure.name,
  problem: failure.problem,
  field: failure.field,
  code: failure.code,
});

/** The classes of this module a carried failure is raised again as, by name. */
const CARRIED_CLASSES: Record<
  string,
  new (
    problem: string,
    fields: { field?: string | undefined; code?: string },
  ) => FeedgateFailure
> = { InvalidInputError, UnparsableEntryError, StartupError };

/** A carried failure raised again as its class; null for a class this module does not know (the carrier's own). */
export function uncarriedFailure(carried: CarriedFailure): FeedgateFailure | null {
  const Class = Object.hasOwn(CARRIED_CLASSES, carried.name) ? CARRIED_CLASSES[carried.name]! : null;
  return Class && new Class(carried.problem, { field: carried.field, code: carried.code });
}
