/**
 * Both runs of `npm test` (runs.ts) in one runner: SQLite's and the PostgreSQL matrix's processes share its places,
 * so that neither run's tail leaves the cores idle while the other waits its turn.
 */
import { runTests } from "./run-files.js";
import { postgresUnlessSkipped, SQLITE } from "./runs.js";

process.exit(runTests([SQLITE, ...(await postgresUnlessSkipped())]));
