/**
 * The scene of a repository action, built from the repository as the action leaves it: a new repository's webhooks and
 * events carry it as made, an edited one's as edited (GitHub's `repository.renamed` carries the new name). Its counts
 * are read before the action, which changes none of them.
 */
import { toWireRepository } from "../../convert/repository.js";
import type { RepoRow, RepoStats, UserRow } from "../../store/store.js";
import type { PayloadBuilder } from "../../webhooks/payload.js";
import type { ActionScene } from "./made.js";

/** A repository nothing has happened to yet: no stars, watchers, forks or events. */
export const NEW_REPO_STATS: RepoStats = {
  watchers: 0,
  subscribers: 0,
  forks: 0,
  networkForks: 0,
  openIssues: 0,
  firstEventAt: null,
  lastEventAt: null,
  lastPushAt: null,
};

export interface RepositoryPlace {
  owner: UserRow;
  /** The owner's `organization` object of webhook bodies, read before the action (placeOf); null for a user. */
  organization: Record<string, unknown> | null;
  actor: UserRow;
  stats: RepoStats;
  baseUrl: string;
  at: Date;
}

/** The repository's wire object as webhook bodies carry it. */
function repositoryObject(repo: RepoRow, place: RepositoryPlace): Record<string, unknown> {
  return toWireRepository({ repo, owner: place.owner, stats: place.stats }, {}, place.baseUrl) as unknown as Record<
    string,
    unknown
  >;
}

/** Where a repository action happens, read before its transaction (which reads nothing outside itself). */
export async function placeOf(
  parts: { owner: UserRow; actor: UserRow; stats: RepoStats; at: Date; baseUrl: string },
  payloads: PayloadBuilder,
): Promise<RepositoryPlace> {
  const org = parts.owner.type === "Organization";
  return { ...parts, organization: org ? await payloads.organization(parts.owner, parts.baseUrl) : null };
}

export function repositoryScene(repo: RepoRow, place: RepositoryPlace): ActionScene {
  const repository = repositoryObject(repo, place);
  return {
    repo,
    org: place.organization ? place.owner : null,
    actor: place.actor,
    context: place.organization ? { repository, organization: place.organization } : { repository },
    baseUrl: place.baseUrl,
    at: place.at,
  };
}
