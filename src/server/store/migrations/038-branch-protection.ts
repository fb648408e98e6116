import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 38,
  name: "branch protection",
  // A branch's protection (https://docs.github.com/rest/branches/branch-protection): one per branch name of a
  // repository, kept by the name rather than the ref, as GitHub keeps a rule while the branch it names is deleted and
  // made again. Its rules are one document (required status checks, required reviews, restrictions and the switches
  // beside them) that the API writes and reads whole, as GitHub's PUT replaces them all; the store reads it into its
  // typed form (store/protection-store.ts). It goes with its repository.
  sqlite: `
      CREATE TABLE branch_protections (
        repo_id     INTEGER NOT NULL REFERENCES repos(id) ON DELETE CASCADE,
        branch      TEXT NOT NULL,
        rules       TEXT NOT NULL,
        created_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL,
        PRIMARY KEY (repo_id, branch)
      );
    `,
  postgres: `
      CREATE TABLE branch_protections (
        repo_id     bigint NOT NULL REFERENCES repos(id) ON DELETE CASCADE,
        branch      text NOT NULL,
        rules       jsonb NOT NULL,
        created_at  timestamptz NOT NULL,
        updated_at  timestamptz NOT NULL,
        PRIMARY KEY (repo_id, branch)
      );
    `,
};
