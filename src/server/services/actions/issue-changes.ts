/**
 * The changes to an issue that more than one API makes (an issue's create and update, its labels and assignees
 * endpoints): reading what the request names, and the issue events and `issues` webhooks each change makes, as
 * GitHub makes them (../shared/spec/github-actions-and-events.md: labeled / unlabeled `{label: {name, color}}`,
 * assigned / unassigned `{assignee, assigner}`, milestoned / demilestoned `{milestone: {title}}`).
 */
import { issueWebhook } from "../pulls/pull-made.js";
import { toWireLabel } from "../../convert/issue.js";
import { toWireMilestone } from "../../convert/milestone.js";
import { toWireSimpleUser } from "../../convert/user.js";
import { InvalidInputError } from "../../failures.js";
import type { ActionTransaction, LabelRow, MilestoneRow, RepoRow, UserRow } from "../../store/store.js";
import { numberOf, type IssueAbout, type Making } from "./acting.js";

/** The colour GitHub gives a label made without one: by naming it on an issue, or creating it with no `color`. */
export const NEW_LABEL_COLOR = "ededed";

/** Label names as the APIs take them: strings, or objects with a `name` (Octokit's older form). */
export function labelNames(labels: unknown[] | undefined): string[] | undefined {
  if (labels === undefined) return undefined;
  return labels.map((label, i) => {
    const name = typeof label === "object" && label !== null ? (label as { name?: unknown }).name : label;
    // NUL: a name PostgreSQL cannot store, refused on both drivers alike.
    if (typeof name !== "string" || name.trim() === "" || name.includes("\0"))
      throw new InvalidInputError(`labels[${i}] must be a label name`, { field: "labels" });
    return name.trim();
  });
}

/** The logins of `assignees`, or of the older single `assignee` (null: none). */
export function loginsOf(assignees: unknown[] | undefined, assignee?: string | null): string[] | undefined {
  if (assignees !== undefined) {
    return assignees.map((login, i) => {
      if (typeof login !== "string" || login.includes("\0"))
        throw new InvalidInputError(`assignees[${i}] must be a login`, { field: "assignees" });
      return login;
    });
  }
  if (assignee === undefined) return undefined;
  return assignee === null ? [] : [assignee];
}

/** The repository's labels of these names, made (grey, as GitHub makes them) where missing; each name once. */
export async function labelsMade(tx: ActionTransaction, repo: RepoRow, names: string[]): Promise<LabelRow[]> {
  const found = await tx.issues.labelsNamed(repo.id, names);
  const byName = new Map(found.map((l) => [l.name.toLowerCase(), l]));
  for (const name of names) {
    if (byName.has(name.toLowerCase())) continue;
    byName.set(
      name.toLowerCase(),
      await tx.issues.insertLabel({
        repoId: repo.id,
        name,
        color: NEW_LABEL_COLOR,
        description: null,
        isDefault: false,
      }),
    );
  }
  return [...new Set(names.map((n) => n.toLowerCase()))].map((n) => byName.get(n)!);
}

/**
 * How many assignees GitHub keeps on an issue ("Adds up to 10 assignees"): those past it are dropped without a word,
 * on create, update and add alike, as bots assigning a large team find (trstringer/manual-approval#94,
 * kubernetes/test-infra#10391).
 */
export const MAX_ASSIGNEES = 10;

/** Whether GitHub lets this account be assigned here: a user who is the owner, a collaborator or a member. */
export async function canBeAssigned(tx: Pick<ActionTransaction, "directory">, user: UserRow | null, repo: RepoRow) {
  if (user?.type !== "User") return false;
  const role = await tx.directory.repoRole(user.id, repo.id);
  return role === "owner" || role === "collaborator" || role === "member";
}

/** The accounts of these logins, each once; 422 for one GitHub does not let be assigned here, unless `dropping`. */
export async function assignable(
  tx: ActionTransaction,
  repo: RepoRow,
  logins: string[],
  { dropping = false } = {},
): Promise<UserRow[]> {
  const users: UserRow[] = [];
  for (const login of new Set(logins.map((l) => l.toLowerCase()))) {
    const user = await tx.users.findByLogin(login);
    if (await canBeAssigned(tx, user, repo)) users.push(user!);
    else if (!dropping)
      throw new InvalidInputError(`${login} cannot be assigned to issues of ${repo.fullName}`, {
        field: "assignees",
        code: "invalid",
      });
  }
  return users;
}

/**
 * The milestone an issue's `milestone` names: undefined leaves it, null clears it, a number is the repository's
 * milestone of that number (422 `invalid` on `milestone` for one it does not have, as GitHub answers).
 */
export async function milestoneNamed(
  tx: Pick<ActionTransaction, "milestones">,
  repo: RepoRow,
  value: string | number | null | undefined,
): Promise<MilestoneRow | null | undefined> {
  if (value === undefined || value === null) return value;
  const number = numberOf(value);
  const found = number === null ? null : await tx.milestones.find(repo.id, number);
  if (!found)
    throw new InvalidInputError(`milestone ${JSON.stringify(value)} does not exist`, {
      field: "milestone",
      code: "invalid",
    });
  return found;
}

/** What moving an issue's labels from `before` to `after` adds and removes. */
export function labelDiff(before: LabelRow[], after: LabelRow[]) {
  return {
    added: after.filter((l) => !before.some((b) => b.id === l.id)),
    removed: before.filter((b) => !after.some((l) => l.id === b.id)),
  };
}

export async function labeled(making: Making, issue: IssueAbout, label: LabelRow, event: "labeled" | "unlabeled") {
  await making.issueEvent(issue, event, { label: { name: label.name, color: label.color } });
  await issueWebhook(making, issue, event, {
    label: toWireLabel(label, making.scene.repo.fullName, making.scene.baseUrl),
  });
}

export async function assigned(making: Making, issue: IssueAbout, user: UserRow, event: "assigned" | "unassigned") {
  const { baseUrl, actor } = making.scene;
  const assignee = toWireSimpleUser(user, baseUrl);
  await making.issueEvent(issue, event, { assignee, assigner: toWireSimpleUser(actor, baseUrl) });
  await issueWebhook(making, issue, event, { assignee });
}

export async function milestoned(
  making: Making,
  issue: IssueAbout,
  milestone: MilestoneRow,
  event: "milestoned" | "demilestoned",
) {
  const { scene, tx } = making;
  await making.issueEvent(issue, event, { milestone: { title: milestone.title } });
  // Counted as the action left them (the issue in it, or out of it).
  const now = (await tx.milestones.find(milestone.repoId, milestone.number)) ?? milestone;
  const creator = await tx.users.findById(now.creatorId);
  await issueWebhook(making, issue, event, {
    milestone: toWireMilestone({ milestone: now, creator }, scene.repo.fullName, scene.baseUrl),
  });
}
