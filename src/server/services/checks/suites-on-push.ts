/**
 * The check suites GitHub makes when a branch is pushed (https://docs.github.com/rest/guides/using-the-rest-api-to-interact-with-checks):
 * "GitHub creates check suites automatically when code is pushed to the repository" for each GitHub App installed on
 * it that takes the `check_suite` event with the Checks permission (write), and sends that app alone
 * `check_suite.requested`, unless the repository's preferences turned it off for the app (`PATCH .../check-suites/
 * preferences`). One suite an app and head commit: a commit that already has the app's suite makes none. In the
 * push's transaction, as the rest of the push.
 */
import { toWebhookSuite } from "../../convert/check.js";
import type { Making } from "../actions/acting.js";
import type { NetworkObjects } from "../git/network-objects.js";
import { suiteFacts } from "./check-facts.js";

/**
 * The suites of the head commit `after` of `branch`, pushed from `before` (git's null id for a new branch), each with
 * its `check_suite.requested` to its app.
 */
export async function suitesRequested(
  making: Making,
  objects: NetworkObjects,
  push: { branch: string; before: string; after: string },
): Promise<void> {
  const { tx, scene } = making;
  const appIds = await tx.checks.appsForPushes(scene.repo.id);
  if (appIds.length === 0) return;
  const headCommit = (await objects.commit(push.after))!;
  const owner = (await tx.users.findById(scene.repo.ownerId))!;
  const repository = { repo: scene.repo, owner, stats: await tx.directory.repoStats(scene.repo.id) };
  for (const appId of appIds) {
    const suite = await tx.checks.newSuite(
      { repoId: scene.repo.id, appId, headSha: push.after, headBranch: push.branch, before: push.before },
      scene.at,
    );
    if (!suite) continue;
    const app = (await tx.apps.byId(appId))!;
    const appOwner = (await tx.users.findById(app.ownerId))!;
    const facts = suiteFacts(suite, { app: { app, owner: appOwner }, repository, headCommit, latestRunsCount: 0 });
    making.webhook("check_suite", "requested", { check_suite: toWebhookSuite(facts, scene.baseUrl, true) }, appId);
  }
}
