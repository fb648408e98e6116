/**
 * What a repository archive holds, as `git archive` writes it (GitHub's tarballs and zipballs are its output): every
 * path of a commit's tree under one top folder, directories before what they hold, each with the commit's time.
 */
import type { GitMode } from "./objects.js";

export interface ArchiveEntry {
  /** The path in the commit's tree (`src/a.ts`), without the top folder. */
  path: string;
  /** Its mode in the tree: a directory, a submodule (an empty directory, as git archive writes it), a file, a link. */
  mode: GitMode;
  /** A file's bytes or a link's target, read when the archive reaches it; absent for directories and submodules. */
  read?: () => Promise<Buffer>;
}

export interface ArchiveOf {
  /** The commit archived: the tar's pax `comment` and the zip's comment, as git archive writes them. */
  commit: string;
  /** When it was committed: the time of every entry (git archive's `args->time`). */
  time: Date;
  /** The top folder, with its `/`: GitHub's `{owner}-{repo}-{first 7 of the commit}/`. */
  prefix: string;
  entries: readonly ArchiveEntry[];
}

/** Directories, and submodules, which git archive writes as empty directories. */
export const isDirectory = (mode: GitMode): boolean => mode === "040000" || mode === "160000";
