/**
 * Git objects and refs, written once over the executor. Names and SHA-1s are compared byte-wise on both drivers
 * (PostgreSQL's ref names are COLLATE "C", SQLite's TEXT compares bytes), so refs list in git's own order.
 */
import type { LRUCache } from "lru-cache";
import { entryBoundedCache } from "../bounded-cache.js";
import type { Executor } from "./executor.js";
import type { GitObjectType } from "../git/objects.js";
import type { GitRef, GitStore, StoredGitObject } from "./git-store.js";

interface ObjectRecord {
  sha: string;
  type: string;
  body: Buffer | Uint8Array;
}

const toObject = (r: ObjectRecord): StoredGitObject => ({
  sha: r.sha,
  type: r.type as GitObjectType,
  body: Buffer.isBuffer(r.body) ? r.body : Buffer.from(r.body),
});

/** ON CONFLICT DO NOTHING is both dialects' "keep the one stored". */
const PUT_OBJECT = `INSERT INTO git_objects (network_id, sha, type, body) VALUES (@network, @sha, @type, @body)
  ON CONFLICT (network_id, sha) DO NOTHING`;

/** Commits and small trees kept in memory (the walks of history read the same ones again and again). */
const KEPT_OBJECTS = 100_000;
const KEPT_TREE_BYTES = 4096;

export class GitObjects implements GitStore {
  /**
   * Objects found, by network and SHA-1: an object never changes (its SHA-1 is its content) and is never deleted, so
   * a found one stays true; only an image put back (StateStore.replace: the test double's reset) takes objects away,
   * and it calls forget(). A transaction's GitObjects keeps none: what it reads may yet be rolled back.
   */
  private readonly kept: LRUCache<string, StoredGitObject> | undefined;

  /** @param keep whether found commits and small trees are kept in memory (not in a transaction's store). */
  constructor(
    private readonly db: Executor,
    keep = true,
  ) {
    this.kept = keep ? entryBoundedCache<string, StoredGitObject>(KEPT_OBJECTS) : undefined;
  }

  async object(networkId: number, sha: string): Promise<StoredGitObject | null> {
    const key = `${networkId}:${sha}`;
    const known = this.kept?.get(key);
    if (known) return known;
    const row = await this.db.get<ObjectRecord>(
      "SELECT sha, type, body FROM git_objects WHERE network_id = @network AND sha = @sha",
      { network: networkId, sha },
    );
    if (!row) return null;
    const object = toObject(row);
    if (object.type === "commit" || (object.type === "tree" && object.body.length <= KEPT_TREE_BYTES)) {
      this.kept?.set(key, object);
    }
    return object;
  }

  /** Drops what is kept: the database was put back to an image, which may lack objects found since. */
  forget(): void {
    // Only when something is kept: clear() fills the cache's arrays, KEPT_OBJECTS long, at every call (most of a test
    // double's reset, which forgets twice, when the test read no git object).
    if (this.kept !== undefined && this.kept.size > 0) this.kept.clear();
  }

  async put(networkId: number, objects: readonly StoredGitObject[]): Promise<void> {
    if (objects.length === 0) return;
    const write = async (db: Executor) => {
      for (const o of objects) await db.run(PUT_OBJECT, { network: networkId, sha: o.sha, type: o.type, body: o.body });
    };
    await (objects.length === 1 ? write(this.db) : this.db.transaction(write, { write: true }));
  }

  async ref(repoId: number, name: string): Promise<GitRef | null> {
    const row = await this.db.get<GitRef>("SELECT name, sha FROM git_refs WHERE repo_id = @repo AND name = @name", {
      repo: repoId,
      name,
    });
    return row ?? null;
  }

  refs(repoId: number, prefix: string): Promise<GitRef[]> {
    // A range on the key rather than LIKE: a ref name may hold `%` or `_`, and the range uses the primary key.
    return this.db.all<GitRef>(
      `SELECT name, sha FROM git_refs WHERE repo_id = @repo AND name >= @prefix AND name < @after ORDER BY name`,
      { repo: repoId, prefix, after: `${prefix}\u{10FFFF}` },
    );
  }

  async setRef(repoId: number, name: string, sha: string, expected: string | null): Promise<boolean> {
    if (expected === null) {
      const inserted = await this.db.run(
        `INSERT INTO git_refs (repo_id, name, sha) VALUES (@repo, @name, @sha) ON CONFLICT (repo_id, name) DO NOTHING`,
        { repo: repoId, name, sha },
      );
      return inserted.changes === 1;
    }
    const updated = await this.db.run(
      "UPDATE git_refs SET sha = @sha WHERE repo_id = @repo AND name = @name AND sha = @expected",
      { repo: repoId, name, sha, expected },
    );
    return updated.changes === 1;
  }

  async deleteRef(repoId: number, name: string, expected: string): Promise<boolean> {
    const deleted = await this.db.run(
      "DELETE FROM git_refs WHERE repo_id = @repo AND name = @name AND sha = @expected",
      { repo: repoId, name, expected },
    );
    return deleted.changes === 1;
  }
}
