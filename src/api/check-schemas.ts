/**
 * GitHub Apps' checks' wire shapes (https://docs.github.com/rest/checks): a check run, its annotations, a check suite
 * and the lists of a commit's, keys in the order GitHub sends them (`../shared/data/openapi/check-run.schema.json`,
 * `check-suite.schema.json` and the examples of `statuses-checks.paths.json`). No Node-only imports.
 */
import { Type, type Static } from "@sinclair/typebox";
import { ParentRepository, SimpleUser } from "./schemas.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);

/** The app a check belongs to, as checks carry it: GitHub's app object without its client id and installations. */
export const CheckApp = Type.Object({
  id: Type.Integer(),
  slug: Type.String(),
  node_id: Type.String(),
  owner: SimpleUser,
  name: Type.String(),
  description: NullableString,
  external_url: Type.String(),
  html_url: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
  permissions: Type.Record(Type.String(), Type.String()),
  events: Type.Array(Type.String()),
});
export type CheckApp = Static<typeof CheckApp>;

export const CheckRun = Type.Object({
  id: Type.Integer(),
  head_sha: Type.String(),
  node_id: Type.String(),
  external_id: NullableString,
  url: Type.String(),
  html_url: NullableString,
  details_url: NullableString,
  status: Type.String(),
  conclusion: NullableString,
  started_at: NullableString,
  completed_at: NullableString,
  output: Type.Object({
    title: NullableString,
    summary: NullableString,
    text: NullableString,
    annotations_count: Type.Integer(),
    annotations_url: Type.String(),
  }),
  name: Type.String(),
  check_suite: Type.Object({ id: Type.Integer() }),
  app: CheckApp,
  pull_requests: Type.Array(Type.Object({})),
});
export type CheckRun = Static<typeof CheckRun>;

export const CheckAnnotation = Type.Object({
  path: Type.String(),
  start_line: Type.Integer(),
  end_line: Type.Integer(),
  start_column: NullableInteger,
  end_column: NullableInteger,
  annotation_level: NullableString,
  title: NullableString,
  message: NullableString,
  raw_details: NullableString,
  blob_href: Type.String(),
});
export type CheckAnnotation = Static<typeof CheckAnnotation>;

const Person = Type.Object({ name: Type.String(), email: Type.String() });

export const CheckSuite = Type.Object({
  id: Type.Integer(),
  node_id: Type.String(),
  head_branch: NullableString,
  head_sha: Type.String(),
  status: Type.String(),
  conclusion: NullableString,
  url: Type.String(),
  before: NullableString,
  after: NullableString,
  pull_requests: Type.Array(Type.Object({})),
  created_at: Type.String(),
  updated_at: Type.String(),
  app: CheckApp,
  repository: ParentRepository,
  head_commit: Type.Object({
    id: Type.String(),
    tree_id: Type.String(),
    message: Type.String(),
    timestamp: Type.String(),
    author: Person,
    committer: Person,
  }),
  latest_check_runs_count: Type.Integer(),
  check_runs_url: Type.String(),
  rerequestable: Type.Boolean(),
  runs_rerequestable: Type.Boolean(),
});
export type CheckSuite = Static<typeof CheckSuite>;

export const CheckRunList = Type.Object({ total_count: Type.Integer(), check_runs: Type.Array(CheckRun) });
export type CheckRunList = Static<typeof CheckRunList>;

export const CheckSuiteList = Type.Object({ total_count: Type.Integer(), check_suites: Type.Array(CheckSuite) });
export type CheckSuiteList = Static<typeof CheckSuiteList>;

/** A repository's check suite preferences (GitHub's `check-suite-preference`): each app's, and the repository. */
export const CheckSuitePreference = Type.Object({
  preferences: Type.Object({
    auto_trigger_checks: Type.Array(Type.Object({ app_id: Type.Integer(), setting: Type.Boolean() })),
  }),
  repository: ParentRepository,
});
export type CheckSuitePreference = Static<typeof CheckSuitePreference>;

/** What a rerequest answers: GitHub's empty object, 201. */
export const EmptyObject = Type.Object({}, { additionalProperties: false });
