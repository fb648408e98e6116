/**
 * GitHub's published schemas (../shared/data/openapi/, extracted from @octokit/openapi) as validators for what
 * feedgate serves. Every rule of GitHub's schema holds except where feedgate differs by design: each such place
 * is one entry of BY_DESIGN, with its reason, and the schema is changed there and nowhere else.
 * Payloads are stored and returned verbatim (data/README.md) and are exempt: only the envelope is validated.
 */
import { readFileSync } from "node:fs";
import assert from "node:assert/strict";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import formats from "ajv-formats";
import { SHARED_DATA } from "../helpers/recorded.js";

/** The shared data folder, found from the repository (../shared next to it), never by an absolute path. */
const OPENAPI = new URL("openapi/", SHARED_DATA);

export const SCHEMAS = [
  "event",
  "issue-event",
  "authorization",
  // The entry-point resources: validated as published, with no by-design difference.
  "public-user",
  "private-user",
  "simple-user",
  "organization-full",
  "full-repository",
  "rate-limit-overview",
  "root",
  "api-overview",
  // The issue family (issue "activity from actions"), as published.
  "issue",
  "label",
  "milestone",
  "issue-comment",
  "reaction",
  "issue-search-result-item",
  // An issue's timeline: its issue events and `commented` comments, as published (ids as `--numeric-ids` sends them).
  "timeline-issue-events",
  // The activity family (starring, watching, following), as published.
  "stargazer",
  "minimal-repository",
  // Collaborators and their invitations, as published.
  "collaborator",
  "repository-invitation",
  "repository-collaborator-permission",
  // GitHub Apps, as published.
  "integration",
  "installation",
  "installation-token",
  // Git data and contents (issue "code without a git server"), as published.
  "blob",
  "short-blob",
  "git-tree",
  "git-commit",
  "git-ref",
  "git-tag",
  "content-file",
  "content-directory",
  "content-tree",
  "file-commit",
  "branch-short",
  "branch-with-protection",
  "commit",
  "commit-comparison",
  // Pull requests, as published.
  "pull-request",
  "pull-request-simple",
  "pull-request-merge-result",
  "pull-request-review",
  "pull-request-review-comment",
  // What CI reports of a commit (issue "commit statuses and checks"), as published.
  "status",
  "combined-commit-status",
  "check-run",
  "check-suite",
  // Releases and their assets, as published.
  "release",
  "release-asset",
  // Commit comments and branch protection, as published: answers of `branches-commits.paths.json` (PATH_SCHEMAS).
  "commit-comment",
  "branch-protection",
  "protected-branch",
  "status-check-policy",
  "protected-branch-pull-request-review",
] as const;
export type SchemaName = (typeof SCHEMAS)[number];

type Json = Record<string, unknown>;

export interface ByDesign {
  schema: SchemaName;
  /** Property path from the schema's root; [] is the root. */
  at: string[];
  /**
   * `replace`: the property's schema becomes this one. `required`: the object's required list becomes this one
   * (the properties present are still checked as GitHub defines them). `only`: of the object's properties only
   * these are checked, as GitHub defines them, and required; the rest is stored as given and not checked.
   */
  change: { replace: Json } | { required: string[] } | { only: string[] };
  reason: string;
}

const SPEC_ISSUE_EVENT =
  "the spec's issue-event table names id, event, created_at, actor (login) and issue (title, " +
  "number, state) and leaves the rest unshown; feedgate stores issue events as given, like payloads, and GitHub's " +
  "own 2013 issue events (recorded) lack node_id and commit_url on the event, node_id on the actor and on every " +
  "user inside the issue, which today's schema requires";

export const BY_DESIGN: ByDesign[] = [
  {
    schema: "event",
    at: ["payload"],
    change: { replace: { type: "object" } },
    reason:
      "payloads are stored and returned verbatim (DESIGN.md, data/README.md): most real history fails today's " +
      "payload schemas, which added required fields later",
  },
  {
    schema: "authorization",
    at: ["id"],
    change: { replace: { type: "string", pattern: "^[1-9][0-9]*$" } },
    reason: "ids on the wire are strings (DESIGN.md; spec 2: `id | string`); GitHub sent integers",
  },
  {
    schema: "issue-event",
    at: ["id"],
    change: { replace: { type: "string", pattern: "^[0-9]+$" } },
    reason: "ids on the wire are strings (DESIGN.md; spec 2 Issue event: `id | string`); GitHub sent integers",
  },
  {
    schema: "issue-event",
    at: [],
    change: { required: ["id", "event", "created_at", "actor", "issue"] },
    reason: SPEC_ISSUE_EVENT,
  },
  { schema: "issue-event", at: ["actor"], change: { required: ["login"] }, reason: SPEC_ISSUE_EVENT },
  { schema: "issue-event", at: ["issue"], change: { only: ["title", "number", "state"] }, reason: SPEC_ISSUE_EVENT },
];

/**
 * Schemas published only inside a paths file (no `<name>.schema.json` of their own): the answer of one operation,
 * by its paths file, path, method and status.
 */
const PATH_SCHEMAS: Partial<Record<SchemaName, { file: string; path: string; method: string; status: string }>> = {
  "commit-comment": {
    file: "branches-commits.paths.json",
    path: "/repos/{owner}/{repo}/comments/{comment_id}",
    method: "get",
    status: "200",
  },
  "branch-protection": {
    file: "branches-commits.paths.json",
    path: "/repos/{owner}/{repo}/branches/{branch}/protection",
    method: "get",
    status: "200",
  },
  "protected-branch": {
    file: "branches-commits.paths.json",
    path: "/repos/{owner}/{repo}/branches/{branch}/protection",
    method: "put",
    status: "200",
  },
  "status-check-policy": {
    file: "branches-commits.paths.json",
    path: "/repos/{owner}/{repo}/branches/{branch}/protection/required_status_checks",
    method: "get",
    status: "200",
  },
  "protected-branch-pull-request-review": {
    file: "branches-commits.paths.json",
    path: "/repos/{owner}/{repo}/branches/{branch}/protection/required_pull_request_reviews",
    method: "get",
    status: "200",
  },
};

/** GitHub's schema as published. */
export function githubSchema(name: SchemaName): Json {
  const inPaths = PATH_SCHEMAS[name];
  if (!inPaths) return JSON.parse(readFileSync(new URL(`${name}.schema.json`, OPENAPI), "utf8")) as Json;
  const paths = JSON.parse(readFileSync(new URL(inPaths.file, OPENAPI), "utf8")).paths as Record<string, Json>;
  const operation = paths[inPaths.path]![inPaths.method] as { responses: Record<string, Json> };
  const content = operation.responses[inPaths.status]!.content as Record<string, { schema: Json }>;
  return content["application/json"]!.schema;
}

/** The property schema at `at` (and the object holding it), failing when the schema has no such place. */
function locate(schema: Json, name: SchemaName, at: readonly string[]): { parent: Json | null; node: Json } {
  let [parent, node]: [Json | null, Json] = [null, schema];
  for (const key of at) {
    const next = (node.properties as Json | undefined)?.[key] as Json | undefined;
    assert.ok(next, `${name}: no property ${at.join(".")} to change`);
    [parent, node] = [node, next];
  }
  return { parent, node };
}

/** GitHub's schema with BY_DESIGN applied. */
export function feedgateSchema(name: SchemaName): Json {
  const schema = githubSchema(name);
  for (const { at, change } of BY_DESIGN.filter((e) => e.schema === name)) {
    const { parent, node } = locate(schema, name, at);
    if ("replace" in change) (parent!.properties as Json)[at.at(-1)!] = change.replace;
    else if ("required" in change) node.required = change.required;
    else {
      const properties = node.properties as Json;
      node.properties = Object.fromEntries(change.only.map((key) => [key, properties[key]]));
      node.required = change.only;
    }
  }
  return toJsonSchema(schema) as Json;
}

/**
 * OpenAPI 3.0 schema objects -> JSON Schema: `nullable: true` becomes a `null` alternative (ajv accepts the
 * keyword only beside a `type`, and GitHub's schemas also put it beside `allOf`/`anyOf`).
 */
function toJsonSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toJsonSchema);
  if (typeof value !== "object" || value === null) return value;
  const { nullable, ...rest } = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonSchema(v)])) as Json;
  if (nullable !== true) return rest;
  if (Array.isArray(rest.enum) && !rest.enum.includes(null)) rest.enum = [...rest.enum, null];
  if (typeof rest.type === "string") return { ...rest, type: [rest.type, "null"] };
  return { anyOf: [rest, { type: "null" }] };
}

/**
 * Validators of one kind of schema, each compiled when first asked for: compiling all of them at once (megabytes of
 * GitHub's schemas) blocks the test's event loop for seconds on a loaded machine, long enough for a webhook delivery
 * in flight to an in-process receiver to time out.
 */
function validatorsOf(schema: (name: SchemaName) => Json): (name: SchemaName) => ValidateFunction {
  // OpenAPI 3.0 schema objects: vendor keys (x-github, examples) are not rules.
  const ajv = new Ajv({ strict: false, allErrors: true });
  formats.default(ajv);
  ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isSafeInteger(n) });
  const compiled = new Map<SchemaName, ValidateFunction>();
  return (name) => {
    let validate = compiled.get(name);
    if (!validate) compiled.set(name, (validate = ajv.compile(schema(name))));
    return validate;
  };
}

const validators = {
  feedgate: validatorsOf(feedgateSchema),
  github: validatorsOf((n) => toJsonSchema(githubSchema(n)) as Json),
};

/**
 * Compiles these schemas now: for a test to call before it makes deliveries, so that no compile blocks its event
 * loop while one is in flight to its own receiver.
 */
export function compileSchemas(...names: SchemaName[]): void {
  for (const name of names) validators.feedgate(name);
}

/** Where and why `value` fails GitHub's schema as published (BY_DESIGN not applied); [] when it passes. */
export function githubSchemaErrors(name: SchemaName, value: unknown): ErrorObject[] {
  const validate = validators.github(name);
  return validate(value) ? [] : [...(validate.errors ?? [])];
}

/** The reasons `value` fails the schema as BY_DESIGN changes it, as `path: message` lines; [] when it passes. */
export function schemaErrors(name: SchemaName, value: unknown): string[] {
  const validate = validators.feedgate(name);
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (e) => `${e.instancePath || "/"}: ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`,
  );
}

/** Asserts every item (or the one object) validates against GitHub's schema as BY_DESIGN changes it. */
export function assertSchema(name: SchemaName, value: unknown, what: string = name): void {
  const items = Array.isArray(value) ? value : [value];
  assert.ok(items.length > 0 || Array.isArray(value), `${what}: nothing to validate`);
  items.forEach((item, i) => {
    const errors = schemaErrors(name, item);
    assert.deepEqual(errors, [], `${what}${Array.isArray(value) ? `[${i}]` : ""} fails GitHub's ${name} schema`);
  });
}
