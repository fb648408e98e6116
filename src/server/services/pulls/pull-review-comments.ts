/**
 * Review comments (https://docs.github.com/rest/pulls/comments): a note on a line of a pull request's diff (its
 * `line` on a `side`, placed in the diff from the merge base to the commit, git/diff-position.ts) or on a whole file,
 * a reply joining another's thread; edited and deleted by their authors (or those with push access). Each is made in
 * a review of its own unless a review makes it; making one is PullRequestReviewCommentEvent `created` and the
 * `pull_request_review_comment` webhook, as editing and deleting are their webhooks.
 */
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import { toEventPull, toWireReviewComment, type ReviewCommentFacts } from "../../convert/pull.js";
import { notFound, validationFailed } from "../../errors.js";
import { InvalidInputError } from "../../failures.js";
import { diffPlace } from "../../git/diff-position.js";
import { fileDiff } from "../../git/file-diff.js";
import { diffTrees } from "../../git/tree-diff.js";
import type { PageRequest, PullRow, RepoRow, ReviewCommentFilter, ReviewCommentRow, Store } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams } from "../feeds.js";
import { numberOf, withoutAssociation, type Making } from "../actions/acting.js";
import { ASSOCIATION } from "../actions/issue-facts.js";
import { mustHavePushAccess, writableRepository, type ActionAccess } from "../actions/repository-access.js";
import { mergeBaseOf } from "../git/history.js";
import { NetworkObjects } from "../git/network-objects.js";
import { pullAbout } from "./pull-made.js";
import type { PullPath, PullRequestService } from "./pull-requests.js";

type CreateInput = RequestOf<Endpoints["pulls"]["createReviewComment"], "body">;
type ListQuery = RequestOf<Endpoints["pulls"]["listReviewComments"], "query">;
export type CommentPath = FeedParams & { comment_id: string };

/** A comment to place: on a line (and side) of a path's diff, or on the whole file. */
export interface CommentTarget {
  body: string;
  path: string;
  line?: number | string;
  side?: string;
  start_line?: number | string;
  start_side?: string;
  subject_type?: string;
}

/** GitHub's 422 for a comment it cannot place in the diff. */
const unresolved = (field: "path" | "line") =>
  validationFailed([
    {
      resource: "PullRequestReviewComment",
      code: "custom",
      field: `pull_request_review_thread.${field}`,
      message: "could not be resolved",
    },
  ]);

const sideOf = (value: string | undefined, field: string): "LEFT" | "RIGHT" => {
  if (value === undefined || value === "RIGHT" || value === "LEFT") return value ?? "RIGHT";
  throw new InvalidInputError(`${field} must be LEFT or RIGHT, got ${JSON.stringify(value)}`, {
    field,
    code: "invalid",
  });
};

/**
 * Where `target` is in the pull request's diff at `commitId` (from the merge base with the base): the row's place
 * columns; 422 for a path the diff does not change or a line it does not show.
 */
export async function placeComment(objects: NetworkObjects, pull: PullRow, commitId: string, target: CommentTarget) {
  const commit = await objects.commit(commitId);
  if (!commit) throw validationFailed([{ resource: "PullRequestReviewComment", code: "invalid", field: "commit_id" }]);
  const base = await mergeBaseOf(objects, pull.baseSha, commitId);
  const from = base === null ? null : ((await objects.commit(base))?.tree ?? null);
  const change = (await diffTrees(objects.trees, from, commit.tree)).find((c) => c.path === target.path);
  if (!change) throw unresolved("path");
  const body = async (sha: string | undefined) => (sha ? ((await objects.ofType(sha, "blob"))?.body ?? null) : null);
  const patch = fileDiff(await body(change.fromSha), await body(change.toSha)).patch ?? "";
  if (target.subject_type === "file" || target.line === undefined) {
    if (target.subject_type !== "file") throw unresolved("line");
    const header = patch.split("\n")[0] ?? "";
    return {
      line: null,
      side: null,
      startLine: null,
      startSide: null,
      position: null,
      subjectType: "file" as const,
      diffHunk: header,
    };
  }
  const side = sideOf(target.side, "side");
  const place = diffPlace(patch, Number(target.line), side);
  if (!place) throw unresolved("line");
  const start = target.start_line === undefined ? null : Number(target.start_line);
  if (
    start !== null &&
    (start >= Number(target.line) || !diffPlace(patch, start, sideOf(target.start_side, "start_side")))
  )
    throw unresolved("line");
  return {
    line: Number(target.line),
    side,
    startLine: start,
    startSide: start === null ? null : sideOf(target.start_side, "start_side"),
    position: place.position,
    subjectType: "line" as const,
    diffHunk: place.diffHunk,
  };
}

export class PullReviewCommentService {
  constructor(private readonly pulls: PullRequestService) {}

  private get store(): Store {
    return this.pulls.acting.parts.store;
  }

  /** A comment as the API answers it, read through the store or an action's transaction. */
  async facts(
    repo: RepoRow,
    comment: ReviewCommentRow,
    sources: Pick<Store, "users" | "directory" | "pulls"> = this.store,
  ): Promise<ReviewCommentFacts> {
    const author = (await sources.users.findById(comment.userId))!;
    const role = await sources.directory.repoRole(author.id, repo.id);
    const pull = (await sources.pulls.byIssueIds([comment.issueId])).get(comment.issueId)!;
    return {
      comment,
      author,
      association: role ? ASSOCIATION[role] : "NONE",
      pull: { fullName: repo.fullName, number: pull.number },
    };
  }

  async create(path: PullPath, input: CreateInput, access: ActionAccess): Promise<ReviewCommentFacts> {
    if (input.in_reply_to !== undefined)
      return this.reply({ ...path, comment_id: String(input.in_reply_to) }, input.body, access);
    const { store, feeds } = this.pulls.acting.parts;
    const w = await writableRepository(store, feeds, path, access);
    const { pull } = await this.pulls.find(w.repo, path);
    if (input.path === undefined)
      throw new InvalidInputError("path wasn't supplied", { field: "path", code: "missing_field" });
    const objects = new NetworkObjects(store.git, w.repo.networkId);
    const commitId = input.commit_id ?? pull.headSha;
    const place = await placeComment(objects, pull, commitId, { ...input, path: input.path });
    const scene = await this.pulls.acting.scene(w.repo, w.principal.user);
    const comment = await this.pulls.acting.perform(scene, (making) =>
      this.madeAlone(making, pull, { body: input.body, path: input.path!, commitId, ...place, inReplyToId: null }),
    );
    return this.facts(w.repo, comment);
  }

  /** A reply: in the thread of the comment it answers, on its line. */
  async reply(path: CommentPath & Partial<PullPath>, body: string, access: ActionAccess): Promise<ReviewCommentFacts> {
    const { store, feeds } = this.pulls.acting.parts;
    const w = await writableRepository(store, feeds, path, access);
    const parent = await this.comment(w.repo, path);
    const pull = (await store.pulls.byIssueIds([parent.issueId])).get(parent.issueId)!;
    if (path.pull_number !== undefined && numberOf(path.pull_number) !== pull.number) throw notFound();
    const scene = await this.pulls.acting.scene(w.repo, w.principal.user);
    const { id: _, reviewId: __, userId: ___, body: ____, createdAt: _____, updatedAt: ______, ...where } = parent;
    const comment = await this.pulls.acting.perform(scene, (making) =>
      this.madeAlone(making, pull, { ...where, body, inReplyToId: parent.inReplyToId ?? parent.id }),
    );
    return this.facts(w.repo, comment);
  }

  /** A comment made alone (not by a review): in a review of its own, `COMMENTED`, as GitHub makes one. */
  private async madeAlone(
    making: Making,
    pull: PullRow,
    fields: Omit<ReviewCommentRow, "id" | "repoId" | "issueId" | "userId" | "reviewId" | "createdAt" | "updatedAt">,
  ): Promise<ReviewCommentRow> {
    const { scene } = making;
    const review = await making.tx.pulls.insertReview({
      issueId: pull.issueId,
      userId: scene.actor.id,
      state: "COMMENTED",
      body: "",
      commitId: fields.commitId,
      submittedAt: scene.at,
      createdAt: scene.at,
    });
    return this.made(making, pull, { ...fields, reviewId: review.id });
  }

  /** Writes a comment in the action and makes its event and webhook. */
  async made(
    making: Making,
    pull: PullRow,
    fields: Omit<ReviewCommentRow, "id" | "repoId" | "issueId" | "userId" | "createdAt" | "updatedAt">,
  ): Promise<ReviewCommentRow> {
    const { tx, scene } = making;
    const comment = await tx.reviewComments.insert({
      ...fields,
      repoId: scene.repo.id,
      issueId: pull.issueId,
      userId: scene.actor.id,
      createdAt: scene.at,
      updatedAt: scene.at,
    });
    const about = await pullAbout(tx, scene, (await tx.issues.findById(pull.issueId))!);
    const wire = toWireReviewComment(await this.facts(scene.repo, comment, tx), scene.baseUrl) as unknown as Record<
      string,
      unknown
    >;
    await making.event("PullRequestReviewCommentEvent", {
      action: "created",
      comment: withoutAssociation(wire),
      pull_request: toEventPull(about.facts, scene.baseUrl),
    });
    making.webhook("pull_request_review_comment", "created", { comment: wire, pull_request: about.wire });
    return comment;
  }

  private async comment(repo: RepoRow, path: CommentPath): Promise<ReviewCommentRow> {
    const id = numberOf(path.comment_id);
    const comment = id === null ? null : await this.store.reviewComments.find(repo.id, id);
    if (!comment) throw notFound();
    return comment;
  }

  async get(path: CommentPath, principal: Principal | null): Promise<ReviewCommentFacts> {
    const repo = await this.pulls.readable(path, principal);
    return this.facts(repo, await this.comment(repo, path));
  }

  async list(
    params: FeedParams & Partial<PullPath>,
    query: ListQuery,
    principal: Principal | null,
    window: PageRequest,
  ) {
    const repo = await this.pulls.readable(params, principal);
    const sort = query.sort ?? "created";
    if (sort !== "created" && sort !== "updated")
      throw new InvalidInputError(`sort must be created or updated, got ${JSON.stringify(sort)}`, { field: "sort" });
    const direction = query.direction ?? "asc";
    if (direction !== "asc" && direction !== "desc")
      throw new InvalidInputError(`direction must be asc or desc, got ${JSON.stringify(direction)}`, {
        field: "direction",
      });
    const filter: ReviewCommentFilter = { repoId: repo.id, sort, direction };
    if (params.pull_number !== undefined)
      filter.issueId = (await this.pulls.find(repo, params as PullPath)).pull.issueId;
    if (query.since !== undefined) {
      const since = new Date(query.since);
      if (Number.isNaN(since.getTime()))
        throw new InvalidInputError("since must be an ISO 8601 time", { field: "since", code: "invalid" });
      filter.since = since;
    }
    const page = await this.store.reviewComments.page(filter, window);
    const rows: ReviewCommentFacts[] = [];
    for (const comment of page.rows) rows.push(await this.facts(repo, comment));
    return { rows, total: page.total };
  }

  /** Edits (`body`) or deletes (null) a comment: its author's, or anyone's with push access. */
  async change(path: CommentPath, body: string | null, access: ActionAccess): Promise<ReviewCommentFacts | null> {
    const { store, feeds } = this.pulls.acting.parts;
    const w = await writableRepository(store, feeds, path, access);
    const before = await this.comment(w.repo, path);
    if (before.userId !== w.principal.user.id && !w.pushes) throw mustHavePushAccess();
    const scene = await this.pulls.acting.scene(w.repo, w.principal.user);
    const after = await this.pulls.acting.perform(scene, async (making) => {
      const { tx } = making;
      const pull = (await tx.pulls.byIssueIds([before.issueId])).get(before.issueId)!;
      const about = await pullAbout(tx, scene, (await tx.issues.findById(pull.issueId))!);
      if (body === null) {
        const wire = toWireReviewComment(await this.facts(w.repo, before, tx), scene.baseUrl);
        await tx.reviewComments.delete(before.id);
        making.webhook("pull_request_review_comment", "deleted", { comment: wire, pull_request: about.wire });
        return null;
      }
      if (body === before.body) return before;
      const changed = await tx.reviewComments.update(before.id, body, scene.at);
      const wire = toWireReviewComment(await this.facts(w.repo, changed, tx), scene.baseUrl);
      making.webhook("pull_request_review_comment", "edited", {
        changes: { body: { from: before.body } },
        comment: wire,
        pull_request: about.wire,
      });
      return changed;
    });
    return after && this.facts(w.repo, after);
  }
}
