/**
 * Git objects and refs, written once over the executor. Names and SHA-1s are compared byte-wise on both drivers
 * (PostgreSQL's ref names are COLLATE "C", SQLite's TEXT compares bytes), so refs list in git's own order.
 */
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

export class GitObjects implements GitStore {
  constructor(private readonly db: Executor) {}

  async object(networkId: number, sha: string): Promise<StoredGitObject | null> {
    const row = await this.db.get<ObjectRecord>(
      "SELECT sha, type, body FROM git_objects WHERE network_id = @network AND sha = @sha",
      { network: networkId, sha },
    );
    return row ? toObject(row) : null;
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
