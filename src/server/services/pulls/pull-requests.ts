/**
 * GitHub's pull requests API as actions and reads (https://docs.github.com/rest/pulls/pulls): opening a pull request
 * from a branch of the repository or of a fork in its network, listing, reading (its merge computed), editing,
 * closing and reopening, and its commits and files. A pull request is an issue of its repository, numbered with its
 * issues; each write is one transaction of the action log making the PullRequestEvent, the issue events and the
 * `pull_request` webhooks (./pull-made.ts). Merges are ./pull-merges.ts, reviewers and reviews ./pull-reviews.ts.
 */
import type { Endpoints } from "../../../api/endpoints.js";
import type { AcceptedPermissions } from "../../../api/permissions.js";
import type { RequestOf } from "../../../api/schemas.js";
import type { PullComputed, PullFacts } from "../../convert/pull.js";
import { ApiError, notFound, validationFailed } from "../../errors.js";
import { InvalidInputError } from "../../failures.js";
import type {
  IssueChanges,
  IssueRow,
  Page,
  PageRequest,
  PullFilter,
  PullRow,
  RepoRow,
  Store,
  UserRow,
} from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams, FeedService } from "../feeds.js";
import { Acting, numberOf, type ActionParts } from "../actions/acting.js";
import { mentionsMade } from "../actions/mentions.js";
import { mustHavePushAccess, writableRepository, type ActionAccess } from "../actions/repository-access.js";
import { changedFiles, type ChangedFile } from "../git/changed-files.js";
import { commitView, type CommitView } from "../git/commits.js";
import { NetworkObjects } from "../git/network-objects.js";
import type { HistoryCommit } from "../git/history.js";
import { mergeOf, pullCommits, pullComputed, pullFacts } from "./pull-facts.js";
import { protectionState } from "../protection/protection-rules.js";
import { pullAbout, pullEvent, pullWebhook } from "./pull-made.js";

type CreateInput = RequestOf<Endpoints["pulls"]["create"], "body">;
type UpdateInput = RequestOf<Endpoints["pulls"]["update"], "body">;
type ListQuery = RequestOf<Endpoints["pulls"]["list"], "query">;

export type PullPath = FeedParams & { pull_number: string };

/** GitHub lists at most 250 commits of a pull request (https://docs.github.com/rest/pulls/pulls#list-commits-on-a-pull-request). */
export const MAX_LISTED_COMMITS = 250;
/** And at most 3,000 files (https://docs.github.com/rest/pulls/pulls#list-pull-requests-files). */
export const MAX_LISTED_FILES = 3000;

/** What reading a private repository's pull requests needs of a fine-grained token or an app. */
const PULLS_READ: AcceptedPermissions = [{ pull_requests: "read" }];

/** GitHub's 422 entry about a pull request, as its create and update answer them. */
const refused = (entry: { field?: string; code: string; message?: string }) =>
  validationFailed([{ resource: "PullRequest", field: entry.field ?? "", ...entry }]);

export interface PullView {
  facts: PullFacts;
  computed: PullComputed;
}

export class PullRequestService {
  private readonly store: Store;
  private readonly feeds: FeedService;
  readonly acting: Acting;

  constructor(parts: ActionParts) {
    this.store = parts.store;
    this.feeds = parts.feeds;
    this.acting = new Acting(parts);
  }

  /** A repository whose pull requests the caller sees: 404 otherwise, as every repository resource. */
  async readable(params: FeedParams, principal: Principal | null): Promise<RepoRow> {
    return (await this.feeds.repository(params, principal, PULLS_READ)).repo;
  }

  /** The pull request the path names: its issue and row; 404 for anything else (an issue is no pull request). */
  async find(repo: RepoRow, path: PullPath): Promise<{ issue: IssueRow; pull: PullRow }> {
    const number = numberOf(path.pull_number);
    const pull = number === null ? null : await this.store.pulls.find(repo.id, number);
    const issue = pull && (await this.store.issues.findById(pull.issueId));
    if (!pull || !issue) throw notFound();
    return { issue, pull };
  }

  /**
   * The facts of these pull requests that the caller sees (their repositories' pull requests readable, as `readable`
   * decides for one), in their order: what a list across repositories shows, GraphQL's among them.
   */
  private async seen(pulls: PullRow[], principal: Principal | null): Promise<PullFacts[]> {
    const repos = new Map<number, RepoRow | null>();
    const facts: PullFacts[] = [];
    for (const pull of pulls) {
      if (!repos.has(pull.repoId)) {
        const repo = await this.store.directory.findRepoById(pull.repoId);
        const visible = repo && (!repo.private || (await this.feeds.readsPrivate(repo, principal, PULLS_READ)));
        repos.set(pull.repoId, visible ? repo : null);
      }
      const repo = repos.get(pull.repoId);
      const issue = repo && (await this.store.issues.findById(pull.issueId));
      if (repo && issue) facts.push(...(await pullFacts(this.store, repo, [issue])));
    }
    return facts;
  }

  /**
   * The pull requests opened from this branch of this repository, open or not, oldest first (GraphQL's
   * `Ref.associatedPullRequests`): its own, and those into the repositories of its network it was forked from.
   */
  fromHead(headRepo: RepoRow, ref: string, principal: Principal | null): Promise<PullFacts[]> {
    return this.store.pulls.withHead(headRepo.id, ref).then((pulls) => this.seen(pulls, principal));
  }

  /** The pull request whose wire id (its issue's) this is, when the caller sees it (GraphQL's `node(id:)`). */
  async byWireId(id: number, principal: Principal | null): Promise<PullFacts | null> {
    const pull = (await this.store.pulls.byIssueIds([id])).get(id);
    return pull ? ((await this.seen([pull], principal))[0] ?? null) : null;
  }

  async view(repo: RepoRow, issue: IssueRow): Promise<PullView> {
    const [facts] = await pullFacts(this.store, repo, [issue]);
    const objects = new NetworkObjects(this.store.git, repo.networkId);
    const protection = issue.state === "open" ? await protectionState(this.store, repo, facts!.issue.pull) : null;
    return { facts: facts!, computed: await pullComputed(objects, facts!, protection) };
  }

  /**
   * The head a pull request is opened from: `branch` in this repository, or `owner:branch` in the owner's repository
   * of this one's network (a fork); `head_repo` (`owner/name`) names the fork when its owner has several.
   */
  private async headOf(repo: RepoRow, head: string, headRepo: string | undefined) {
    const colon = head.indexOf(":");
    const ref = colon < 0 ? head : head.slice(colon + 1);
    const owner = colon < 0 ? null : head.slice(0, colon);
    let found: RepoRow | null = repo;
    if (headRepo !== undefined) {
      const [login, name] = headRepo.split("/");
      found = login && name ? await this.store.directory.findRepo(login, name) : null;
    } else if (owner !== null && owner.toLowerCase() !== repo.fullName.split("/")[0]!.toLowerCase()) {
      const user = await this.store.users.findByLogin(owner);
      found = user ? await this.store.repositories.inNetwork(repo.networkId, user.id) : null;
    }
    if (!found || found.networkId !== repo.networkId) return null;
    const stored = await this.store.git.ref(found.id, `refs/heads/${ref}`);
    return stored ? { repo: found, ref, sha: stored.sha } : null;
  }

  async create(params: FeedParams, input: CreateInput, access: ActionAccess): Promise<PullView> {
    const w = await writableRepository(this.store, this.feeds, params, access);
    const title = String(input.title).trim();
    if (title === "") throw refused({ field: "title", code: "missing_field" });
    const base = await this.store.git.ref(w.repo.id, `refs/heads/${input.base}`);
    if (!base) throw refused({ field: "base", code: "invalid" });
    const head = await this.headOf(w.repo, input.head, input.head_repo);
    if (!head) throw refused({ field: "head", code: "invalid" });
    const objects = new NetworkObjects(this.store.git, w.repo.networkId);
    if ((await pullCommits(objects, { baseSha: base.sha, headSha: head.sha })).length === 0)
      throw refused({ code: "custom", message: `No commits between ${input.base} and ${input.head}` });
    const headOwner = head.repo.fullName.split("/")[0];
    const scene = await this.acting.scene(w.repo, w.principal.user);
    const issue = await this.acting.perform(scene, async (making) => {
      const { tx } = making;
      const open = await tx.pulls.openWithHead(head.repo.id, head.ref);
      if (open.some((p) => p.repoId === w.repo.id && p.baseRef === input.base))
        throw refused({ code: "custom", message: `A pull request already exists for ${headOwner}:${head.ref}.` });
      const created = await tx.issues.insert({
        repoId: w.repo.id,
        userId: w.principal.user.id,
        title,
        body: input.body ?? null,
        milestoneId: null,
        at: scene.at,
      });
      await tx.pulls.insert({
        issueId: created.id,
        repoId: w.repo.id,
        number: created.number,
        headRepoId: head.repo.id,
        headRef: head.ref,
        headSha: head.sha,
        baseRef: input.base,
        baseSha: base.sha,
        draft: input.draft ?? false,
        maintainerCanModify: head.repo.id !== w.repo.id && (input.maintainer_can_modify ?? true),
      });
      const about = await pullAbout(tx, scene, created);
      await pullEvent(making, about, "opened");
      pullWebhook(making, about, "opened");
      await mentionsMade(making, about.issue, created.body);
      return created;
    });
    return this.view(w.repo, issue);
  }

  async get(path: PullPath, principal: Principal | null): Promise<PullView> {
    const repo = await this.readable(path, principal);
    return this.view(repo, (await this.find(repo, path)).issue);
  }

  async list(params: FeedParams, query: ListQuery, principal: Principal | null, window: PageRequest) {
    const repo = await this.readable(params, principal);
    const filter = await this.filter(repo, query);
    const page = await this.store.pulls.page(filter, window);
    return { rows: await pullFacts(this.store, repo, page.rows), total: page.total };
  }

  private async filter(repo: RepoRow, query: ListQuery): Promise<PullFilter> {
    const pick = <T extends string>(field: string, value: string | undefined, allowed: readonly T[], fallback: T) => {
      if (value === undefined) return fallback;
      if (!(allowed as readonly string[]).includes(value))
        throw new InvalidInputError(`${field} must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`, {
          field,
          code: "invalid",
        });
      return value as T;
    };
    const sort = pick("sort", query.sort, ["created", "updated", "popularity", "long-running"] as const, "created");
    const filter: PullFilter = {
      repoId: repo.id,
      state: pick("state", query.state, ["open", "closed", "all"] as const, "open"),
      sort,
      // GitHub's default: `desc` for `created` (or no sort), `asc` for the others.
      direction: pick("direction", query.direction, ["asc", "desc"] as const, sort === "created" ? "desc" : "asc"),
    };
    if (query.base !== undefined) filter.base = query.base;
    if (query.head !== undefined) {
      // `user:ref`; a user or repository that is not there matches nothing, as on GitHub.
      const [login, ref] = query.head.includes(":")
        ? query.head.split(/:(.*)/s)
        : [repo.fullName.split("/")[0]!, query.head];
      const user = await this.store.users.findByLogin(login!);
      const headRepo = user ? await this.store.repositories.inNetwork(repo.networkId, user.id) : null;
      filter.head = { repoId: headRepo?.id ?? -1, ref: ref ?? "" };
    }
    return filter;
  }

  async update(path: PullPath, input: UpdateInput, access: ActionAccess): Promise<PullView> {
    const w = await writableRepository(this.store, this.feeds, path, access);
    const { issue: before, pull: pullBefore } = await this.find(w.repo, path);
    const own = before.userId === w.principal.user.id;
    if (!own && !w.pushes) throw mustHavePushAccess();
    const state = input.state;
    if (state !== undefined && state !== "open" && state !== "closed")
      throw refused({ field: "state", code: "invalid" });
    if (state === "open" && pullBefore.mergedAt !== null)
      throw refused({ code: "custom", message: "state cannot be changed. The pull request cannot be reopened." });
    const title = input.title === undefined ? undefined : String(input.title).trim();
    if (title === "") throw refused({ field: "title", code: "missing_field" });
    const base =
      input.base === undefined || input.base === pullBefore.baseRef
        ? undefined
        : await this.store.git.ref(w.repo.id, `refs/heads/${input.base}`);
    if (input.base !== undefined && input.base !== pullBefore.baseRef && !base)
      throw refused({ field: "base", code: "invalid" });
    const scene = await this.acting.scene(w.repo, w.principal.user);
    const issue = await this.acting.perform(scene, async (making) => {
      const { tx } = making;
      const current = (await tx.issues.findById(before.id))!;
      const pull = (await tx.pulls.find(w.repo.id, current.number))!;
      const changes: IssueChanges = { updatedAt: scene.at };
      const edited: Record<string, unknown> = {};
      if (title !== undefined && title !== current.title) {
        changes.title = title;
        edited.title = { from: current.title };
      }
      if (input.body !== undefined && (input.body ?? null) !== current.body) {
        changes.body = input.body ?? null;
        edited.body = { from: current.body ?? "" };
      }
      const closing = state === "closed" && current.state === "open";
      const reopening = state === "open" && current.state === "closed";
      if (closing) Object.assign(changes, { state, closedAt: scene.at, closedById: scene.actor.id });
      if (reopening) Object.assign(changes, { state, closedAt: null, closedById: null });
      const rebased = base && input.base !== pull.baseRef;
      if (rebased) edited.base = { ref: { from: pull.baseRef }, sha: { from: pull.baseSha } };
      const modify =
        input.maintainer_can_modify !== undefined && input.maintainer_can_modify !== pull.maintainerCanModify;
      if (Object.keys(changes).length === 1 && !rebased && !modify) return current;
      const updated = await tx.issues.update(current.id, changes);
      await tx.pulls.update(current.id, {
        ...(rebased ? { baseRef: input.base!, baseSha: base.sha } : {}),
        ...(modify ? { maintainerCanModify: input.maintainer_can_modify! } : {}),
      });
      const about = await pullAbout(tx, scene, updated);
      if (edited.title)
        await making.issueEvent(about.issue, "renamed", { rename: { from: current.title, to: updated.title } });
      if (rebased) await making.issueEvent(about.issue, "base_ref_changed", {});
      if (Object.keys(edited).length) pullWebhook(making, about, "edited", { changes: edited });
      if (closing || reopening) {
        const action = closing ? "closed" : "reopened";
        await making.issueEvent(about.issue, action);
        await pullEvent(making, about, action);
        pullWebhook(making, about, action);
      }
      return updated;
    });
    return this.view(w.repo, issue);
  }

  /** The commits the pull request brings, oldest first (GitHub lists at most 250). */
  async commits(path: PullPath, principal: Principal | null, window: PageRequest) {
    const repo = await this.readable(path, principal);
    const { pull } = await this.find(repo, path);
    const objects = new NetworkObjects(this.store.git, repo.networkId);
    const all: HistoryCommit[] = (await pullCommits(objects, pull)).slice(0, MAX_LISTED_COMMITS);
    const accounts = new Map<string, UserRow | null>();
    const rows: CommitView[] = [];
    for (const { sha, fields } of all.slice(window.offset, window.offset + window.limit))
      rows.push(await commitView(this.store, sha, fields, accounts));
    return { repo, rows, total: all.length };
  }

  /** The files the pull request changes, from the merge base to its head (GitHub lists at most 3,000). */
  async files(path: PullPath, principal: Principal | null, window: PageRequest) {
    const repo = await this.readable(path, principal);
    const { pull } = await this.find(repo, path);
    const objects = new NetworkObjects(this.store.git, repo.networkId);
    const merge = await mergeOf(objects, pull.baseSha, pull.headSha);
    const limit = Math.max(0, Math.min(window.limit, MAX_LISTED_FILES - window.offset));
    const page = await changedFiles(objects, merge.fromTree, merge.headTree!, { offset: window.offset, limit });
    return {
      repo,
      head: pull.headSha,
      rows: page.files as ChangedFile[],
      total: Math.min(page.total, MAX_LISTED_FILES),
    };
  }

  /** 204 when merged, 404 otherwise: GitHub's check. */
  async checkMerged(path: PullPath, principal: Principal | null): Promise<void> {
    const repo = await this.readable(path, principal);
    const { pull } = await this.find(repo, path);
    if (pull.mergedAt === null) throw new ApiError(404, "Not Found");
  }
}

export type PullPage = Page<PullFacts>;
