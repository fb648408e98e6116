/**
 * Commit statuses as GitHub's API and its `status` webhook show them (`status.schema.json`,
 * `combined-commit-status.schema.json`, `../shared/data/webhooks/examples/status.json`). A status's `url` names the
 * commit's statuses, as GitHub's does; its `avatar_url` is its creator's.
 */
import type { CombinedCommitStatus, CommitStatus, SimpleCommitStatus } from "../../api/status-schemas.js";
import type { CommitStatusRow, UserRow } from "../store/store.js";
import { nodeId } from "./git.js";
import { toWireParentRepository, type RepositoryFacts } from "./repository.js";
import { isoSeconds } from "./time.js";
import { avatarOf } from "./urls.js";
import { toWireSimpleUser } from "./user.js";

/** A status with the account that reported it (null once that account is gone). */
export interface StatusFacts {
  status: CommitStatusRow;
  creator: UserRow | null;
}

export function toWireSimpleStatus({ status, creator }: StatusFacts, fullName: string, baseUrl: string) {
  return {
    url: `${baseUrl}/repos/${fullName}/statuses/${status.sha}`,
    avatar_url: creator ? avatarOf(creator.login) : null,
    id: status.id,
    node_id: nodeId("Status", status.id),
    state: status.state,
    description: status.description,
    target_url: status.targetUrl,
    context: status.context,
    created_at: isoSeconds(status.createdAt),
    updated_at: isoSeconds(status.updatedAt),
  } satisfies SimpleCommitStatus;
}

export function toWireStatus(facts: StatusFacts, fullName: string, baseUrl: string): CommitStatus {
  return {
    ...toWireSimpleStatus(facts, fullName, baseUrl),
    creator: facts.creator && toWireSimpleUser(facts.creator, baseUrl),
  };
}

/** A commit's combined status: its state, one page of its contexts' latest statuses, and how many contexts it has. */
export interface CombinedFacts {
  state: string;
  sha: string;
  statuses: StatusFacts[];
  totalCount: number;
  repository: RepositoryFacts;
}

export function toWireCombinedStatus(facts: CombinedFacts, baseUrl: string): CombinedCommitStatus {
  const fullName = facts.repository.repo.fullName;
  const base = `${baseUrl}/repos/${fullName}`;
  return {
    state: facts.state,
    statuses: facts.statuses.map((status) => toWireSimpleStatus(status, fullName, baseUrl)),
    sha: facts.sha,
    total_count: facts.totalCount,
    repository: toWireParentRepository(facts.repository, baseUrl),
    commit_url: `${base}/commits/${facts.sha}`,
    url: `${base}/commits/${facts.sha}/status`,
  };
}
