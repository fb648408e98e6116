/**
 * A commit comment on the wire (https://docs.github.com/rest/commits/comments), keys in the order GitHub sends them
 * (the examples of `../shared/data/openapi/branches-commits.paths.json`, GitHub's `commit-comment`), its reactions
 * after them as the schema adds them. Ids are GitHub's integers. No Node-only imports.
 */
import { Type, type Static } from "@sinclair/typebox";
import { AuthorAssociation, ReactionRollup } from "./issue-schemas.js";
import { SimpleUser } from "./schemas.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);

export const CommitComment = Type.Object({
  html_url: Type.String(),
  url: Type.String(),
  id: Type.Integer(),
  node_id: Type.String(),
  body: Type.String(),
  path: NullableString,
  position: NullableInteger,
  line: NullableInteger,
  commit_id: Type.String(),
  author_association: AuthorAssociation,
  user: Type.Union([SimpleUser, Type.Null()]),
  created_at: Type.String(),
  updated_at: Type.String(),
  reactions: ReactionRollup,
});
export type CommitComment = Static<typeof CommitComment>;
