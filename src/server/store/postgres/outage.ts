/**
 * Which PostgreSQL errors mean "the database is away or too slow right now" rather than a bug: by the SQLSTATE the
 * server gives, the socket's code, or, for pg's own errors that carry no code, their message (pg gives nothing else).
 *
 * Not shared: SQLSTATEs and pg's socket errors; the executor maps what this says (postgres/executor.ts).
 */

/**
 * SQLSTATEs: class 08 (connection exception), 53 (insufficient resources: too many connections, disk full, out of
 * memory), 57P01-57P05 (the server shutting down, terminating the backend, or not yet up), 57014 (the statement
 * timeout cancelled the query), 25006 (a write sent to a standby: while a failover has no primary yet, primary-finder.ts).
 */
const POSTGRES_STATES = /^(08|53|57P0[1-5]$|57014$|25006$)/;

/** The network between this process and the database server. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** pg's own errors carry no code: a lost connection, a connect or query timeout, a client left unusable. */
const PG_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Query read timeout",
  "is not queryable", // "Client was closed and is not queryable", and pg's other unusable clients
];

export function isPostgresOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (POSTGRES_STATES.test(code) || SOCKET_CODES.has(code))) return true;
  return PG_MESSAGES.some((message) => error.message.includes(message));
}
