/**
 * What an issue object shows beyond its row, read for a whole page at once: its author, labels, assignees, who
 * closed it, its milestone, its reactions and what its author is to the repository. Read through the store, or through an action's transaction
 * (whose parts are the same contracts) when the action's events and webhooks show the issue as it wrote it.
 */
import type { Static } from "@sinclair/typebox";
import type { AuthorAssociation } from "../../../api/issue-schemas.js";
import type { IssueFacts } from "../../convert/issue.js";
import type {
  DirectoryStore,
  IssueHas,
  IssueRow,
  IssueStore,
  ReactionStore,
  MilestoneStore,
  PullStore,
  RepoRole,
  RepoRow,
  UserRow,
  UserStore,
} from "../../store/store.js";

export interface FactSources {
  issues: Pick<IssueStore, "labelsOf" | "assigneesOf">;
  users: Pick<UserStore, "findById">;
  directory: Pick<DirectoryStore, "repoRole">;
  reactions: Pick<ReactionStore, "countsOf">;
  milestones: Pick<MilestoneStore, "byIds">;
  pulls: Pick<PullStore, "byIssueIds">;
}

/** What an action knows of its facts before it reads them: its actor, and what the actor was to the repository. */
export interface KnownFacts {
  actor: UserRow;
  repoId: number;
  /** The actor's role as its access was checked, when that was checked on this repository; undefined: not known. */
  actorRole?: RepoRole | null;
}

/**
 * The sources with each user and each role read once: an action's webhooks and events show the issue and the
 * comment, whose authors (and the issue's assignees, and who closed it) are most often the actor, read after the
 * action's writes, when none of them changes any more. The actor and its role are what the request was admitted
 * with, as the webhook's `sender` is.
 */
export function readingOnce(sources: FactSources, known: KnownFacts): FactSources {
  const users = new Map<number, Promise<UserRow | null>>([[known.actor.id, Promise.resolve(known.actor)]]);
  const roles = new Map<string, Promise<RepoRole | null>>();
  if (known.actorRole !== undefined) roles.set(`${known.actor.id}/${known.repoId}`, Promise.resolve(known.actorRole));
  return {
    issues: sources.issues,
    reactions: sources.reactions,
    milestones: sources.milestones,
    pulls: sources.pulls,
    users: {
      findById: (id) => {
        let user = users.get(id);
        if (!user) users.set(id, (user = sources.users.findById(id)));
        return user;
      },
    },
    directory: {
      repoRole: (userId, repoId) => {
        const key = `${userId}/${repoId}`;
        let role = roles.get(key);
        if (!role) roles.set(key, (role = sources.directory.repoRole(userId, repoId)));
        return role;
      },
    },
  };
}

/**
 * The sources for one issue whose action knows what it has (one it has just opened has no reactions and is no pull
 * request; the row an action wrote can say which of the others exist): what it does not have is not read.
 */
export function knownToHave(sources: FactSources, issueId: number, has: IssueHas): FactSources {
  const known = (ids: number[]) => ids.length === 1 && ids[0] === issueId;
  const none = <T>(ids: number[]) => Promise.resolve(new Map<number, T[]>(ids.map((id) => [id, []])));
  const empty = <K, V>() => Promise.resolve(new Map<K, V>());
  return {
    ...sources,
    issues: {
      labelsOf: (ids) => (!has.labels && known(ids) ? none(ids) : sources.issues.labelsOf(ids)),
      assigneesOf: (ids) => (!has.assignees && known(ids) ? none(ids) : sources.issues.assigneesOf(ids)),
    },
    reactions: {
      countsOf: (type, ids) => (!has.reactions && known(ids) ? empty() : sources.reactions.countsOf(type, ids)),
    },
    pulls: { byIssueIds: (ids) => (!has.pull && known(ids) ? empty() : sources.pulls.byIssueIds(ids)) },
  };
}

/** What a role is as GitHub's `author_association` (comments show theirs too). */
export const ASSOCIATION: Record<RepoRole, Static<typeof AuthorAssociation>> = {
  owner: "OWNER",
  member: "MEMBER",
  collaborator: "COLLABORATOR",
};

export async function issueFacts(sources: FactSources, repo: RepoRow, rows: IssueRow[]): Promise<IssueFacts[]> {
  const ids = rows.map((r) => r.id);
  // One after another: in an action's transaction the reads share one connection (pg queues, and warns of, overlaps).
  const labels = await sources.issues.labelsOf(ids);
  const assignees = await sources.issues.assigneesOf(ids);
  const reactions = await sources.reactions.countsOf("issue", ids);
  const pulls = await sources.pulls.byIssueIds(ids);
  const users = new Map<number, UserRow>();
  const roles = new Map<number, RepoRole | null>();
  const milestones = await sources.milestones.byIds(
    rows.flatMap((r) => (r.milestoneId === null ? [] : [r.milestoneId])),
  );
  const wanted = new Set(rows.flatMap((r) => [r.userId, ...(r.closedById === null ? [] : [r.closedById])]));
  for (const m of milestones.values()) wanted.add(m.creatorId);
  for (const list of assignees.values()) for (const id of list) wanted.add(id);
  for (const id of wanted) {
    const user = await sources.users.findById(id);
    if (user) users.set(id, user);
  }
  for (const id of new Set(rows.map((r) => r.userId))) roles.set(id, await sources.directory.repoRole(id, repo.id));
  const milestoneOf = (id: number | null) => {
    const milestone = id === null ? undefined : milestones.get(id);
    return milestone ? { milestone, creator: users.get(milestone.creatorId) ?? null } : null;
  };
  return rows.map((issue) => {
    const role = roles.get(issue.userId) ?? null;
    return {
      issue,
      repoFullName: repo.fullName,
      author: users.get(issue.userId)!,
      labels: labels.get(issue.id) ?? [],
      assignees: (assignees.get(issue.id) ?? []).flatMap((id) => users.get(id) ?? []),
      closedBy: issue.closedById === null ? null : (users.get(issue.closedById) ?? null),
      milestone: milestoneOf(issue.milestoneId),
      reactions: reactions.get(issue.id) ?? {},
      association: role ? ASSOCIATION[role] : "NONE",
      pull: pulls.get(issue.id) ?? null,
    };
  });
}
