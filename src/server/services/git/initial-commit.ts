/**
 * A repository's first commit made as part of something else, pushing nothing of its own: `auto_init` at creation
 * (https://docs.github.com/rest/repos/repos#create-a-repository-for-the-authenticated-user: GitHub's "Initial commit"
 * of a README.md holding the name and description, whose creation makes its own CreateEvent and `repository`
 * webhook), and a world file's `files`, which are state a repository already has, as a world's issues are.
 */
import { editTree } from "../../git/tree-edit.js";
import { encodeCommit } from "../../git/objects.js";
import type { ActionTransaction, RepoRow, UserRow } from "../../store/store.js";
import { gitObject, NetworkObjects } from "./network-objects.js";
import { defaultBranchOf, personOf } from "./pushes.js";

/** The README GitHub writes: the name as a heading, the description on the line after it. */
export const initialReadme = (name: string, description: string | null): string =>
  `# ${name}\n${description ? `${description}\n` : ""}`;

/**
 * Commits `files` (paths checked by the caller) as the repository's first commit on its default branch, by `user` at
 * `at`; a repository that has a ref already is left as it is, so that seeding a world twice changes nothing. Says
 * whether it wrote one.
 */
export async function writeFirstCommit(
  tx: ActionTransaction,
  repo: RepoRow,
  user: UserRow,
  at: Date,
  files: Readonly<Record<string, string>>,
  message: string,
): Promise<boolean> {
  if ((await tx.git.refs(repo.id, "refs/")).length > 0) return false;
  const objects = new NetworkObjects(tx.git, repo.networkId);
  const changes = Object.entries(files).map(([path, text]) => ({
    path,
    mode: "100644" as const,
    type: "blob" as const,
    sha: objects.add(gitObject("blob", Buffer.from(text))).sha,
  }));
  const edit = await editTree(objects.trees, null, changes);
  for (const tree of edit.written) objects.add(tree);
  const person = personOf(user, at);
  const body = encodeCommit({ tree: edit.root, parents: [], author: person, committer: person, message });
  const commit = objects.add(gitObject("commit", body));
  await objects.write();
  return tx.git.setRef(repo.id, `refs/heads/${defaultBranchOf(repo)}`, commit.sha, null);
}

/** GitHub's `auto_init` commit. */
export function writeInitialCommit(tx: ActionTransaction, repo: RepoRow, user: UserRow, at: Date): Promise<boolean> {
  const name = repo.fullName.slice(repo.fullName.indexOf("/") + 1);
  const readme = initialReadme(name, repo.settings.description);
  return writeFirstCommit(tx, repo, user, at, { "README.md": readme }, "Initial commit");
}
