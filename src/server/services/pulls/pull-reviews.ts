/**
 * Review requests and reviews (https://docs.github.com/rest/pulls/review-requests, /rest/pulls/reviews): asking
 * collaborators for a review (`review_requested`: the issue event, the PullRequestEvent and the webhook), and reviews
 * of the head as it is, pending until submitted with GitHub's verdicts (`APPROVE`, `REQUEST_CHANGES`, `COMMENT`;
 * PullRequestReviewEvent and `pull_request_review.submitted`), or dismissed (`review_dismissed`). GitHub refuses a
 * pull request's author approving or requesting changes on their own, and a request to review it.
 */
import type { Static } from "@sinclair/typebox";
import type { Endpoints } from "../../../api/endpoints.js";
import type { AuthorAssociation } from "../../../api/issue-schemas.js";
import type { RequestOf } from "../../../api/schemas.js";
import { toEventPull, toWireReview } from "../../convert/pull.js";
import { toWireSimpleUser } from "../../convert/user.js";
import { ApiError, notFound, validationFailed } from "../../errors.js";
import { InvalidInputError } from "../../failures.js";
import type { PageRequest, RepoRow, ReviewRow, ReviewState, Store, UserRow } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import { numberOf, withoutAssociation, type Making } from "../actions/acting.js";
import { ASSOCIATION } from "../actions/issue-facts.js";
import { canBeAssigned } from "../actions/issue-changes.js";
import { mustHavePushAccess, writableRepository, type ActionAccess } from "../actions/repository-access.js";
import { pullAbout, pullEvent, pullWebhook } from "./pull-made.js";
import type { PullPath, PullRequestService, PullView } from "./pull-requests.js";
import { placeComment, type CommentTarget, type PullReviewCommentService } from "./pull-review-comments.js";
import { NetworkObjects } from "../git/network-objects.js";

type ReviewersInput = RequestOf<Endpoints["pulls"]["requestReviewers"], "body">;
type CreateReviewInput = RequestOf<Endpoints["pulls"]["createReview"], "body">;
type SubmitInput = RequestOf<Endpoints["pulls"]["submitReview"], "body">;
type DismissInput = RequestOf<Endpoints["pulls"]["dismissReview"], "body">;
export type ReviewPath = PullPath & { review_id: string };

const VERDICTS: Record<string, ReviewState> = {
  APPROVE: "APPROVED",
  REQUEST_CHANGES: "CHANGES_REQUESTED",
  COMMENT: "COMMENTED",
};

/** A review as the API answers it, with what it needs beyond its row. */
export interface ReviewView {
  review: ReviewRow;
  author: UserRow;
  association: Static<typeof AuthorAssociation>;
  pull: { fullName: string; number: number };
}

const unprocessable = (message: string) => new ApiError(422, message);

export class PullReviewService {
  constructor(
    private readonly pulls: PullRequestService,
    private readonly comments: PullReviewCommentService,
  ) {}

  private get store(): Store {
    return this.pulls.acting.parts.store;
  }

  /** Read through the store, or through an action's transaction for what the action makes. */
  private async reviewView(
    repo: RepoRow,
    number: number,
    review: ReviewRow,
    sources: Pick<Store, "users" | "directory"> = this.store,
  ): Promise<ReviewView> {
    const author = (await sources.users.findById(review.userId))!;
    const role = await sources.directory.repoRole(author.id, repo.id);
    return {
      review,
      author,
      association: role ? ASSOCIATION[role] : "NONE",
      pull: { fullName: repo.fullName, number },
    };
  }

  /** The users asked for a review of the pull request. */
  async requested(path: PullPath, principal: Principal | null): Promise<UserRow[]> {
    const repo = await this.pulls.readable(path, principal);
    return (await this.pulls.view(repo, (await this.pulls.find(repo, path)).issue)).facts.reviewers;
  }

  async request(path: PullPath, input: ReviewersInput | undefined, access: ActionAccess): Promise<PullView> {
    return this.changeReviewers(path, input, access, "add");
  }

  async unrequest(path: PullPath, input: ReviewersInput | undefined, access: ActionAccess): Promise<PullView> {
    return this.changeReviewers(path, input, access, "remove");
  }

  private async changeReviewers(
    path: PullPath,
    input: ReviewersInput | undefined,
    access: ActionAccess,
    change: "add" | "remove",
  ): Promise<PullView> {
    const { store, feeds } = this.pulls.acting.parts;
    const w = await writableRepository(store, feeds, path, access);
    const { issue } = await this.pulls.find(w.repo, path);
    if (!w.triages && issue.userId !== w.principal.user.id) throw mustHavePushAccess();
    const logins = (input?.reviewers ?? []).map(String);
    const users: UserRow[] = [];
    for (const login of logins) {
      const user = await store.users.findByLogin(login);
      if (change === "add" && user?.id === issue.userId)
        throw unprocessable("Review cannot be requested from pull request author.");
      if (change === "add" && !(await canBeAssigned(store, user, w.repo)))
        throw validationFailed([
          {
            resource: "PullRequest",
            field: "",
            code: "custom",
            message: `Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the ${w.repo.fullName} repository.`,
          },
        ]);
      if (user) users.push(user);
    }
    const scene = await this.pulls.acting.scene(w.repo, w.principal.user);
    const updated = await this.pulls.acting.perform(scene, async (making) => {
      const { tx } = making;
      const before = (await tx.pulls.reviewersOf([issue.id])).get(issue.id) ?? [];
      const changed = users.filter((u) => before.includes(u.id) === (change === "remove"));
      if (change === "add")
        await tx.pulls.addReviewers(
          issue.id,
          changed.map((u) => u.id),
        );
      else
        await tx.pulls.removeReviewers(
          issue.id,
          changed.map((u) => u.id),
        );
      if (changed.length === 0) return issue;
      const touched = await tx.issues.update(issue.id, { updatedAt: scene.at });
      const about = await pullAbout(tx, scene, touched);
      const action = change === "add" ? "review_requested" : "review_request_removed";
      for (const user of changed) {
        const reviewer = toWireSimpleUser(user, scene.baseUrl);
        await making.issueEvent(about.issue, action, {
          review_requester: toWireSimpleUser(scene.actor, scene.baseUrl),
          requested_reviewer: reviewer,
        });
        if (change === "add") await pullEvent(making, about, action, { requested_reviewer: reviewer });
        pullWebhook(making, about, action, { requested_reviewer: reviewer });
      }
      return touched;
    });
    return this.pulls.view(w.repo, updated);
  }

  async list(path: PullPath, principal: Principal | null, window: PageRequest) {
    const repo = await this.pulls.readable(path, principal);
    const { pull } = await this.pulls.find(repo, path);
    const page = await this.store.pulls.reviews(pull.issueId, window);
    const rows: ReviewView[] = [];
    for (const review of page.rows) rows.push(await this.reviewView(repo, pull.number, review));
    return { rows, total: page.total };
  }

  private async reviewOf(repo: RepoRow, path: ReviewPath) {
    const { issue, pull } = await this.pulls.find(repo, path);
    const id = numberOf(path.review_id);
    const review = id === null ? null : await this.store.pulls.review(issue.id, id);
    if (!review) throw notFound();
    return { issue, pull, review };
  }

  async get(path: ReviewPath, principal: Principal | null): Promise<ReviewView> {
    const repo = await this.pulls.readable(path, principal);
    const { pull, review } = await this.reviewOf(repo, path);
    return this.reviewView(repo, pull.number, review);
  }

  private verdict(event: string | undefined, own: boolean): ReviewState | null {
    if (event === undefined || event === "PENDING") return null;
    const state = VERDICTS[event];
    if (!state)
      throw new InvalidInputError(`event must be APPROVE, REQUEST_CHANGES or COMMENT, got ${JSON.stringify(event)}`, {
        field: "event",
        code: "invalid",
      });
    if (own && state !== "COMMENTED")
      throw unprocessable(
        state === "APPROVED"
          ? "Can not approve your own pull request"
          : "Can not request changes on your own pull request",
      );
    return state;
  }

  async create(path: PullPath, input: CreateReviewInput | undefined, access: ActionAccess): Promise<ReviewView> {
    const { store, feeds } = this.pulls.acting.parts;
    const w = await writableRepository(store, feeds, path, access);
    const { issue, pull } = await this.pulls.find(w.repo, path);
    const state = this.verdict(input?.event, issue.userId === w.principal.user.id);
    const body = input?.body ?? "";
    if ((state === "CHANGES_REQUESTED" || state === "COMMENTED") && body.trim() === "")
      throw unprocessable(`Review Can not ${state === "COMMENTED" ? "comment" : "request changes"} without a body`);
    // Its comments placed in the diff before anything is written: one that cannot be placed refuses the review.
    const commitId = input?.commit_id ?? pull.headSha;
    const objects = new NetworkObjects(store.git, w.repo.networkId);
    const placed: ({ body: string; path: string } & Awaited<ReturnType<typeof placeComment>>)[] = [];
    for (const given of (input?.comments ?? []) as unknown as CommentTarget[]) {
      if (typeof given.path !== "string" || typeof given.body !== "string")
        throw new InvalidInputError("each comment needs a path and a body", { field: "comments", code: "invalid" });
      placed.push({ body: given.body, path: given.path, ...(await placeComment(objects, pull, commitId, given)) });
    }
    const scene = await this.pulls.acting.scene(w.repo, w.principal.user);
    const review = await this.pulls.acting.perform(scene, async (making) => {
      const { tx } = making;
      const pending = (await tx.pulls.reviews(issue.id, { limit: 100, offset: 0 })).rows.find(
        (r) => r.state === "PENDING" && r.userId === scene.actor.id,
      );
      if (pending && state === null) throw unprocessable("User can only have one pending review per pull request");
      const made = await tx.pulls.insertReview({
        issueId: issue.id,
        userId: scene.actor.id,
        state: state ?? "PENDING",
        body,
        commitId,
        submittedAt: state === null ? null : scene.at,
        createdAt: scene.at,
      });
      for (const comment of placed)
        await this.comments.made(making, pull, { ...comment, reviewId: made.id, commitId, inReplyToId: null });
      if (state !== null) await this.submitted(making, issue.id, made);
      return made;
    });
    return this.reviewView(w.repo, pull.number, review);
  }

  async submit(path: ReviewPath, input: SubmitInput, access: ActionAccess): Promise<ReviewView> {
    const { store, feeds } = this.pulls.acting.parts;
    const w = await writableRepository(store, feeds, path, access);
    const { issue, pull, review } = await this.reviewOf(w.repo, path);
    if (review.userId !== w.principal.user.id) throw notFound();
    if (review.state !== "PENDING") throw unprocessable("Can not submit a non-pending review");
    const state = this.verdict(input.event, issue.userId === w.principal.user.id);
    if (state === null)
      throw new InvalidInputError("event must be APPROVE, REQUEST_CHANGES or COMMENT", { field: "event" });
    const scene = await this.pulls.acting.scene(w.repo, w.principal.user);
    const updated = await this.pulls.acting.perform(scene, async (making) => {
      const made = await making.tx.pulls.updateReview(review.id, {
        state,
        submittedAt: scene.at,
        ...(input.body === undefined ? {} : { body: input.body }),
      });
      await this.submitted(making, issue.id, made);
      return made;
    });
    return this.reviewView(w.repo, pull.number, updated);
  }

  async dismiss(path: ReviewPath, input: DismissInput, access: ActionAccess): Promise<ReviewView> {
    const { store, feeds } = this.pulls.acting.parts;
    const w = await writableRepository(store, feeds, path, access);
    if (!w.pushes) throw mustHavePushAccess();
    const { issue, pull, review } = await this.reviewOf(w.repo, path);
    if (review.state === "PENDING") throw unprocessable("Can not dismiss a pending review");
    const scene = await this.pulls.acting.scene(w.repo, w.principal.user);
    const updated = await this.pulls.acting.perform(scene, async (making) => {
      const { tx } = making;
      const made = await tx.pulls.updateReview(review.id, { state: "DISMISSED" });
      const about = await pullAbout(tx, scene, (await tx.issues.findById(issue.id))!);
      await making.issueEvent(about.issue, "review_dismissed", {
        dismissed_review: { state: review.state.toLowerCase(), review_id: review.id, dismissal_message: input.message },
      });
      const wire = await this.wireReview(making, pull.number, made);
      making.webhook("pull_request_review", "dismissed", { review: wire, pull_request: about.wire });
      return made;
    });
    return this.reviewView(w.repo, pull.number, updated);
  }

  /** A review as the action's webhooks and events carry it, read in its transaction. */
  private async wireReview(making: Making, number: number, review: ReviewRow) {
    const { tx, scene } = making;
    const view = await this.reviewView(scene.repo, number, review, tx);
    return toWireReview(view.review, view.author, view.association, view.pull, scene.baseUrl);
  }

  /** What a submitted review makes: PullRequestReviewEvent `created` and `pull_request_review.submitted`. */
  private async submitted(making: Making, issueId: number, review: ReviewRow) {
    const { tx, scene } = making;
    const about = await pullAbout(tx, scene, (await tx.issues.findById(issueId))!);
    const wire = await this.wireReview(making, about.facts.issue.pull.number, review);
    await making.event("PullRequestReviewEvent", {
      action: "created",
      review: withoutAssociation(wire as unknown as Record<string, unknown>),
      pull_request: toEventPull(about.facts, scene.baseUrl),
    });
    making.webhook("pull_request_review", "submitted", { review: wire, pull_request: about.wire });
  }
}
