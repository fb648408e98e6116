/**
 * What the code services share: the repository a caller reads or pushes to, its network's objects, and GitHub's
 * answers about them (409 for an empty repository, 422 for a bad SHA-1 or person).
 */
import type { AcceptedPermissions } from "../../../api/permissions.js";
import { ApiError } from "../../errors.js";
import { InvalidInputError } from "../../failures.js";
import type { BranchFacts } from "../../convert/git.js";
import type { ActionTransaction, GitRef, ProtectionRules, RepoRow, Store, UserRow } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams, FeedService } from "../feeds.js";
import { mustHavePushAccess, writableRepository, type ActionAccess } from "../actions/repository-access.js";
import { NetworkObjects } from "./network-objects.js";
import { type CommitFields, type GitPerson, parseApiDate } from "../../git/objects.js";
import { personOf } from "./pushes.js";

const CONTENTS_READ: AcceptedPermissions = [{ contents: "read" }];

/** GitHub's 409 on the git data API of a repository without a commit (it must first get one, by the contents API). */
export const repositoryEmpty = () => new ApiError(409, "Git Repository is empty.");

/** A person as create-a-commit, create-a-tag and the contents API take one: name, email, and an ISO 8601 date. */
export interface PersonInput {
  name?: string | null;
  email?: string | null;
  date?: string | null;
}

/**
 * The person of an input, or `fallback` when none is given; 422 for one without a name or email, or with a date
 * that is not ISO 8601 (GitHub: `Invalid request. "name" wasn't supplied.`).
 */
export function personFrom(input: PersonInput | undefined, field: string, fallback: GitPerson): GitPerson {
  if (input === undefined) return fallback;
  if (!input.name || !input.email)
    throw new InvalidInputError(`${field} must have a name and an email`, { field, code: "missing_field" });
  if (!input.date) return { ...fallback, name: input.name, email: input.email };
  const date = parseApiDate(input.date);
  if (!date) throw new InvalidInputError(`${field}.date is not an ISO 8601 time`, { field, code: "invalid" });
  return { name: input.name, email: input.email, ...date };
}

export class RepositoryCode {
  constructor(
    private readonly store: Store,
    private readonly feeds: FeedService,
    /** The injected clock: a commit's default time. */
    readonly now: () => Date,
  ) {}

  /**
   * A repository whose code the caller reads; 404 for any other. A fine-grained token or an app reads a private
   * repository's code with the Contents permission, as on GitHub (Metadata alone shows the repository, not its files).
   */
  async readable(params: FeedParams, principal: Principal | null): Promise<RepoRow> {
    return (await this.feeds.repository(params, principal, CONTENTS_READ)).repo;
  }

  /** A repository the caller may push to: push access, else 403 (404 when it cannot see it). */
  async pushable(params: FeedParams, access: ActionAccess): Promise<{ repo: RepoRow; user: UserRow }> {
    const w = await writableRepository(this.store, this.feeds, params, access);
    if (!w.pushes) throw mustHavePushAccess();
    return { repo: w.repo, user: w.principal.user };
  }

  /** The repository's objects, read from the store. */
  objects(repo: RepoRow): NetworkObjects {
    return new NetworkObjects(this.store.git, repo.networkId);
  }

  /** The repository's objects as an action's transaction reads and writes them. */
  objectsIn(tx: ActionTransaction, repo: RepoRow): NetworkObjects {
    return new NetworkObjects(tx.git, repo.networkId);
  }

  storeRef(repo: RepoRow, name: string): Promise<GitRef | null> {
    return this.store.git.ref(repo.id, name);
  }

  storeRefs(repo: RepoRow, prefix: string): Promise<GitRef[]> {
    return this.store.git.refs(repo.id, prefix);
  }

  /**
   * The commit a ref names, as GitHub's contents and commits APIs read one: a branch, else a tag (an annotated tag
   * peeled to what it tags), else a commit's SHA-1; with its fields, or null when it names none.
   */
  async commitOf(
    repo: RepoRow,
    objects: NetworkObjects,
    ref: string,
  ): Promise<{ sha: string; fields: CommitFields } | null> {
    const stored = (await this.storeRef(repo, `refs/heads/${ref}`)) ?? (await this.storeRef(repo, `refs/tags/${ref}`));
    let sha = stored?.sha ?? ref;
    for (let tag = await objects.tag(sha); tag; tag = await objects.tag(sha)) sha = tag.object;
    const fields = await objects.commit(sha);
    return fields ? { sha, fields } : null;
  }

  /** Branch refs as the branch answers show them: each with its protection's rules, null for none. */
  async branches(repo: RepoRow, refs: GitRef[]): Promise<BranchFacts[]> {
    const rules = new Map((await this.store.protections.list(repo.id)).map((row) => [row.branch, row.rules]));
    return refs.map((ref) => {
      const name = ref.name.slice("refs/heads/".length);
      return { name, sha: ref.sha, rules: rules.get(name) ?? null };
    });
  }

  /** The rules of a branch's protection; null when it has none. */
  async protectionOf(repo: RepoRow, branch: string): Promise<ProtectionRules | null> {
    return (await this.store.protections.find(repo.id, branch))?.rules ?? null;
  }

  /** Whether the repository has a ref: GitHub's git data API refuses a repository without one (repositoryEmpty). */
  async hasRefs(repo: RepoRow): Promise<boolean> {
    return (await this.store.git.refs(repo.id, "refs/")).length > 0;
  }

  /** 409 for an empty repository; the repository otherwise. */
  async notEmpty(repo: RepoRow): Promise<RepoRow> {
    if (!(await this.hasRefs(repo))) throw repositoryEmpty();
    return repo;
  }

  /** The caller as the default author and committer, at `at`. */
  person(user: UserRow, at: Date = this.now()): GitPerson {
    return personOf(user, at);
  }
}
