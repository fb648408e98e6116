/** Stored milestones -> GitHub's milestone object, as the milestones API and an issue's `milestone` show it. */
import type { Milestone } from "../../api/issue-schemas.js";
import type { MilestoneRow, UserRow } from "../store/store.js";
import { isoSeconds } from "./time.js";
import { webOrigin } from "./urls.js";
import { toWireSimpleUser } from "./user.js";

/** A milestone with what it shows beyond its row: who made it (null once that account is gone). */
export interface MilestoneFacts {
  milestone: MilestoneRow;
  creator: UserRow | null;
}

export function toWireMilestone(facts: MilestoneFacts, repoFullName: string, baseUrl: string): Milestone {
  const { milestone } = facts;
  const url = `${baseUrl}/repos/${repoFullName}/milestones/${milestone.number}`;
  return {
    url,
    html_url: `${webOrigin(baseUrl)}/${repoFullName}/milestone/${milestone.number}`,
    labels_url: `${url}/labels`,
    id: milestone.id,
    node_id: "",
    number: milestone.number,
    state: milestone.state,
    title: milestone.title,
    description: milestone.description,
    creator: facts.creator && toWireSimpleUser(facts.creator, baseUrl),
    open_issues: milestone.openIssues,
    closed_issues: milestone.closedIssues,
    created_at: isoSeconds(milestone.createdAt),
    updated_at: isoSeconds(milestone.updatedAt),
    closed_at: milestone.closedAt && isoSeconds(milestone.closedAt),
    due_on: milestone.dueOn && isoSeconds(milestone.dueOn),
  };
}
