/**
 * Git's object model as stored state (`/repos/{o}/{r}/git/...`, contents, pushes): objects by the SHA-1 git gives
 * them, shared by a fork network, and each repository's refs. Objects are written in the transaction of the ref
 * update that makes them reachable (the action log's), or alone (`POST git/blobs`): an object nothing points at
 * harms nothing, as in git.
 */
import type { GitObjectType } from "../git/objects.js";

export interface StoredGitObject {
  sha: string;
  type: GitObjectType;
  /** What git hashes after the `"<type> <length>\0"` header. */
  body: Buffer;
}

/** A ref: its full name (`refs/heads/main`, `refs/tags/v1.0`) and the object it points at. */
export interface GitRef {
  name: string;
  sha: string;
}

export interface GitStore {
  /** The network's object of that SHA-1; null when it has none. */
  object(networkId: number, sha: string): Promise<StoredGitObject | null>;
  /** Stores objects in the network; one already stored stays as it is (the same SHA-1 is the same bytes). */
  put(networkId: number, objects: readonly StoredGitObject[]): Promise<void>;
  /** The repository's ref of that full name; null when it has none. */
  ref(repoId: number, name: string): Promise<GitRef | null>;
  /** The repository's refs whose names start with `prefix` (`refs/` for all), in byte order of their names. */
  refs(repoId: number, prefix: string): Promise<GitRef[]>;
  /**
   * Points the ref at `sha` when it still points at `expected` (null: when it does not exist yet); false when another
   * write moved it first, so that two pushes racing cannot both win.
   */
  setRef(repoId: number, name: string, sha: string, expected: string | null): Promise<boolean>;
  /** Deletes the ref when it still points at `expected`; false when it moved or is gone. */
  deleteRef(repoId: number, name: string, expected: string): Promise<boolean>;
}
