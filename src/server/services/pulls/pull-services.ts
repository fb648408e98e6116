/** The pull request services (pull requests, merges, reviewers and reviews), made over one PullRequestService. */
import type { ActionParts } from "../actions/acting.js";
import { PullMergeService } from "./pull-merges.js";
import { PullRequestService } from "./pull-requests.js";
import { PullReviewCommentService } from "./pull-review-comments.js";
import { PullReviewService } from "./pull-reviews.js";

export interface PullServices {
  pulls: PullRequestService;
  merges: PullMergeService;
  reviews: PullReviewService;
  comments: PullReviewCommentService;
}

export function pullServices(parts: ActionParts): PullServices {
  const pulls = new PullRequestService(parts);
  const comments = new PullReviewCommentService(pulls);
  return { pulls, merges: new PullMergeService(pulls), reviews: new PullReviewService(pulls, comments), comments };
}
