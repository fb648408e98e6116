/**
 * GitHub's PullRequest, made from the facts REST's pull request objects are made from (services/pulls, convert/pull.ts)
 * so that both interfaces show one pull request alike: its id is REST's `node_id`, its `url` REST's `html_url`.
 */
import { legacyNodeId } from "../convert/node-ids.js";
import { toWirePullSimple, type PullFacts } from "../convert/pull.js";
import type { RepositoryFacts } from "../convert/repository.js";
import { isoSeconds } from "../convert/time.js";
import { nullWhenNotResolved, type GraphContext } from "./graph-context.js";

export type PullState = "OPEN" | "CLOSED" | "MERGED";

/** GitHub's PullRequestState: a merged pull request is MERGED, not CLOSED. */
export const pullState = (facts: PullFacts): PullState =>
  facts.issue.pull.mergedAt !== null ? "MERGED" : facts.issue.issue.state === "closed" ? "CLOSED" : "OPEN";

/** GitHub's global id of a pull request, REST's `node_id`: what `node(id:)` reads back (./nodes.ts). */
export const pullNodeId = (facts: PullFacts) => legacyNodeId("PullRequest", facts.issue.issue.id);

const nameOf = (facts: RepositoryFacts) => facts.repo.fullName.slice(facts.repo.fullName.indexOf("/") + 1);

export function pullObject(facts: PullFacts, context: GraphContext) {
  const wire = toWirePullSimple(facts, context.baseUrl);
  const { issue, pull } = facts.issue;
  const state = pullState(facts);
  const { links } = context;
  const base = facts.base.repo;
  const head = facts.head.repo;
  const baseRepository = () => links.repository(base.owner.login, nameOf(base));
  const headRepository = () =>
    head ? links.repository(head.owner.login, nameOf(head)).catch(nullWhenNotResolved) : null;
  // A branch as its repository shows it now: null once it is deleted, or when the caller may not see its repository.
  const branch = async (repository: Promise<unknown> | null, name: string) => {
    const found = (await repository) as { ref(args: { qualifiedName: string }): Promise<unknown> } | null;
    return found ? found.ref({ qualifiedName: `refs/heads/${name}` }) : null;
  };
  return {
    __typename: "PullRequest",
    id: pullNodeId(facts),
    databaseId: wire.id,
    number: wire.number,
    title: wire.title,
    body: wire.body ?? "",
    url: wire.html_url,
    permalink: wire.html_url,
    resourcePath: `/${facts.issue.repoFullName}/pull/${pull.number}`,
    state,
    closed: state !== "OPEN",
    merged: state === "MERGED",
    isDraft: pull.draft,
    createdAt: isoSeconds(issue.createdAt),
    updatedAt: isoSeconds(issue.updatedAt),
    closedAt: issue.closedAt && isoSeconds(issue.closedAt),
    mergedAt: pull.mergedAt && isoSeconds(pull.mergedAt),
    headRefName: pull.headRef,
    headRefOid: pull.headSha,
    baseRefName: pull.baseRef,
    baseRefOid: pull.baseSha,
    author: () => links.account(facts.issue.author),
    repository: baseRepository,
    baseRepository,
    headRepository,
    headRepositoryOwner: () => (head ? links.account(head.owner) : null),
    baseRef: () => branch(baseRepository().catch(nullWhenNotResolved), pull.baseRef),
    headRef: () => branch(headRepository(), pull.headRef),
  };
}
