/** docs/data-in.md, executed as the README is: tests/readme/run-examples.ts. */
import { describeExamples } from "./run-examples.js";

describeExamples("docs/data-in.md", { minimumBlocks: 4 });
