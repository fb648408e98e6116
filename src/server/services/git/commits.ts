/**
 * A repository's branches and commits as GitHub's branches and commits APIs read them
 * (https://docs.github.com/rest/branches/branches, /rest/commits/commits): branches from the `refs/heads/` refs, the
 * history walked from a ref newest first by committer time (`git log`'s order), each commit's files diffed against
 * its first parent and its comments counted, each branch with its protection. A commit's `author` and `committer`
 * accounts are found by the noreply address GitHub writes for its people (`ID+login@users.noreply.github.com`); any
 * other e-mail has none.
 */
import { notFound, ApiError } from "../../errors.js";
import { type CommitFields, isSha } from "../../git/objects.js";
import { diffTrees } from "../../git/tree-diff.js";
import { changedFiles, diffFiles, type ChangedFile } from "./changed-files.js";
import type { PatchedCommit } from "../../git/format-patch.js";
import type { Page, PageRequest, RepoRow, Store, UserRow } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams } from "../feeds.js";
import type { NetworkObjects } from "./network-objects.js";
import type { RepositoryCode } from "./repository-code.js";

export interface CommitView {
  sha: string;
  fields: CommitFields;
  author: UserRow | null;
  committer: UserRow | null;
  /** Its files against its first parent, for a single commit's answer. */
  files?: ChangedFile[];
  /** Its commit comments, where the answer counts them (the commits API's). */
  commentCount?: number;
}

export interface CommitQuery {
  sha?: string;
  path?: string;
  author?: string;
  since?: string;
  until?: string;
}

/** The most commits one listing walks: a history longer than this is listed up to it. */
const MAX_WALK = 20_000;

const NOREPLY = /^(\d+)\+([^@]+)@users\.noreply\.github\.com$/;

function time(value: string | undefined, field: string): Date | undefined {
  if (value === undefined) return undefined;
  const at = new Date(value);
  if (Number.isNaN(at.getTime()))
    throw new ApiError(422, `Invalid value for \`${field}\`: it must be an ISO 8601 timestamp`);
  return at;
}

/** The account of a commit's e-mail (GitHub's noreply address names it), remembered in `accounts` for a listing. */
async function commitAccount(
  store: Pick<Store, "users">,
  email: string,
  accounts: Map<string, UserRow | null>,
): Promise<UserRow | null> {
  if (!accounts.has(email)) {
    const login = NOREPLY.exec(email)?.[2];
    const user = login ? await store.users.findByLogin(login) : null;
    accounts.set(email, user ?? null);
  }
  return accounts.get(email)!;
}

/** A commit with the accounts of its author and committer, as the commits API shows it. */
export async function commitView(
  store: Pick<Store, "users">,
  sha: string,
  fields: CommitFields,
  accounts: Map<string, UserRow | null>,
): Promise<CommitView> {
  return {
    sha,
    fields,
    author: await commitAccount(store, fields.author.email, accounts),
    committer: await commitAccount(store, fields.committer.email, accounts),
  };
}

export class CommitService {
  constructor(
    private readonly store: Store,
    private readonly code: RepositoryCode,
  ) {}

  private view(sha: string, fields: CommitFields, accounts: Map<string, UserRow | null>): Promise<CommitView> {
    return commitView(this.store, sha, fields, accounts);
  }

  /** A commit with the accounts of its author and committer, as the commits API shows it (webhooks carry it too). */
  facts(sha: string, fields: CommitFields): Promise<CommitView> {
    return this.view(sha, fields, new Map());
  }

  /** The commit a branch, tag or SHA-1 names; 404 or GitHub's 422 for none. */
  private async commitOf(repo: RepoRow, objects: NetworkObjects, ref: string): Promise<string> {
    const commit = await this.code.commitOf(repo, objects, ref);
    if (commit) return commit.sha;
    throw isSha(ref) ? notFound() : new ApiError(422, `No commit found for SHA: ${ref}`);
  }

  /** The branches, by name; `protected` (`true` or `false`) keeps the protected ones or the others, as GitHub's. */
  async branches(params: FeedParams, query: { protected?: string }, principal: Principal | null, window: PageRequest) {
    const repo = await this.code.readable(params, principal);
    const all = await this.code.branches(repo, await this.code.storeRefs(repo, "refs/heads/"));
    const wanted = query.protected === undefined ? null : query.protected === "true" || query.protected === "1";
    const rows = wanted === null ? all : all.filter((branch) => (branch.rules !== null) === wanted);
    return { repo, rows: rows.slice(window.offset, window.offset + window.limit), total: rows.length };
  }

  async branch(path: FeedParams & { branch: string }, principal: Principal | null) {
    const repo = await this.code.readable(path, principal);
    const ref = await this.code.storeRef(repo, `refs/heads/${path.branch}`);
    if (!ref) throw new ApiError(404, "Branch not found");
    const objects = this.code.objects(repo);
    const fields = (await objects.commit(ref.sha))!;
    const rules = await this.code.protectionOf(repo, path.branch);
    return { repo, name: path.branch, rules, commit: await this.view(ref.sha, fields, new Map()) };
  }

  async get(path: FeedParams & { ref: string }, principal: Principal | null, window: PageRequest) {
    const repo = await this.code.notEmpty(await this.code.readable(path, principal));
    const objects = this.code.objects(repo);
    const sha = await this.commitOf(repo, objects, path.ref);
    const fields = (await objects.commit(sha))!;
    const parent = fields.parents[0] ? await objects.commit(fields.parents[0]) : null;
    const { files, total } = await changedFiles(objects, parent?.tree ?? null, fields.tree, window);
    const commentCount = (await this.store.commitComments.countsOf(repo.id, [sha])).get(sha) ?? 0;
    return { repo, commit: { ...(await this.view(sha, fields, new Map())), files, commentCount }, totalFiles: total };
  }

  /** The commit a ref names, with its files against its first parent (none: the empty tree), for a diff or patch. */
  async patched(path: FeedParams & { ref: string }, principal: Principal | null): Promise<PatchedCommit> {
    const repo = await this.code.notEmpty(await this.code.readable(path, principal));
    const objects = this.code.objects(repo);
    const sha = await this.commitOf(repo, objects, path.ref);
    const fields = (await objects.commit(sha))!;
    const parent = fields.parents[0] ? await objects.commit(fields.parents[0]) : null;
    return { sha, fields, files: await diffFiles(objects, parent?.tree ?? null, fields.tree) };
  }

  /** The SHA-1 of the commit a ref names: GitHub's `application/vnd.github.sha`. */
  async shaOf(path: FeedParams & { ref: string }, principal: Principal | null): Promise<string> {
    const repo = await this.code.notEmpty(await this.code.readable(path, principal));
    return this.commitOf(repo, this.code.objects(repo), path.ref);
  }

  /** The history from `query.sha` (the default branch), newest first, as filtered. */
  async list(
    params: FeedParams,
    query: CommitQuery,
    principal: Principal | null,
    window: PageRequest,
  ): Promise<{ repo: RepoRow } & Page<CommitView>> {
    const repo = await this.code.notEmpty(await this.code.readable(params, principal));
    const objects = this.code.objects(repo);
    const since = time(query.since, "since");
    const until = time(query.until, "until");
    const start = await this.commitOf(repo, objects, query.sha ?? repo.settings.defaultBranch ?? "main");
    const accounts = new Map<string, UserRow | null>();
    const matched: CommitView[] = [];
    const seen = new Set<string>([start]);
    const frontier: { sha: string; fields: CommitFields }[] = [{ sha: start, fields: (await objects.commit(start))! }];
    while (frontier.length > 0 && seen.size <= MAX_WALK) {
      // Newest committer time first, as `git log` walks.
      frontier.sort((a, b) => b.fields.committer.date.getTime() - a.fields.committer.date.getTime());
      const { sha, fields } = frontier.shift()!;
      for (const parent of fields.parents) {
        if (seen.has(parent)) continue;
        seen.add(parent);
        const parentFields = await objects.commit(parent);
        if (parentFields) frontier.push({ sha: parent, fields: parentFields });
      }
      const at = fields.committer.date;
      if ((since && at < since) || (until && at > until)) continue;
      const view = await this.view(sha, fields, accounts);
      if (query.author && !matchesAuthor(view, query.author)) continue;
      if (query.path && !(await touches(objects, fields, query.path))) continue;
      matched.push(view);
    }
    const rows = matched.slice(window.offset, window.offset + window.limit);
    const counts = await this.store.commitComments.countsOf(
      repo.id,
      rows.map((row) => row.sha),
    );
    return {
      repo,
      rows: rows.map((row) => ({ ...row, commentCount: counts.get(row.sha) ?? 0 })),
      total: matched.length,
    };
  }
}

/** `author`: a login (the commit's author account) or an e-mail (its author's). */
const matchesAuthor = (view: CommitView, author: string) =>
  view.author?.login.toLowerCase() === author.toLowerCase() ||
  view.fields.author.email.toLowerCase() === author.toLowerCase();

/** Whether the commit changed `path` (a file, or anything under a directory) against its first parent. */
async function touches(objects: NetworkObjects, fields: CommitFields, path: string): Promise<boolean> {
  const parent = fields.parents[0] ? await objects.commit(fields.parents[0]) : null;
  const prefix = path.replace(/^\/+|\/+$/g, "");
  const changes = await diffTrees(objects.trees, parent?.tree ?? null, fields.tree);
  return changes.some((change) => change.path === prefix || change.path.startsWith(`${prefix}/`));
}
