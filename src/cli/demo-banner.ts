/**
 * What `serve --demo` tells the person who started it, on stderr (apart from the log lines on stdout, which a log
 * collector may be reading): the demo account's credentials, shown once, on the start that made it; on a later start,
 * the commands that make new ones, since the old password and token are stored only as hashes.
 */
import { DEFAULT_DB } from "../server/config.js";
import { DEMO_LOGIN, DEMO_SCOPES, type DemoCredentials } from "../server/services/demo.js";
import { isPostgresUrl } from "../server/store/open-store.js";
import { shownDb } from "../server/store/open-failures.js";
import type { CliIo } from "./io.js";

/** What --demo found: the account it made, or why it made none (it exists from an earlier start, or other users do). */
export type DemoOutcome = { made: DemoCredentials } | { made: null; existed: boolean };

function printDemo(demo: DemoCredentials, url: string, io: CliIo): void {
  // Printed once to the terminal of whoever started the demo, never logged: on stderr, apart from the log lines
  // on stdout, which a log collector may be reading.
  io.stderr.write(
    [
      "",
      "feedgate demo account created (shown once):",
      `  login:    ${demo.login}`,
      `  password: ${demo.password}`,
      `  token:    ${demo.token}`,
      "",
      "Try:",
      `  export FEEDGATE_URL=${url} FEEDGATE_USER=${demo.login} FEEDGATE_PASSWORD='${demo.password}' FEEDGATE_TOKEN=${demo.token}`,
      '  curl -i -u "$FEEDGATE_USER:$FEEDGATE_PASSWORD" "$FEEDGATE_URL/authorizations"',
      '  curl -i -H "Authorization: token $FEEDGATE_TOKEN" "$FEEDGATE_URL/users/demo/received_events"',
      "",
      `The API reference: ${url}/docs (OpenAPI: ${url}/openapi.json)`,
      // The same account signs in to the web console: the one place to see it without curl.
      `The console: ${url}/console/ (Username: ${demo.login}, Password: ${demo.password})`,
      "",
    ].join("\n"),
  );
}

/** A word as a shell reads it: quoted only when it must be. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * The demo account of an earlier start: its password and token were shown then and cannot be shown again, so the
 * commands that set a new password and issue a new token are shown exactly, for this database (a PostgreSQL URL
 * without its password, which PGPASSWORD or ~/.pgpass then give).
 */
function printDemoExisting(db: string, io: CliIo): void {
  const onDb = db === DEFAULT_DB ? "" : ` --db ${shellWord(shownDb(db))}`;
  io.stderr.write(
    [
      "",
      "The demo account was created on an earlier start; its password and token were shown then, and are stored only as hashes.",
      "Set a new password (prompted, or read from stdin):",
      `  npx feedgate user passwd ${DEMO_LOGIN}${onDb}`,
      "Issue a new token (printed once; the old one keeps working until revoked):",
      `  npx feedgate token add ${DEMO_LOGIN} --scopes ${DEMO_SCOPES.join(",")}${onDb}`,
      ...(isPostgresUrl(db) ? [] : [`Or start afresh: stop the server and delete ${db}.`]),
      "",
    ].join("\n"),
  );
}

export function printDemoOutcome(outcome: DemoOutcome, url: string, db: string, io: CliIo): void {
  if (outcome.made) printDemo(outcome.made, url, io);
  else if (outcome.existed) printDemoExisting(db, io);
  else
    io.stderr.write(
      "The database has users already, so no demo account was made: --demo fills only an empty database.\n",
    );
}
