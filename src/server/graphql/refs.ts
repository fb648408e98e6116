/**
 * GitHub's Ref and the git objects a ref points at (Commit, Tag, Tree, Blob: the GitObject interface), read through
 * the REST refs and git data services (services/git/git-refs.ts, git-data.ts) with their visibility: a fine-grained
 * token reads a private repository's refs with the Contents permission, as REST's. A ref's pull requests
 * (`associatedPullRequests`: those whose head it is) are the pull request service's (services/pulls).
 */
import { nodeId } from "../convert/git.js";
import { legacyNodeId } from "../convert/node-ids.js";
import { webOrigin } from "../convert/urls.js";
import type { PullFacts } from "../convert/pull.js";
import type { RefView } from "../services/git/git-refs.js";
import type { FeedParams } from "../services/feeds.js";
import type { RepoRow } from "../store/store.js";
import { connection, type PageArguments } from "./connections.js";
import type { GraphContext } from "./graph-context.js";
import { pullObject, pullState, type PullState } from "./pull-requests.js";

/** The repository a ref is read in: its row, the path parameters REST's services take, and its GraphQL object. */
export interface RefRepository {
  repo: RepoRow;
  params: FeedParams;
  object: unknown;
}

const BRANCHES = "refs/heads/";
const TAGS = "refs/tags/";

/**
 * A ref's `prefix` and `name` when it is looked up alone: a branch's and a tag's prefix, or, for any other ref,
 * everything up to its last slash (`refs/pull/1/` and `head`).
 */
export function splitRefName(full: string): { prefix: string; name: string } {
  const prefix = [BRANCHES, TAGS].find((known) => full.startsWith(known)) ?? full.slice(0, full.lastIndexOf("/") + 1);
  return { prefix, name: full.slice(prefix.length) };
}

/** GitHub's global id of a ref (`03:Ref<repository id>:<full name>`): what `node(id:)` reads back (./nodes.ts). */
export const refNodeId = (repo: RepoRow, full: string) => legacyNodeId("Ref", `${repo.wireId}:${full}`);

export interface AssociatedArguments extends PageArguments {
  states?: PullState[] | null;
  baseRefName?: string | null;
  headRefName?: string | null;
  labels?: string[] | null;
  orderBy?: { field: "CREATED_AT" | "UPDATED_AT" | "COMMENTS"; direction: "ASC" | "DESC" } | null;
}

const ORDER_VALUE = {
  CREATED_AT: (facts: PullFacts) => facts.issue.issue.createdAt.getTime(),
  UPDATED_AT: (facts: PullFacts) => facts.issue.issue.updatedAt.getTime(),
  COMMENTS: (facts: PullFacts) => facts.issue.issue.comments,
} as const;

/** The pull requests with this branch as their head, filtered and ordered as the arguments ask. */
async function associatedPullRequests(
  at: RefRepository,
  full: string,
  args: AssociatedArguments,
  context: GraphContext,
) {
  const branch = full.startsWith(BRANCHES) ? full.slice(BRANCHES.length) : null;
  let pulls = branch === null ? [] : await context.services.pulls.fromHead(at.repo, branch, context.principal);
  const { states, baseRefName, headRefName, labels, orderBy } = args;
  pulls = pulls.filter(
    (facts) =>
      (!states?.length || states.includes(pullState(facts))) &&
      (baseRefName == null || facts.issue.pull.baseRef === baseRefName) &&
      (headRefName == null || facts.issue.pull.headRef === headRefName) &&
      (!labels?.length || facts.issue.labels.some((label) => labels.includes(label.name))),
  );
  if (orderBy) {
    const value = ORDER_VALUE[orderBy.field];
    const sign = orderBy.direction === "DESC" ? -1 : 1;
    pulls = [...pulls].sort((a, b) => sign * (value(a) - value(b)) || a.issue.issue.id - b.issue.issue.id);
  }
  return connection("associatedPullRequests", pulls, args, (facts) => pullObject(facts, context));
}

/** A ref as GraphQL shows it, its `prefix` and `name` as it was asked for (`refs(refPrefix:)` names it after one). */
export function refObject(
  view: RefView,
  at: RefRepository,
  context: GraphContext,
  prefix = splitRefName(view.ref.name).prefix,
) {
  const full = view.ref.name;
  return {
    __typename: "Ref",
    id: refNodeId(at.repo, full),
    name: full.slice(prefix.length),
    prefix,
    repository: at.object,
    target: () => gitObject(view.ref.sha, view.type, at, context),
    associatedPullRequests: (args: AssociatedArguments) => associatedPullRequests(at, full, args, context),
  };
}

const TYPENAMES: Record<string, string> = { commit: "Commit", tag: "Tag", tree: "Tree", blob: "Blob" };

/** A git object as the GitObject interface shows it, and what its kind adds (a commit's message, a tag's target). */
export function gitObject(sha: string, type: string, at: RefRepository, context: GraphContext) {
  const typename = TYPENAMES[type] ?? "Commit";
  const path = `/${at.repo.fullName}/commit/${sha}`;
  const common = {
    __typename: typename,
    id: nodeId(typename, sha),
    oid: sha,
    abbreviatedOid: sha.slice(0, 7),
    commitResourcePath: path,
    commitUrl: `${webOrigin(context.baseUrl)}${path}`,
    repository: at.object,
  };
  const { objects } = context.services.code;
  if (typename === "Commit") {
    let read: ReturnType<typeof objects.getCommit> | undefined;
    const fields = async () =>
      (await (read ??= objects.getCommit({ ...at.params, commit_sha: sha }, context.principal))).value;
    return {
      ...common,
      message: async () => (await fields()).message,
      messageHeadline: async () => (await fields()).message.split("\n")[0],
    };
  }
  if (typename === "Tag") {
    let read: ReturnType<typeof objects.getTag> | undefined;
    const fields = async () =>
      (await (read ??= objects.getTag({ ...at.params, tag_sha: sha }, context.principal))).value;
    return {
      ...common,
      name: async () => (await fields()).tag,
      message: async () => (await fields()).message,
      target: async () => {
        const tag = await fields();
        return gitObject(tag.object, tag.type, at, context);
      },
    };
  }
  return common;
}
