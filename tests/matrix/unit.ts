/**
 * The pure cores' tests (tests/unit, tests/api): no database, server or process of their own, as run-files.ts runs
 * them. `npm run test:unit`.
 */
import { runTestFiles, testFilesUnder } from "./run-files.js";

process.exit(runTestFiles([...testFilesUnder("tests/unit"), ...testFilesUnder("tests/api")]));
