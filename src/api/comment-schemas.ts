/**
 * Issue comments and reactions on the wire, keys in the order GitHub sends them (the examples of
 * `../shared/data/openapi/issues.paths.json`; `issue-comment.schema.json`, `reaction.schema.json`). Ids are GitHub's
 * integers. No Node-only imports.
 */
import { Type, type Static } from "@sinclair/typebox";
import { AuthorAssociation, REACTION_CONTENTS, ReactionRollup } from "./issue-schemas.js";
import { SimpleUser } from "./schemas.js";

export const IssueComment = Type.Object({
  id: Type.Integer(),
  node_id: Type.String(),
  url: Type.String(),
  html_url: Type.String(),
  body: Type.String(),
  user: Type.Union([SimpleUser, Type.Null()]),
  created_at: Type.String(),
  updated_at: Type.String(),
  issue_url: Type.String(),
  author_association: AuthorAssociation,
  reactions: ReactionRollup,
  performed_via_github_app: Type.Null(),
});
export type IssueComment = Static<typeof IssueComment>;

export const Reaction = Type.Object({
  id: Type.Integer(),
  node_id: Type.String(),
  user: Type.Union([SimpleUser, Type.Null()]),
  content: Type.Union(REACTION_CONTENTS.map((content) => Type.Literal(content))),
  created_at: Type.String(),
});
export type Reaction = Static<typeof Reaction>;
