/**
 * A check suite's status and conclusion from its latest runs (src/server/services/checks/suite-state.ts), as GitHub's
 * checks guide derives them: not completed while a run is not, then the highest priority conclusion.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { suiteState } from "../../../src/server/services/checks/suite-state.js";
import type { CheckConclusion, CheckStatus } from "../../../src/server/store/store.js";

const run = (status: CheckStatus, conclusion: CheckConclusion | null = null) => ({ status, conclusion });

test("GitHub's example: timed_out, success and neutral make timed_out", () => {
  const runs = [run("completed", "timed_out"), run("completed", "success"), run("completed", "neutral")];
  assert.deepEqual(suiteState(runs), { status: "completed", conclusion: "timed_out" });
});

test("a suite is queued with no runs or only queued ones, in progress while any run is, without a conclusion", () => {
  assert.deepEqual(suiteState([]), { status: "queued", conclusion: null });
  assert.deepEqual(suiteState([run("queued"), run("completed", "failure")]), { status: "queued", conclusion: null });
  assert.deepEqual(suiteState([run("in_progress"), run("queued")]), { status: "in_progress", conclusion: null });
});

test("what asks for a person or did not finish outranks the outcomes; skipped only when all are", () => {
  const completed = (...conclusions: CheckConclusion[]) =>
    suiteState(conclusions.map((c) => run("completed", c))).conclusion;
  assert.equal(completed("success", "action_required", "failure"), "action_required");
  assert.equal(completed("failure", "cancelled"), "cancelled");
  assert.equal(completed("success", "failure", "neutral"), "failure");
  assert.equal(completed("success", "skipped"), "success");
  assert.equal(completed("skipped", "skipped"), "skipped");
});
