/**
 * What a comment object shows beyond its row, read for a whole page at once: its author, what the author is to the
 * repository, and its reactions (one grouped query). Through the store, or an action's transaction, as issueFacts.
 */
import type { CommentFacts } from "../../convert/comment.js";
import type {
  CommentRow,
  DirectoryStore,
  ReactionStore,
  RepoRole,
  RepoRow,
  UserRow,
  UserStore,
} from "../../store/store.js";
import { ASSOCIATION } from "./issue-facts.js";

export interface CommentFactSources {
  users: Pick<UserStore, "findById">;
  directory: Pick<DirectoryStore, "repoRole">;
  reactions: Pick<ReactionStore, "countsOf">;
}

export async function commentFacts(
  sources: CommentFactSources,
  repo: RepoRow,
  rows: CommentRow[],
): Promise<CommentFacts[]> {
  const reactions = await sources.reactions.countsOf(
    "comment",
    rows.map((r) => r.id),
  );
  const users = new Map<number, UserRow>();
  const roles = new Map<number, RepoRole | null>();
  // One after another: inside an action's SQLite transaction every read is a statement on the one connection.
  for (const id of new Set(rows.map((r) => r.userId))) {
    const user = await sources.users.findById(id);
    if (user) users.set(id, user);
    roles.set(id, await sources.directory.repoRole(id, repo.id));
  }
  return rows.map((comment) => {
    const role = roles.get(comment.userId) ?? null;
    return {
      comment,
      repoFullName: repo.fullName,
      author: users.get(comment.userId)!,
      association: role ? ASSOCIATION[role] : "NONE",
      reactions: reactions.get(comment.id) ?? {},
    };
  });
}
