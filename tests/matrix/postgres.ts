/** The driver matrix on PostgreSQL, as run-files.ts runs it (runs.ts). `npm run test:postgres`. */
import { runTests } from "./run-files.js";
import { postgresUnlessSkipped } from "./runs.js";

const runs = await postgresUnlessSkipped();
process.exit(runs.length === 0 ? 0 : runTests(runs));
