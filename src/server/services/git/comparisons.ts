/**
 * Comparing two commits (https://docs.github.com/rest/commits/commits#compare-two-commits): `BASE...HEAD`, each side a
 * branch, tag or SHA-1 of this repository, or `owner:ref` of the owner's repository in its network (a fork). It says
 * how far the head is ahead of and behind the base, lists the commits the head has that the base lacks (oldest first,
 * where `git log BASE..HEAD` is newest first) and the files changed from their merge base to the head: git's `...`.
 * GitHub reads `BASE..HEAD` the same way on this endpoint.
 */
import { ApiError, notFound } from "../../errors.js";
import type { CompareStatus, Comparison } from "../../convert/comparison.js";
import type { CommitFields } from "../../git/objects.js";
import type { PageRequest, RepoRow, Store, UserRow } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams } from "../feeds.js";
import { changedFiles, diffFiles } from "./changed-files.js";
import type { PatchedCommit } from "../../git/format-patch.js";
import type { DiffFile } from "../../git/unified-diff.js";
import { commitView, type CommitView } from "./commits.js";
import { ancestorsOf, commitsNotIn, mergeBaseOf } from "./history.js";
import type { NetworkObjects } from "./network-objects.js";
import type { RepositoryCode } from "./repository-code.js";

/** A path ending in `BASE...HEAD` after `compare/` (Fastify's wildcard). */
export type ComparePath = FeedParams & { "*": string };

/** Without `page` or `per_page` GitHub lists the last 250 commits, so that the last one listed is the head. */
export const UNPAGED_COMMITS = 250;
/** And at most 300 files, on the first page only. */
export const MAX_COMPARED_FILES = 300;

/** `BASE...HEAD` or `BASE..HEAD`: the two sides, or null for anything else. Git refuses `..` inside a ref's name. */
export function splitBasehead(basehead: string): { base: string; head: string } | null {
  const dots = basehead.includes("...") ? "..." : "..";
  const at = basehead.indexOf(dots);
  if (at <= 0 || at + dots.length >= basehead.length) return null;
  return { base: basehead.slice(0, at), head: basehead.slice(at + dots.length) };
}

export function compareStatus(aheadBy: number, behindBy: number): CompareStatus {
  if (aheadBy > 0 && behindBy > 0) return "diverged";
  if (aheadBy > 0) return "ahead";
  return behindBy > 0 ? "behind" : "identical";
}

const ownerOf = (repo: RepoRow) => repo.fullName.split("/")[0]!;

export class CompareService {
  constructor(
    private readonly store: Store,
    private readonly code: RepositoryCode,
  ) {}

  /**
   * The commit a side names. `owner:ref` reads the owner's repository of the network, which the caller must see as
   * any repository (404 otherwise); a side that names nothing is GitHub's 404 too.
   */
  private async side(repo: RepoRow, objects: NetworkObjects, text: string, principal: Principal | null) {
    const colon = text.indexOf(":");
    const owner = colon < 0 ? ownerOf(repo) : text.slice(0, colon);
    const ref = text.slice(colon + 1);
    let found: RepoRow | null = repo;
    if (owner.toLowerCase() !== ownerOf(repo).toLowerCase()) {
      const user = await this.store.users.findByLogin(owner);
      const fork = user && (await this.store.repositories.inNetwork(repo.networkId, user.id));
      found = fork && (await this.code.readable({ user: ownerOf(fork), repo: fork.fullName.split("/")[1] }, principal));
    }
    const commit = found && (await this.code.commitOf(found, objects, ref));
    if (!found || !commit) throw notFound();
    return { owner: ownerOf(found), ...commit };
  }

  /** The repository, both sides and their merge base; GitHub's 404s for a side naming nothing or no shared history. */
  private async sides(path: ComparePath, principal: Principal | null) {
    const repo = await this.code.readable(path, principal);
    const sides = splitBasehead(path["*"]);
    if (!sides) throw notFound();
    const objects = this.code.objects(repo);
    const base = await this.side(repo, objects, sides.base, principal);
    const head = await this.side(repo, objects, sides.head, principal);
    const mergeBase = await mergeBaseOf(objects, base.sha, head.sha);
    if (mergeBase === null) throw new ApiError(404, `No common ancestor between ${sides.base} and ${sides.head}.`);
    return { repo, objects, base, head, mergeBase };
  }

  /** The comparison as `git diff BASE...HEAD` writes it: the files from the merge base to the head. */
  async diff(path: ComparePath, principal: Principal | null): Promise<DiffFile[]> {
    const { objects, head, mergeBase } = await this.sides(path, principal);
    return diffFiles(objects, (await objects.commit(mergeBase))!.tree, head.fields.tree);
  }

  /**
   * The comparison as `git format-patch BASE...HEAD` writes it: each commit the head has that the base lacks, oldest
   * first, with its files against its first parent; merges left out, as format-patch leaves them out.
   */
  async patch(path: ComparePath, principal: Principal | null): Promise<PatchedCommit[]> {
    const { objects, base, head } = await this.sides(path, principal);
    const ahead = (await commitsNotIn(objects, head.sha, await ancestorsOf(objects, [base.sha]))).reverse();
    const patched: PatchedCommit[] = [];
    for (const { sha, fields } of ahead.filter((commit) => commit.fields.parents.length < 2)) {
      const parent = fields.parents[0] ? await objects.commit(fields.parents[0]) : null;
      patched.push({ sha, fields, files: await diffFiles(objects, parent?.tree ?? null, fields.tree) });
    }
    return patched;
  }

  /** `window` null: no paging asked for (the last UNPAGED_COMMITS commits, with the files). */
  async compare(path: ComparePath, principal: Principal | null, window: PageRequest | null): Promise<Comparison> {
    const { repo, objects, base, head, mergeBase } = await this.sides(path, principal);
    const ahead = (await commitsNotIn(objects, head.sha, await ancestorsOf(objects, [base.sha]))).reverse();
    const behindBy = (await commitsNotIn(objects, base.sha, await ancestorsOf(objects, [head.sha]))).length;
    const listed = window ? ahead.slice(window.offset, window.offset + window.limit) : ahead.slice(-UNPAGED_COMMITS);
    const accounts = new Map<string, UserRow | null>();
    const view = (sha: string, fields: CommitFields) => commitView(this.store, sha, fields, accounts);
    const commits: CommitView[] = [];
    for (const { sha, fields } of listed) commits.push(await view(sha, fields));
    const mergeBaseFields = (await objects.commit(mergeBase))!;
    const files =
      window && window.offset > 0
        ? null
        : (
            await changedFiles(objects, mergeBaseFields.tree, head.fields.tree, {
              offset: 0,
              limit: MAX_COMPARED_FILES,
            })
          ).files;
    return {
      repo,
      basehead: path["*"],
      base,
      head,
      baseCommit: await view(base.sha, base.fields),
      mergeBaseCommit: await view(mergeBase, mergeBaseFields),
      status: compareStatus(ahead.length, behindBy),
      aheadBy: ahead.length,
      behindBy,
      commits,
      files,
    };
  }
}
