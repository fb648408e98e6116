/** Every test file on the default driver, as run-files.ts runs them (runs.ts). `npm run test:sqlite`. */
import { runTests } from "./run-files.js";
import { SQLITE } from "./runs.js";

process.exit(runTests([SQLITE]));
