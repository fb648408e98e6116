/**
 * Why a database or Redis could not be opened, in the operator's words: which service, where (the URL without its
 * password: these lines end up in CI logs and tickets), and what to do. Used by `serve` and by every command that
 * opens the store, so that `feedgate migrate` on a database nobody created says `createdb`, not a pg stack.
 */
import { StartupError, StoreUnavailableError } from "../failures.js";
import { asUnavailable } from "./unavailable.js";
import { isPostgresOutage } from "./postgres/outage.js";
import { isPostgresUrl, openStore } from "./open-store.js";
import type { PoolLimits } from "./postgres/pool.js";
import type { StandbySettings } from "./postgres/postgres-store.js";
import { DirectOpenError, refusedStartupParameter, StandbyOpenError } from "./postgres/open-errors.js";
import type { LsnFloors } from "./postgres/read-scope.js";
import type { Store } from "./store.js";

/** `postgres://feedgate:hunter2@db/feedgate` -> `postgres://feedgate@db/feedgate`. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = "";
    return parsed.toString();
  } catch {
    // Several hosts (`h1:5432,h2:5432`) are no WHATWG URL: the password is cut from libpq's form itself.
    const multiHost = /^(postgres(?:ql)?:\/\/)(?:([^:@/]*)(?::[^@/]*)?@)?([^/@]*,[^/@]*)(\/.*)?$/.exec(url);
    if (multiHost)
      return `${multiHost[1]}${multiHost[2] ? `${multiHost[2]}@` : ""}${multiHost[3]}${multiHost[4] ?? ""}`;
    return "(an unparseable URL)"; // it may hold a password we cannot find, so it is not shown
  }
}

/** `--db` as it may be shown: a file path as given, a URL without its password. */
export const shownDb = (db: string) => (isPostgresUrl(db) ? withoutPassword(db) : db);

/** The service at `url` did not answer; `flag` is where its URL was given. */
export function unreachable(service: string, url: string, flag: string, error: unknown): StartupError {
  // The driver's own error says why (ECONNREFUSED...): a StoreUnavailableError carries it as its cause.
  const inner = error instanceof StoreUnavailableError ? error.cause : error;
  const cause = (inner as { code?: string }).code ?? (inner as Error).message;
  return new StartupError(
    `cannot reach ${service} at ${withoutPassword(url)} (${cause}); is it running? check ${flag}`,
  );
}

/** SQLSTATE invalid_catalog_name: the server is up, the database named in the URL is not there. */
const NO_SUCH_DATABASE = "3D000";

/** `createdb` with the URL's host, port and user, so that the command shown works as it stands. */
function createdbCommand(url: URL, name: string): string {
  const args = [
    url.hostname && `-h ${url.hostname}`,
    url.port && `-p ${url.port}`,
    url.username && `-U ${decodeURIComponent(url.username)}`,
  ];
  return ["createdb", ...args.filter(Boolean), name].join(" ");
}

const DB_FLAG = "--db (or FEEDGATE_DB)";
const REPLICA_FLAG = "--db-replica (or FEEDGATE_DB_REPLICA)";
const DIRECT_FLAG = "--db-direct (or FEEDGATE_DB_DIRECT)";

/** Opens (and migrates) the store `db`; what the operator can fix fails as one StartupError line saying how. */
export function openStoreExplained(
  db: string,
  limits?: PoolLimits,
  standbys?: StandbySettings,
  floors?: LsnFloors,
  direct?: string,
): Promise<Store> {
  if (standbys?.urls.length && !isPostgresUrl(db)) {
    return Promise.reject(new StartupError(`${REPLICA_FLAG} needs a postgres:// --db: SQLite has no standbys`));
  }
  if (direct && !isPostgresUrl(db)) {
    return Promise.reject(new StartupError(`${DIRECT_FLAG} needs a postgres:// --db: SQLite has no pooler`));
  }
  return openStore(db, limits, standbys, floors, direct).catch((error: unknown) => {
    if (error instanceof StandbyOpenError) {
      if (error.cause !== "primary") throw storeOpenFailure(error.url, error.cause, REPLICA_FLAG);
      throw new StartupError(
        `${withoutPassword(error.url)} is a primary, not a hot standby (pg_is_in_recovery() is false): check ${REPLICA_FLAG}`,
      );
    }
    if (error instanceof DirectOpenError) throw directOpenFailure(error);
    const parameter = refusedStartupParameter(error);
    if (parameter) {
      throw new StartupError(
        `the server at ${withoutPassword(db)} refused the startup parameter ${parameter}, as PgBouncer does: behind a ` +
          `pooler in transaction mode, give ${DIRECT_FLAG} the URL of PostgreSQL itself (docs/scale-out.md#pgbouncer)`,
      );
    }
    throw storeOpenFailure(db, error);
  });
}

/** `--db-direct` refused: it reaches another database than --db, a pooler, or nothing. */
function directOpenFailure(error: DirectOpenError): unknown {
  const shown = withoutPassword(error.url);
  if (error.cause === "elsewhere") {
    return new StartupError(
      `${shown} is not the database --db reaches (a NOTIFY sent through --db did not arrive there): check ${DIRECT_FLAG}`,
    );
  }
  if (refusedStartupParameter(error.cause)) {
    return new StartupError(
      `${shown} is a pooler, as it refused a startup parameter: ${DIRECT_FLAG} must reach PostgreSQL itself`,
    );
  }
  return storeOpenFailure(error.url, asUnavailable(error.cause, isPostgresOutage), DIRECT_FLAG);
}

/** The error opening the store `db` met, as a StartupError when the operator can fix it; otherwise unchanged. */
function storeOpenFailure(db: string, error: unknown, flag = DB_FLAG): unknown {
  if (!isPostgresUrl(db)) return error;
  if ((error as { code?: unknown }).code === NO_SUCH_DATABASE && URL.canParse(db)) {
    const url = new URL(db);
    const name = decodeURIComponent(url.pathname.slice(1)) || decodeURIComponent(url.username);
    return new StartupError(
      `database "${name}" does not exist on the PostgreSQL server at ${withoutPassword(db)}; ` +
        `create it (${createdbCommand(url, name)}) or check ${flag}`,
    );
  }
  return error instanceof StoreUnavailableError ? unreachable("PostgreSQL", db, flag, error) : error;
}
