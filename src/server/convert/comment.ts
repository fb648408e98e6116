/**
 * Stored comments and reactions -> GitHub's issue-comment and reaction objects. What a comment shows beyond its row
 * (its author, what the author is to the repository, its reactions) comes in CommentFacts, read once for a whole page
 * (services/actions/comment-facts.ts).
 */
import type { Static } from "@sinclair/typebox";
import type { IssueComment, Reaction } from "../../api/comment-schemas.js";
import type { AuthorAssociation } from "../../api/issue-schemas.js";
import type { TimelineComment } from "../../api/timeline-schemas.js";
import type { CommentRow, ReactionRow, UserRow } from "../store/store.js";
import { toWireReactions, type ReactionCounts } from "./issue.js";
import { isoSeconds } from "./time.js";
import { webOrigin } from "./urls.js";
import { toWireSimpleUser } from "./user.js";

export interface CommentFacts {
  comment: CommentRow;
  /** `owner/name` of its repository. */
  repoFullName: string;
  author: UserRow;
  association: Static<typeof AuthorAssociation>;
  reactions: ReactionCounts;
}

/** A comment's API URL: by its id alone under the repository, as GitHub's. */
export const commentUrl = (repoFullName: string, id: number, baseUrl: string) =>
  `${baseUrl}/repos/${repoFullName}/issues/comments/${id}`;

export function toWireComment(facts: CommentFacts, baseUrl: string): IssueComment {
  const { comment, repoFullName } = facts;
  const url = commentUrl(repoFullName, comment.id, baseUrl);
  return {
    id: comment.id,
    node_id: "",
    url,
    html_url: `${webOrigin(baseUrl)}/${repoFullName}/issues/${comment.issueNumber}#issuecomment-${comment.id}`,
    body: comment.body,
    user: toWireSimpleUser(facts.author, baseUrl),
    created_at: isoSeconds(comment.createdAt),
    updated_at: isoSeconds(comment.updatedAt),
    issue_url: `${baseUrl}/repos/${repoFullName}/issues/${comment.issueNumber}`,
    author_association: facts.association,
    reactions: toWireReactions(facts.reactions, `${url}/reactions`),
    performed_via_github_app: null,
  };
}

/** A comment as an issue's timeline shows it: `event: "commented"`, its author again as the `actor`. */
export function toWireTimelineComment(facts: CommentFacts, baseUrl: string): TimelineComment {
  const comment = toWireComment(facts, baseUrl);
  return { ...comment, event: "commented", actor: comment.user };
}

export function toWireReaction(reaction: ReactionRow, user: UserRow, baseUrl: string): Reaction {
  return {
    id: reaction.id,
    node_id: "",
    user: toWireSimpleUser(user, baseUrl),
    content: reaction.content,
    created_at: isoSeconds(reaction.createdAt),
  };
}
