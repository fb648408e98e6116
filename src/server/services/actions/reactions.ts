/**
 * Reactions on issues, issue comments and commit comments. GitHub makes no event and no webhook for them
 * (../shared/spec/github-actions-and-events.md), but they go through the action log all the same: the roll-ups that
 * issues and comments show change, and the log's transaction raises the number every cache and ETag keys on.
 * A user gives each content once per subject: giving it again answers the stored reaction (GitHub's 200).
 */
import type { Endpoints } from "../../../api/endpoints.js";
import { REACTION_CONTENTS, type ReactionContent } from "../../../api/issue-schemas.js";
import type { RequestOf } from "../../../api/schemas.js";
import { notFound } from "../../errors.js";
import { InvalidInputError } from "../../failures.js";
import type { Page, PageRequest, ReactionRow, ReactionSubject, RepoRow, UserRow } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams, FeedService } from "../feeds.js";
import { Acting, type ActionParts } from "./acting.js";
import { writableRepository, type ActionAccess } from "./repository-access.js";
import { foundComment, foundIssue, numberIn, type CommentPath, type IssuePath } from "./subjects.js";

type CreateInput = RequestOf<Endpoints["comments"]["createReactionForIssue"], "body">;
type ListQuery = RequestOf<Endpoints["comments"]["listReactionsForIssue"], "query">;

/**
 * Which subject a path names: an issue's (`issue_number`), an issue comment's (`comment_id`), or a commit comment's
 * (`comment_id` under `/repos/{o}/{r}/comments/`, which its routes mark `commitComment`).
 */
export type SubjectPath = IssuePath | CommentPath | CommitCommentPath;
export type CommitCommentPath = CommentPath & { commitComment: true };

export interface ReactionServiceParts extends ActionParts {
  feeds: FeedService;
}

export interface ReactionView {
  reaction: ReactionRow;
  user: UserRow;
}

function contentOf(value: string, field: string): ReactionContent {
  if (!(REACTION_CONTENTS as readonly string[]).includes(value))
    throw new InvalidInputError(
      `${field} must be one of ${REACTION_CONTENTS.join(", ")}, got ${JSON.stringify(value)}`,
      {
        field,
        code: "invalid",
      },
    );
  return value as ReactionContent;
}

export class ReactionService {
  private readonly log: Acting;

  constructor(private readonly parts: ReactionServiceParts) {
    this.log = new Acting(parts);
  }

  private async subject(repo: RepoRow, path: SubjectPath): Promise<ReactionSubject> {
    const { store } = this.parts;
    if ("commitComment" in path) {
      const comment = await store.commitComments.find(repo.id, numberIn(path.comment_id));
      if (!comment) throw notFound();
      return { type: "commit_comment", id: comment.id };
    }
    if ("comment_id" in path) return { type: "comment", id: (await foundComment(store, repo, path)).id };
    return { type: "issue", id: (await foundIssue(store, repo, path)).id };
  }

  async create(
    path: SubjectPath,
    input: CreateInput,
    access: ActionAccess,
  ): Promise<ReactionView & { created: boolean }> {
    const w = await writableRepository(this.parts.store, this.parts.feeds, path, access);
    const subject = await this.subject(w.repo, path);
    const content = contentOf(input.content, "content");
    const scene = await this.log.scene(w.repo, w.principal.user);
    const { row, created } = await this.log.perform(scene, (making) =>
      making.tx.reactions.insert({ subject, userId: scene.actor.id, content, createdAt: scene.at }),
    );
    return { reaction: row, user: w.principal.user, created };
  }

  /** Only the one who reacted takes a reaction back; anyone else's is not theirs to find (404). */
  async delete(path: SubjectPath & { reaction_id: string }, access: ActionAccess): Promise<void> {
    const w = await writableRepository(this.parts.store, this.parts.feeds, path, access);
    const subject = await this.subject(w.repo, path);
    const reaction = await this.parts.store.reactions.find(subject, numberIn(path.reaction_id));
    if (!reaction || reaction.userId !== w.principal.user.id) throw notFound();
    const scene = await this.log.scene(w.repo, w.principal.user);
    await this.log.perform(scene, (making) => making.tx.reactions.delete(reaction.id));
  }

  /** The subject's reactions, oldest first; of one content when `content` names one. */
  async list(
    path: SubjectPath,
    query: ListQuery,
    principal: Principal | null,
    window: PageRequest,
  ): Promise<Page<ReactionView>> {
    const { repo } = await this.parts.feeds.repository(path as FeedParams, principal);
    const subject = await this.subject(repo, path);
    const content = query.content === undefined ? undefined : contentOf(query.content, "content");
    const page = await this.parts.store.reactions.page(subject, content, window);
    const users = new Map<number, UserRow>();
    for (const id of new Set(page.rows.map((r) => r.userId))) {
      const user = await this.parts.store.users.findById(id);
      if (user) users.set(id, user);
    }
    return {
      rows: page.rows.flatMap((reaction) => {
        const user = users.get(reaction.userId);
        return user ? [{ reaction, user }] : [];
      }),
      total: page.total,
    };
  }
}
