/** docs/operating.md, executed as the README is: tests/readme/run-examples.ts. */
import { describeExamples } from "./run-examples.js";

describeExamples("docs/operating.md", { minimumBlocks: 2 });
