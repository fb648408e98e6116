/**
 * The issue family's wire shapes, keys in the order GitHub sends them (`../shared/data/openapi/issue.schema.json` and
 * its examples): issues, labels, milestones and the reaction roll-up. Ids are GitHub's integers. No Node-only imports.
 */
import { Type, type Static } from "@sinclair/typebox";
import { ParentRepository, SimpleUser } from "./schemas.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableUser = Type.Union([SimpleUser, Type.Null()]);

export const Label = Type.Object({
  id: Type.Integer(),
  node_id: Type.String(),
  url: Type.String(),
  name: Type.String(),
  color: Type.String(),
  default: Type.Boolean(),
  description: NullableString,
});
export type Label = Static<typeof Label>;

export const Milestone = Type.Object({
  url: Type.String(),
  html_url: Type.String(),
  labels_url: Type.String(),
  id: Type.Integer(),
  node_id: Type.String(),
  number: Type.Integer(),
  state: Type.Union([Type.Literal("open"), Type.Literal("closed")]),
  title: Type.String(),
  description: NullableString,
  creator: NullableUser,
  open_issues: Type.Integer(),
  closed_issues: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
  closed_at: NullableString,
  due_on: NullableString,
});
export type Milestone = Static<typeof Milestone>;

/** GitHub's eight reaction contents, as the API names them. */
export const REACTION_CONTENTS = ["+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"] as const;
export type ReactionContent = (typeof REACTION_CONTENTS)[number];

export const ReactionRollup = Type.Object({
  url: Type.String(),
  total_count: Type.Integer(),
  "+1": Type.Integer(),
  "-1": Type.Integer(),
  laugh: Type.Integer(),
  confused: Type.Integer(),
  heart: Type.Integer(),
  hooray: Type.Integer(),
  eyes: Type.Integer(),
  rocket: Type.Integer(),
});
export type ReactionRollup = Static<typeof ReactionRollup>;

/** GitHub's `author_association`: what the author is to the repository. */
export const AuthorAssociation = Type.Union(
  ["OWNER", "MEMBER", "COLLABORATOR", "CONTRIBUTOR", "FIRST_TIME_CONTRIBUTOR", "FIRST_TIMER", "MANNEQUIN", "NONE"].map(
    (value) => Type.Literal(value),
  ),
);

export const Issue = Type.Object({
  url: Type.String(),
  repository_url: Type.String(),
  labels_url: Type.String(),
  comments_url: Type.String(),
  events_url: Type.String(),
  html_url: Type.String(),
  id: Type.Integer(),
  node_id: Type.String(),
  number: Type.Integer(),
  title: Type.String(),
  user: NullableUser,
  labels: Type.Array(Label),
  state: Type.Union([Type.Literal("open"), Type.Literal("closed")]),
  locked: Type.Boolean(),
  assignee: NullableUser,
  assignees: Type.Array(SimpleUser),
  milestone: Type.Union([Milestone, Type.Null()]),
  comments: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
  closed_at: NullableString,
  author_association: AuthorAssociation,
  active_lock_reason: NullableString,
  /** A pull request's issue (GitHub lists pull requests among issues): whether it is a draft, and where it is. */
  draft: Type.Optional(Type.Boolean()),
  pull_request: Type.Optional(
    Type.Object({
      url: Type.String(),
      html_url: Type.String(),
      diff_url: Type.String(),
      patch_url: Type.String(),
      merged_at: NullableString,
    }),
  ),
  body: NullableString,
  closed_by: NullableUser,
  reactions: ReactionRollup,
  timeline_url: Type.String(),
  performed_via_github_app: Type.Null(),
  state_reason: NullableString,
});
export type Issue = Static<typeof Issue>;

/**
 * An issue as the caller's lists across repositories show it (`GET /issues`, `/user/issues`, `/orgs/{org}/issues`):
 * with its `repository`, which GitHub adds there since the items come from many (issue schema's `repository`).
 */
export const IssueWithRepository = Type.Object({ ...Issue.properties, repository: ParentRepository });
export type IssueWithRepository = Static<typeof IssueWithRepository>;

/** `GET /search/issues`: GitHub's issue-search-result-item is the issue with its `score`. */
export const IssueSearchResult = Type.Object({
  total_count: Type.Integer(),
  incomplete_results: Type.Boolean(),
  items: Type.Array(Type.Object({ ...Issue.properties, score: Type.Number() })),
});
export type IssueSearchResult = Static<typeof IssueSearchResult>;
