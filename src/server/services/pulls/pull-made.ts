/**
 * What a pull request's actions make, from the pull request as the action's transaction left it: the
 * PullRequestEvent of the Events API (opened, closed, reopened, review_requested; its `pull_request` trimmed as
 * since 2025, CL25) and the `pull_request` webhook with the whole pull request
 * (../shared/spec/github-actions-and-events.md). The issue events it makes name the pull request's issue, whose
 * `pull_request` says what it is.
 */
import { toWireIssue } from "../../convert/issue.js";
import { toEventPull, toWirePull, type PullFacts } from "../../convert/pull.js";
import type { ActionTransaction, IssueRow } from "../../store/store.js";
import { withoutAssociation, type IssueAbout, type Making } from "../actions/acting.js";
import type { ActionScene } from "../actions/made.js";
import { NetworkObjects } from "../git/network-objects.js";
import { pullComputed, pullFacts } from "./pull-facts.js";
import { protectionState } from "../protection/protection-rules.js";

/** A pull request as an action's events and webhooks show it. */
export interface PullAbout {
  facts: PullFacts;
  /** Its issue, as the issue events it makes carry it. */
  issue: IssueAbout;
  /** The whole pull request, as webhooks carry it; empty when no hook would receive the action's webhooks. */
  wire: Record<string, unknown>;
}

/** The pull request of `issue` as the action's transaction has it now. */
export async function pullAbout(tx: ActionTransaction, scene: ActionScene, issue: IssueRow): Promise<PullAbout> {
  const [facts] = await pullFacts(tx, scene.repo, [issue]);
  // The whole pull request (its merge computed) only when a hook will receive it: webhooks are its only reader.
  const objects = new NetworkObjects(tx.git, scene.repo.networkId);
  const protection = async () =>
    issue.state === "open" ? await protectionState(tx, scene.repo, facts!.issue.pull) : null;
  const computed = scene.context === null ? null : await pullComputed(objects, facts!, await protection());
  return {
    facts: facts!,
    issue: {
      number: issue.number,
      wire: toWireIssue(facts!.issue, scene.baseUrl) as unknown as Record<string, unknown>,
    },
    wire: computed ? (toWirePull(facts!, computed, scene.baseUrl) as unknown as Record<string, unknown>) : {},
  };
}

/** The PullRequestEvent of an action (GitHub makes one for opened, closed, reopened and review_requested only). */
export async function pullEvent(making: Making, about: PullAbout, action: string, extra: Record<string, unknown> = {}) {
  await making.event("PullRequestEvent", {
    action,
    number: about.facts.issue.pull.number,
    pull_request: toEventPull(about.facts, making.scene.baseUrl),
    ...extra,
  });
}

/** The `pull_request` webhook of an action: `{action, number, pull_request, ...extra}`. */
export function pullWebhook(making: Making, about: PullAbout, action: string, extra: Record<string, unknown> = {}) {
  making.webhook("pull_request", action, {
    number: about.facts.issue.pull.number,
    pull_request: about.wire,
    ...extra,
  });
}

/** What each action has read of its pull requests' issues, by number. */
const readInAction = new WeakMap<Making, Map<number, Promise<PullAbout>>>();

/**
 * The pull request an issue action is about, read once an action: its webhooks (one a label, one an assignee) show
 * it as the action left it, as the issue's own `about` is one for all of them, and computing its merge each time
 * would repeat the same diff.
 */
function pullOfIssue(making: Making, about: IssueAbout): Promise<PullAbout> {
  let read = readInAction.get(making);
  if (!read) readInAction.set(making, (read = new Map()));
  let pull = read.get(about.number);
  if (!pull) {
    pull = making.tx.issues
      .find(making.scene.repo.id, about.number)
      .then((issue) => pullAbout(making.tx, making.scene, issue!));
    read.set(about.number, pull);
  }
  return pull;
}

/**
 * An issue action's webhook as GitHub sends it: `issues` with the issue, or for a pull request's issue (labelled,
 * assigned, closed through the issues API) `pull_request` with the whole pull request, `extra` beside either.
 */
export async function issueWebhook(
  making: Making,
  about: IssueAbout,
  action: string,
  extra: Record<string, unknown> = {},
) {
  if (making.scene.context === null) return;
  if (about.wire.pull_request === undefined) {
    making.webhook("issues", action, { issue: about.wire, ...extra });
    return;
  }
  pullWebhook(making, await pullOfIssue(making, about), action, extra);
}

/** An issue's closing or reopening in the Events API: IssuesEvent, or PullRequestEvent for a pull request's issue. */
export async function issueActivity(making: Making, about: IssueAbout, action: "closed" | "reopened") {
  if (about.wire.pull_request === undefined) {
    await making.event("IssuesEvent", { action, issue: withoutAssociation(about.wire) });
    return;
  }
  await pullEvent(making, await pullOfIssue(making, about), action);
}
