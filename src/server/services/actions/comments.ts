/**
 * GitHub's issue comments as actions. Creating one writes the comment, raises its issue's `comments` and `updated_at`,
 * and makes IssueCommentEvent `created` (the Events API's only action for it) and the `issue_comment.created`
 * webhook; the timeline's `commented` is the comment itself, not a stored issue event. Editing and deleting make
 * `issue_comment.edited` (`changes.body.from`) and `deleted` webhooks and no event
 * (../shared/spec/github-actions-and-events.md). A refused write writes none of it.
 */
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import { toWireComment, type CommentFacts } from "../../convert/comment.js";
import { toWireIssue } from "../../convert/issue.js";
import { ApiError, notFound } from "../../errors.js";
import { InvalidInputError } from "../../failures.js";
import type {
  ActionTransaction,
  CommentFilter,
  CommentRow,
  IssueHas,
  IssueRow,
  Page,
  PageRequest,
  ReactionCountsRow,
  RepoRow,
} from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams, FeedService } from "../feeds.js";
import { Acting, issueNumberOf, withoutAssociation, type ActionParts } from "./acting.js";
import { commentFacts } from "./comment-facts.js";
import { issueFacts, knownToHave } from "./issue-facts.js";
import { mentionsMade } from "./mentions.js";
import type { ActionScene } from "./made.js";
import { mustHavePushAccess, writableRepository, type ActionAccess, issuesEnabled } from "./repository-access.js";
import { foundComment, foundIssue, type CommentPath, type IssuePath } from "./subjects.js";

type BodyInput = RequestOf<Endpoints["comments"]["create"], "body">;
type IssueListQuery = RequestOf<Endpoints["comments"]["listForIssue"], "query">;
type RepoListQuery = RequestOf<Endpoints["comments"]["listForRepo"], "query">;

export interface CommentServiceParts extends ActionParts {
  feeds: FeedService;
}

/** GitHub's 403 for a comment on a locked issue by someone without push access (as probot/stale and Renovate met it). */
const issueLocked = () =>
  new ApiError(403, "Unable to create comment because issue is locked.", {
    documentationUrl: "https://help.github.com/articles/locking-conversations/",
  });

function bodyOf(input: BodyInput): string {
  if (typeof input.body !== "string" || input.body.trim() === "")
    throw new InvalidInputError("body must not be blank", { field: "body", code: "missing_field" });
  return input.body;
}

function sinceOf(since: string | undefined): Date | undefined {
  if (since === undefined) return undefined;
  const at = new Date(since);
  if (Number.isNaN(at.getTime()))
    throw new InvalidInputError(`since must be an ISO 8601 time, got ${JSON.stringify(since)}`, {
      field: "since",
      code: "invalid",
    });
  return at;
}

export class CommentService {
  private readonly log: Acting;

  constructor(private readonly parts: CommentServiceParts) {
    this.log = new Acting(parts);
  }

  private get store() {
    return this.parts.store;
  }

  /**
   * The issue and the comment as webhooks and events show them, read in the action's transaction. `made`: the comment
   * was made by this action, so nobody has reacted to it yet, and its reactions are not read; nor what its issue has
   * not (`issueHas`, as the action's write of the issue found it).
   */
  private async wire(
    tx: ActionTransaction,
    scene: ActionScene,
    issue: IssueRow,
    comment: CommentRow,
    made?: { issueHas: IssueHas },
  ) {
    const sources = this.log.factSources(tx, scene);
    const [issueFactsOf] = await issueFacts(
      made ? knownToHave(sources, issue.id, made.issueHas) : sources,
      scene.repo,
      [issue],
    );
    const none = { countsOf: async () => new Map<number, ReactionCountsRow>() };
    const [facts] = await commentFacts(made ? { ...sources, reactions: none } : sources, scene.repo, [comment]);
    return {
      issue: toWireIssue(issueFactsOf!, scene.baseUrl) as unknown as Record<string, unknown>,
      comment: toWireComment(facts!, scene.baseUrl) as unknown as Record<string, unknown>,
      /** The comment as the transaction left it: what the write answers, without reading it again. */
      facts: facts!,
    };
  }

  async create(path: IssuePath, input: BodyInput, access: ActionAccess): Promise<CommentFacts> {
    const w = await writableRepository(this.store, this.parts.feeds, path, access);
    issuesEnabled(w.repo);
    const number = issueNumberOf(path);
    let body: string;
    try {
      body = bodyOf(input);
    } catch (invalid) {
      await foundIssue(this.store, w.repo, path); // GitHub's 404 for a missing issue comes first
      throw invalid;
    }
    const scene = await this.log.sceneOf(w);
    const comment = await this.log.perform(
      scene,
      async (making) => {
        const { tx } = making;
        // The issue is found by the write that counts the comment, not read before it: one statement fewer.
        const added = await tx.issues.commentAdded(w.repo.id, number, scene.at, w.pushes);
        if (!added) throw (await tx.issues.find(w.repo.id, number)) ? issueLocked() : notFound();
        const { issue: updated, has } = added;
        const created = await tx.comments.insert({
          repoId: w.repo.id,
          issueId: updated.id,
          userId: scene.actor.id,
          body,
          at: scene.at,
        });
        const { facts, ...wire } = await this.wire(tx, scene, updated, created, { issueHas: has });
        await making.event("IssueCommentEvent", {
          action: "created",
          issue: withoutAssociation(wire.issue),
          comment: withoutAssociation(wire.comment),
        });
        making.webhook("issue_comment", "created", wire);
        await mentionsMade(making, { number: updated.number, wire: wire.issue }, body);
        return facts;
      },
      ["events"],
    );
    return comment;
  }

  /** Its author or someone with push access may edit or delete a comment (GitHub's 403 for anyone else). */
  private async editable(path: CommentPath, access: ActionAccess) {
    const w = await writableRepository(this.store, this.parts.feeds, path, access);
    issuesEnabled(w.repo);
    const comment = await foundComment(this.store, w.repo, path);
    if (!w.pushes && comment.userId !== w.principal.user.id) throw mustHavePushAccess();
    return { w, comment };
  }

  async update(path: CommentPath, input: BodyInput, access: ActionAccess): Promise<CommentFacts> {
    const { w, comment } = await this.editable(path, access);
    const body = bodyOf(input);
    const scene = await this.log.scene(w.repo, w.principal.user);
    const updated = await this.log.perform(scene, async (making) => {
      const { tx } = making;
      const current = await foundComment(tx, w.repo, path);
      // Nothing changed: GitHub's answer, nothing made.
      if (current.body === body) return (await commentFacts(tx, w.repo, [current]))[0]!;
      const edited = await tx.comments.update(comment.id, body, scene.at);
      // An edited comment is activity on its issue, which GitHub's `updated_at` (and actions/stale) follow.
      const issue = await tx.issues.update(comment.issueId, { updatedAt: scene.at });
      const { facts, ...wire } = await this.wire(tx, scene, issue, edited);
      making.webhook("issue_comment", "edited", { changes: { body: { from: current.body } }, ...wire });
      return facts;
    });
    return updated;
  }

  async delete(path: CommentPath, access: ActionAccess): Promise<void> {
    const { w, comment } = await this.editable(path, access);
    const scene = await this.log.scene(w.repo, w.principal.user);
    await this.log.perform(scene, async (making) => {
      const { tx } = making;
      const current = await foundComment(tx, w.repo, path);
      const before = (await tx.issues.findById(comment.issueId))!;
      // The comment as it was, with its reactions, read before they go.
      const [facts] = await commentFacts(tx, w.repo, [current]);
      await tx.comments.delete(current.id);
      const issue = await tx.issues.update(before.id, {
        comments: Math.max(0, before.comments - 1),
        updatedAt: scene.at,
      });
      const [issueFactsOf] = await issueFacts(tx, w.repo, [issue]);
      making.webhook("issue_comment", "deleted", {
        issue: toWireIssue(issueFactsOf!, scene.baseUrl),
        comment: toWireComment(facts!, scene.baseUrl),
      });
    });
  }

  /** A repository the caller sees, for the reads: 404 otherwise, as every repository resource. */
  private async readable(params: FeedParams, principal: Principal | null): Promise<RepoRow> {
    return issuesEnabled((await this.parts.feeds.repository(params, principal)).repo);
  }

  async get(path: CommentPath, principal: Principal | null): Promise<CommentFacts> {
    const repo = await this.readable(path, principal);
    return this.view(repo, await foundComment(this.store, repo, path));
  }

  /** One issue's comments, oldest first, as GitHub lists them. */
  async listForIssue(
    path: IssuePath,
    query: IssueListQuery,
    principal: Principal | null,
    window: PageRequest,
  ): Promise<Page<CommentFacts>> {
    const repo = await this.readable(path, principal);
    const issue = await foundIssue(this.store, repo, path);
    const since = sinceOf(query.since);
    return this.page(repo, { repoId: repo.id, issueId: issue.id, sort: "created", direction: "asc", since }, window);
  }

  /**
   * Every comment of the repository: oldest first by default ("ordered by ascending ID"); `direction` counts only
   * beside a `sort`, newest first unless it says otherwise, as GitHub documents it.
   */
  async listForRepo(
    params: FeedParams,
    query: RepoListQuery,
    principal: Principal | null,
    window: PageRequest,
  ): Promise<Page<CommentFacts>> {
    const repo = await this.readable(params, principal);
    const sort = query.sort ?? "created";
    const direction = query.sort === undefined ? "asc" : (query.direction ?? "desc");
    if (sort !== "created" && sort !== "updated")
      throw new InvalidInputError(`sort must be created or updated, got ${JSON.stringify(sort)}`, {
        field: "sort",
        code: "invalid",
      });
    if (direction !== "asc" && direction !== "desc")
      throw new InvalidInputError(`direction must be asc or desc, got ${JSON.stringify(direction)}`, {
        field: "direction",
        code: "invalid",
      });
    return this.page(repo, { repoId: repo.id, sort, direction, since: sinceOf(query.since) }, window);
  }

  private async page(repo: RepoRow, filter: CommentFilter, window: PageRequest): Promise<Page<CommentFacts>> {
    const page = await this.store.comments.page(filter, window);
    return { rows: await commentFacts(this.store, repo, page.rows), total: page.total };
  }

  private async view(repo: RepoRow, comment: CommentRow): Promise<CommentFacts> {
    const [facts] = await commentFacts(this.store, repo, [comment]);
    return facts!;
  }
}
