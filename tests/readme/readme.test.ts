/**
 * The README, executed: its examples run in order, as written, against a fresh clone started with `npm start` as its
 * Quick start says (the runner: tests/readme/run-examples.ts). The docs/*.md pages run the same way, one test file
 * each (tests/readme/docs-*.test.ts).
 */
import { describeExamples } from "./run-examples.js";

describeExamples("README.md", { minimumBlocks: 4, setup: true });
