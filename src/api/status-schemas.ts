/**
 * Commit statuses' wire shapes (https://docs.github.com/rest/commits/statuses): a status, and a commit's combined
 * status, keys in the order GitHub sends them (`../shared/data/openapi/status.schema.json`,
 * `combined-commit-status.schema.json` and the examples of `statuses-checks.paths.json`). No Node-only imports.
 */
import { Type, type Static } from "@sinclair/typebox";
import { ParentRepository, SimpleUser } from "./schemas.js";

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

/** What every status carries, in GitHub's order; the combined status lists them without their creator. */
const statusKeys = {
  url: Type.String(),
  avatar_url: Nullable(Type.String()),
  id: Type.Integer(),
  node_id: Type.String(),
  state: Type.String(),
  description: Nullable(Type.String()),
  target_url: Nullable(Type.String()),
  context: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
};

export const CommitStatus = Type.Object({ ...statusKeys, creator: Type.Union([SimpleUser, Type.Null()]) });
export type CommitStatus = Static<typeof CommitStatus>;

export const SimpleCommitStatus = Type.Object(statusKeys);
export type SimpleCommitStatus = Static<typeof SimpleCommitStatus>;

export const CombinedCommitStatus = Type.Object({
  state: Type.String(),
  statuses: Type.Array(SimpleCommitStatus),
  sha: Type.String(),
  total_count: Type.Integer(),
  repository: ParentRepository,
  commit_url: Type.String(),
  url: Type.String(),
});
export type CombinedCommitStatus = Static<typeof CombinedCommitStatus>;
