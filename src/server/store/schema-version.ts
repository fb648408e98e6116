/**
 * The schema version this feedgate knows, and the refusal of a database a newer feedgate migrated further: this
 * code would read and write tables it does not know the shape of (a column it never fills, a rule it breaks), so it
 * stops before writing anything, and the operator runs the newer feedgate or restores a backup made for this one.
 */
import { StartupError } from "../failures.js";
import { migrations } from "./migrations/index.js";

/** The highest migration this code has: what a database is at once migrated. */
export const LATEST_SCHEMA_VERSION = migrations.at(-1)!.id;

export class SchemaTooNewError extends StartupError {
  override name = "SchemaTooNewError";

  constructor(
    readonly found: number,
    readonly known = LATEST_SCHEMA_VERSION,
  ) {
    super(
      `the database is at schema version ${found}, newer than this feedgate's (${known}): ` +
        `run a feedgate that knows version ${found}, or restore a backup made at version ${known} or earlier; nothing was written`,
    );
  }
}

/** Throws SchemaTooNewError when `found`, the highest migration a database records, is one this code lacks. */
export function refuseNewerSchema(found: number | null): void {
  if (found !== null && found > LATEST_SCHEMA_VERSION) throw new SchemaTooNewError(found);
}
