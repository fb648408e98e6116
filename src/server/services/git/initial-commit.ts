/**
 * A repository created with `auto_init` (https://docs.github.com/rest/repos/repos#create-a-repository-for-the-authenticated-user):
 * GitHub's first commit, "Initial commit", holding a README.md of the repository's name and description, on the
 * default branch, written in the creation's own transaction. It is part of the creation, which makes its own
 * CreateEvent and `repository` webhook: the commit makes no push of its own.
 */
import { encodeCommit, encodeTree } from "../../git/objects.js";
import type { ActionTransaction, RepoRow, UserRow } from "../../store/store.js";
import { gitObject, NetworkObjects } from "./network-objects.js";
import { defaultBranchOf, personOf } from "./pushes.js";

/** The README GitHub writes: the name as a heading, the description on the line after it. */
export const initialReadme = (name: string, description: string | null): string =>
  `# ${name}\n${description ? `${description}\n` : ""}`;

export async function writeInitialCommit(tx: ActionTransaction, repo: RepoRow, user: UserRow, at: Date) {
  const objects = new NetworkObjects(tx.git, repo.networkId);
  const name = repo.fullName.slice(repo.fullName.indexOf("/") + 1);
  const readme = objects.add(gitObject("blob", Buffer.from(initialReadme(name, repo.settings.description))));
  const tree = objects.add(gitObject("tree", encodeTree([{ mode: "100644", name: "README.md", sha: readme.sha }])));
  const person = personOf(user, at);
  const commit = objects.add(
    gitObject(
      "commit",
      encodeCommit({ tree: tree.sha, parents: [], author: person, committer: person, message: "Initial commit" }),
    ),
  );
  await objects.write();
  await tx.git.setRef(repo.id, `refs/heads/${defaultBranchOf(repo)}`, commit.sha, null);
}
