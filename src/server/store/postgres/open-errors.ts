/**
 * Why a standby or the direct connection could not be opened, as ../open-failures.ts tells the operator. Kept apart
 * from the code that opens them, which loads the pg driver, so that a start on SQLite does not load it to have these.
 */
/**
 * A standby refused at start, with its URL for the one line that names it (open-failures.ts): unreachable (`cause`),
 * or "primary", a server that is not a standby at all.
 */
export class StandbyOpenError extends Error {
  constructor(
    readonly url: string,
    override readonly cause: unknown,
  ) {
    super(cause === "primary" ? "not a hot standby" : "the standby could not be opened", { cause });
  }
}

/** `--db-direct` refused at start, with its URL for the one line that names it (open-failures.ts). */
export class DirectOpenError extends Error {
  /** @param cause the driver's error (unreachable), or "elsewhere": the check's NOTIFY did not arrive. */
  constructor(
    readonly url: string,
    override readonly cause: unknown,
  ) {
    super(cause === "elsewhere" ? "not the database --db reaches" : "the direct connection could not be opened", {
      cause,
    });
  }
}

/**
 * A pooler that refused a startup parameter feedgate sends (PgBouncer: "unsupported startup parameter:
 * statement_timeout", SQLSTATE 08P01), as the driver's error or the cause of one; its name, or undefined.
 */
export function refusedStartupParameter(error: unknown): string | undefined {
  for (let e = error; e instanceof Error; e = e.cause) {
    const found = /unsupported startup parameter: ?([A-Za-z_.]+)/.exec(e.message);
    if (found) return found[1];
  }
  return undefined;
}
