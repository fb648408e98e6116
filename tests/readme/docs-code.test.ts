/** docs/code.md, executed as the README is: tests/readme/run-examples.ts. */
import { describeExamples } from "./run-examples.js";

describeExamples("docs/code.md", { minimumBlocks: 1 });
