/**
 * Every test file, on the default driver (SQLite; the store contract suites on every driver), as run-files.ts runs
 * them. `npm run test:sqlite`.
 */
import { runTestFiles, testFilesUnder } from "./run-files.js";

process.exit(runTestFiles(testFilesUnder("tests")));
