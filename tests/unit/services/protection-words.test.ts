/** GitHub's words for what a protected branch lacks, as its 405s and 422s carry them (protection-rules.ts). */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { approvalsRequired, checksExpected } from "../../../src/server/services/protection/protection-rules.js";

describe("protection's refusals in GitHub's words", () => {
  test("one required check missing is named; more are counted against those required", () => {
    assert.equal(checksExpected(["ci"], 1), 'Required status check "ci" is expected.');
    assert.equal(checksExpected(["lint"], 3), 'Required status check "lint" is expected.');
    assert.equal(checksExpected(["ci", "lint"], 3), "2 of 3 required status checks are expected.");
    assert.equal(checksExpected(["a", "b", "c", "d", "e", "f"], 6), "6 of 6 required status checks are expected.");
  });

  test("approvals required, one or more", () => {
    assert.equal(approvalsRequired(1), "At least 1 approving review is required by reviewers with write access.");
    assert.equal(approvalsRequired(2), "At least 2 approving reviews are required by reviewers with write access.");
  });
});
