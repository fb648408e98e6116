/**
 * Stored commit comments -> GitHub's commit-comment object. What a comment shows beyond its row (its author, what the
 * author is to the repository, its reactions) comes in CommitCommentFacts, read once for a page
 * (services/commits/commit-comments.ts).
 */
import type { CommitComment } from "../../api/commit-comment-schemas.js";
import type { AuthorAssociation } from "../../api/issue-schemas.js";
import type { Static } from "@sinclair/typebox";
import type { CommitCommentRow, UserRow } from "../store/store.js";
import { toWireReactions, type ReactionCounts } from "./issue.js";
import { isoSeconds } from "./time.js";
import { webOrigin } from "./urls.js";
import { toWireSimpleUser } from "./user.js";

export interface CommitCommentFacts {
  comment: CommitCommentRow;
  /** `owner/name` of its repository. */
  repoFullName: string;
  /** null once the account is gone. */
  author: UserRow | null;
  association: Static<typeof AuthorAssociation>;
  reactions: ReactionCounts;
}

/** A commit comment's API URL: by its id under the repository, as GitHub's (`/repos/{o}/{r}/comments/{id}`). */
export const commitCommentUrl = (repoFullName: string, id: number, baseUrl: string) =>
  `${baseUrl}/repos/${repoFullName}/comments/${id}`;

export function toWireCommitComment(facts: CommitCommentFacts, baseUrl: string): CommitComment {
  const { comment, repoFullName } = facts;
  const url = commitCommentUrl(repoFullName, comment.id, baseUrl);
  return {
    html_url: `${webOrigin(baseUrl)}/${repoFullName}/commit/${comment.commitId}#commitcomment-${comment.id}`,
    url,
    id: comment.id,
    node_id: "",
    body: comment.body,
    path: comment.path,
    position: comment.position,
    line: comment.line,
    commit_id: comment.commitId,
    author_association: facts.association,
    user: facts.author && toWireSimpleUser(facts.author, baseUrl),
    created_at: isoSeconds(comment.createdAt),
    updated_at: isoSeconds(comment.updatedAt),
    reactions: toWireReactions(facts.reactions, `${url}/reactions`),
  };
}
