// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 32,
  name: "git objects and refs",
  // Code without a git server: git's own object model. Each object (blob, tree, commit, annotated tag) is stored once
  // per fork network under the SHA-1 git gives it, its body exactly the bytes git hashes after the header, so that a
  // fork reads its parent's objects and an export could write them to a real repository unchanged. Objects are never
  // updated; an object written twice is the same object. A ref is a repository's named pointer to one of them
  // (`refs/heads/main`), gone with its repository.
  sqlite: `
      CREATE TABLE git_objects (
        network_id INTEGER NOT NULL,
        sha        TEXT NOT NULL,
        type       TEXT NOT NULL,
        body       BLOB NOT NULL,
        PRIMARY KEY (network_id, sha)
      ) WITHOUT ROWID;
      CREATE TABLE git_refs (
        repo_id INTEGER NOT NULL REFERENCES repos(id) ON DELETE CASCADE,
        name    TEXT NOT NULL,
        sha     TEXT NOT NULL,
        PRIMARY KEY (repo_id, name)
      ) WITHOUT ROWID;
    `,
  postgres: `
      CREATE TABLE git_objects (
        network_id bigint NOT NULL,
        sha        text NOT NULL,
        type       text NOT NULL,
        body       bytea NOT NULL,
        PRIMARY KEY (network_id, sha)
      );
      CREATE TABLE git_refs (
        repo_id bigint NOT NULL REFERENCES repos(id) ON DELETE CASCADE,
        name    text NOT NULL COLLATE "C",
        sha     text NOT NULL,
        PRIMARY KEY (repo_id, name)
      );
    `,
};
