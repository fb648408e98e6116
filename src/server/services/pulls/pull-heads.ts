/**
 * What a push does to the pull requests of its branch, in the push's transaction: an open pull request from the
 * branch follows its new head (the `pull_request.synchronize` webhook, `before` and `after`), or loses it (the
 * `head_ref_deleted` issue event); an open pull request into the branch follows its new base. GitHub makes no Events
 * API event of either.
 */
import type { Making } from "../actions/acting.js";
import { pullAbout, pullWebhook } from "./pull-made.js";

export async function pullsPushed(making: Making, branch: string, before: string | null, after: string | null) {
  const { tx, scene } = making;
  for (const pull of await tx.pulls.openWithHead(scene.repo.id, branch)) {
    if (pull.headSha === after) continue;
    // A fork's branch moves its parent's pull request too, but its webhooks would need the parent's scene, which is
    // read outside the transaction: they are not made yet (docs/code.md says so).
    const here = pull.repoId === scene.repo.id;
    const issue = (await tx.issues.findById(pull.issueId))!;
    if (after === null) {
      if (here) await making.issueEvent((await pullAbout(tx, scene, issue)).issue, "head_ref_deleted");
      continue;
    }
    await tx.pulls.update(pull.issueId, { headSha: after });
    const updated = await tx.issues.update(issue.id, { updatedAt: scene.at });
    if (here)
      pullWebhook(making, await pullAbout(tx, scene, updated), "synchronize", {
        before: before ?? pull.headSha,
        after,
      });
  }
  if (after === null) return;
  for (const pull of await tx.pulls.openWithBase(scene.repo.id, branch))
    if (pull.baseSha !== after) await tx.pulls.update(pull.issueId, { baseSha: after });
}
