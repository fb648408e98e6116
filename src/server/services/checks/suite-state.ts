/**
 * A check suite's status and conclusion from its runs, as GitHub derives them: of each name's newest run, queued or
 * in progress while any is not completed, else completed with "the highest priority check run conclusion" (GitHub's
 * checks guide: timed_out, success and neutral make timed_out). No I/O.
 */
import type { CheckConclusion, CheckRunRow, CheckStatus } from "../../store/store.js";

/** Conclusions by priority, highest first: what asks for a person, then what did not finish, then the outcomes. */
const PRIORITY: readonly CheckConclusion[] = [
  "action_required",
  "cancelled",
  "timed_out",
  "failure",
  "neutral",
  "success",
  "skipped",
];

export function suiteState(latest: readonly Pick<CheckRunRow, "status" | "conclusion">[]): {
  status: CheckStatus;
  conclusion: CheckConclusion | null;
} {
  if (latest.some((run) => run.status !== "completed") || latest.length === 0)
    return { status: latest.some((run) => run.status === "in_progress") ? "in_progress" : "queued", conclusion: null };
  const conclusion = PRIORITY.find((c) => latest.some((run) => run.conclusion === c)) ?? null;
  return { status: "completed", conclusion };
}
