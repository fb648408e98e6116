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
    // A fork's branch moves its parent's pull request: made there, as the parent's hooks see it.
    const repo = pull.repoId === scene.repo.id ? scene.repo : await tx.directory.findRepoById(pull.repoId);
    if (!repo) continue;
    const there = await making.in(repo);
    const issue = (await tx.issues.findById(pull.issueId))!;
    if (after === null) {
      await there.issueEvent((await pullAbout(tx, there.scene, issue)).issue, "head_ref_deleted");
      continue;
    }
    await tx.pulls.update(pull.issueId, { headSha: after });
    const updated = await tx.issues.update(issue.id, { updatedAt: scene.at });
    const about = await pullAbout(tx, there.scene, updated);
    pullWebhook(there, about, "synchronize", { before: before ?? pull.headSha, after });
  }
  if (after === null) return;
  for (const pull of await tx.pulls.openWithBase(scene.repo.id, branch))
    if (pull.baseSha !== after) await tx.pulls.update(pull.issueId, { baseSha: after });
}
