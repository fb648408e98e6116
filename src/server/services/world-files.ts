/**
 * A world file's repository `files` (`{"path": "text"}`): what the repository's default branch holds, in one first
 * commit by its owner, as a repository already has it (state, not activity: seeding pushes nothing, as a world's
 * issues make no event). Checked with the rest of the document; a repository with a commit already keeps it.
 */
import { pathSegments } from "../git/objects.js";
import type { ActionTransaction } from "../store/store.js";
import { writeFirstCommit } from "./git/initial-commit.js";
import { fail, isObject } from "./input-checks.js";

export interface WorldFiles {
  repo: string;
  files: Record<string, string>;
}

/** A repository entry's `files`, checked: a JSON object of repository paths to their text. */
export function worldFiles(value: unknown, repo: string, where: string): WorldFiles | null {
  if (value === undefined) return null;
  if (!isObject(value)) fail(where, 'must be an object of paths to their text ({"README.md": "# hello"})');
  const files: Record<string, string> = {};
  for (const [path, text] of Object.entries(value)) {
    if (!pathSegments(path)) fail(`${where}.${path}`, "is not a path git can store (no empty, . or .. names)");
    if (typeof text !== "string") fail(`${where}.${path}`, "must be the file's text");
    files[path] = text;
  }
  return Object.keys(files).length > 0 ? { repo, files } : null;
}

/** Stores each repository's files as its first commit, at `at`; returns how many repositories got one. */
export async function storeWorldFiles(tx: ActionTransaction, entries: WorldFiles[], at: Date): Promise<number> {
  let committed = 0;
  for (const { repo: fullName, files } of entries) {
    const [owner = "", name = ""] = fullName.split("/");
    const repo = await tx.directory.findRepo(owner, name);
    const user = repo && (await tx.users.findById(repo.ownerId));
    if (!repo || !user) continue; // the batch before made both: nothing else can be missing
    if (await writeFirstCommit(tx, repo, user, at, files, "Initial commit")) committed++;
  }
  return committed;
}
