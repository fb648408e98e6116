/**
 * The pure cores' tests (tests/unit, tests/api): no database, server or process of their own, as run-files.ts runs
 * them. `npm run test:unit`.
 */
import { runTests } from "./run-files.js";
import { UNIT } from "./runs.js";

process.exit(runTests([UNIT]));
