/**
 * GitHub's commit comments (https://docs.github.com/rest/commits/comments): notes on a commit of a repository, on
 * the whole commit or on a file of it. Anyone who sees the repository may comment, as on an issue; its author, or
 * anyone with push access, edits or deletes one. Making one is one action of the log: the comment, the
 * CommitCommentEvent (its payload `comment`, without `author_association`, CL25) and the `commit_comment` webhook,
 * whose only action is `created` (../shared/data/webhooks); editing and deleting make neither, as on GitHub.
 */
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import { toWireCommitComment, type CommitCommentFacts } from "../../convert/commit-comment.js";
import { ApiError, notFound } from "../../errors.js";
import { InvalidInputError } from "../../failures.js";
import { isSha } from "../../git/objects.js";
import type {
  CommitCommentRow,
  DirectoryStore,
  Page,
  PageRequest,
  ReactionStore,
  RepoRow,
  UserRow,
  UserStore,
} from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams } from "../feeds.js";
import { Acting, numberOf, withoutAssociation, type ActionParts } from "../actions/acting.js";
import { ASSOCIATION } from "../actions/issue-facts.js";
import { mustHavePushAccess, writableRepository, type ActionAccess } from "../actions/repository-access.js";
import { RepositoryCode } from "../git/repository-code.js";

type CreateInput = RequestOf<Endpoints["commitComments"]["create"], "body">;

/** A path naming a commit (`/commits/:ref/comments`) and one naming a comment (`/comments/:comment_id`). */
export type CommitPath = FeedParams & { ref: string };
export type CommitCommentPath = FeedParams & { comment_id: string };

/** Where a comment's facts are read: the store, or an action's transaction. */
interface FactSources {
  users: Pick<UserStore, "findById">;
  directory: Pick<DirectoryStore, "repoRole">;
  reactions: Pick<ReactionStore, "countsOf">;
}

/** The comments' facts for a page at once: authors, what they are to the repository, reactions (one grouped query). */
export async function commitCommentFacts(
  sources: FactSources,
  repo: RepoRow,
  rows: CommitCommentRow[],
): Promise<CommitCommentFacts[]> {
  const reactions = await sources.reactions.countsOf(
    "commit_comment",
    rows.map((r) => r.id),
  );
  const authors = new Map<number, { user: UserRow | null; association: CommitCommentFacts["association"] }>();
  // One after another: inside an action's SQLite transaction every read is a statement on the one connection.
  for (const id of new Set(rows.map((r) => r.userId))) {
    const role = await sources.directory.repoRole(id, repo.id);
    authors.set(id, { user: await sources.users.findById(id), association: role ? ASSOCIATION[role] : "NONE" });
  }
  return rows.map((comment) => ({
    comment,
    repoFullName: repo.fullName,
    author: authors.get(comment.userId)?.user ?? null,
    association: authors.get(comment.userId)?.association ?? "NONE",
    reactions: reactions.get(comment.id) ?? {},
  }));
}

function bodyOf(body: unknown): string {
  if (typeof body !== "string" || body.trim() === "")
    throw new InvalidInputError("body must not be blank", { field: "body", code: "missing_field" });
  return body;
}

/** A diff position or a line as given: a whole number from 1, or none. */
function placeOf(value: string | number | undefined, field: "position" | "line"): number | null {
  if (value === undefined) return null;
  const n = numberOf(value);
  if (n === null)
    throw new InvalidInputError(`${field} must be a whole number from 1, got ${JSON.stringify(value)}`, {
      field,
      code: "invalid",
    });
  return n;
}

export class CommitCommentService {
  private readonly acting: Acting;
  private readonly code: RepositoryCode;

  constructor(private readonly parts: ActionParts) {
    this.acting = new Acting(parts);
    this.code = new RepositoryCode(parts.store, parts.feeds, parts.clock);
  }

  private get store() {
    return this.parts.store;
  }

  /** The commit a path names: a SHA-1 (404 for one that is no commit) or a branch or tag (422 for one naming none). */
  private async commitOf(repo: RepoRow, ref: string): Promise<string> {
    const commit = await this.code.commitOf(repo, this.code.objects(repo), ref);
    if (commit) return commit.sha;
    throw isSha(ref) ? notFound() : new ApiError(422, `No commit found for SHA: ${ref}`);
  }

  private async comment(repo: RepoRow, path: CommitCommentPath): Promise<CommitCommentRow> {
    const id = numberOf(path.comment_id);
    const comment = id === null ? null : await this.store.commitComments.find(repo.id, id);
    if (!comment) throw notFound();
    return comment;
  }

  private async view(repo: RepoRow, comment: CommitCommentRow): Promise<CommitCommentFacts> {
    const [facts] = await commitCommentFacts(this.store, repo, [comment]);
    return facts!;
  }

  private async page(repo: RepoRow, commitId: string | undefined, window: PageRequest) {
    const page = await this.store.commitComments.page({ repoId: repo.id, commitId }, window);
    return { rows: await commitCommentFacts(this.store, repo, page.rows), total: page.total };
  }

  async create(path: CommitPath, input: CreateInput, access: ActionAccess): Promise<CommitCommentFacts> {
    const w = await writableRepository(this.store, this.parts.feeds, path, access);
    const commitId = await this.commitOf(w.repo, path.ref);
    const body = bodyOf(input.body);
    const fields = {
      path: input.path ?? null,
      position: placeOf(input.position, "position"),
      line: placeOf(input.line, "line"),
    };
    const scene = await this.acting.scene(w.repo, w.principal.user);
    const comment = await this.acting.perform(scene, async (making) => {
      const { tx } = making;
      const made = await tx.commitComments.insert({
        repoId: w.repo.id,
        commitId,
        userId: scene.actor.id,
        body,
        ...fields,
        createdAt: scene.at,
        updatedAt: scene.at,
      });
      const [facts] = await commitCommentFacts(tx, w.repo, [made]);
      const wire = toWireCommitComment(facts!, scene.baseUrl) as unknown as Record<string, unknown>;
      // GH Archive's CommitCommentEvent carries the comment alone; the webhook adds its only action, `created`.
      await making.event("CommitCommentEvent", { comment: withoutAssociation(wire) });
      making.webhook("commit_comment", "created", { comment: wire });
      return made;
    });
    return this.view(w.repo, comment);
  }

  async get(path: CommitCommentPath, principal: Principal | null): Promise<CommitCommentFacts> {
    const repo = await this.code.readable(path, principal);
    return this.view(repo, await this.comment(repo, path));
  }

  /** One commit's comments, oldest first. */
  async listForCommit(path: CommitPath, principal: Principal | null, window: PageRequest) {
    const repo = await this.code.readable(path, principal);
    return this.page(repo, await this.commitOf(repo, path.ref), window);
  }

  /** Every commit comment of the repository, oldest first ("ordered by ascending ID"). */
  async listForRepo(
    params: FeedParams,
    principal: Principal | null,
    window: PageRequest,
  ): Promise<Page<CommitCommentFacts>> {
    return this.page(await this.code.readable(params, principal), undefined, window);
  }

  /** Its author or someone with push access may edit or delete a comment (GitHub's 403 for anyone else). */
  private async editable(path: CommitCommentPath, access: ActionAccess) {
    const w = await writableRepository(this.store, this.parts.feeds, path, access);
    const comment = await this.comment(w.repo, path);
    if (!w.pushes && comment.userId !== w.principal.user.id) throw mustHavePushAccess();
    return { w, comment };
  }

  async update(path: CommitCommentPath, body: string, access: ActionAccess): Promise<CommitCommentFacts> {
    const { w, comment } = await this.editable(path, access);
    const text = bodyOf(body);
    if (text === comment.body) return this.view(w.repo, comment);
    const scene = await this.acting.scene(w.repo, w.principal.user);
    const edited = await this.acting.perform(scene, (making) =>
      making.tx.commitComments.update(comment.id, text, scene.at),
    );
    return this.view(w.repo, edited);
  }

  async delete(path: CommitCommentPath, access: ActionAccess): Promise<void> {
    const { w, comment } = await this.editable(path, access);
    const scene = await this.acting.scene(w.repo, w.principal.user);
    await this.acting.perform(scene, (making) => making.tx.commitComments.delete(comment.id));
  }
}
