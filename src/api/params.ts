/**
 * How the endpoint table describes an operation's parameters, and the paging parameters every list shares. Its own
 * file so that the request schemas (./schemas.ts) are built from parameter rows without importing the table, which
 * imports the response kinds (./responses.ts), which import the schemas: no import circle. No Node-only imports.
 */

export type ParamLocation = "path" | "query" | "body";

/**
 * What a body value may be beyond strings, numbers as text and string arrays: a JSON boolean (`active`), GitHub's
 * string-or-number (`insecure_ssl`: `"0"` or `0`), or an object of such keys (a hook's `config`), a key of which may
 * itself be an object of strings (`record`: a fine-grained token's permissions of one group, by name) or a list of
 * objects whose keys the service checks (`objects`: a check run's `output.annotations`). A key of an object may also
 * be a JSON boolean (`boolean`: also a check suite preference's `setting`), an integer (`integer`), a list of strings (`strings`) or an object whose keys the
 * service checks (`object`): a branch protection's `required_status_checks.strict`, `contexts`, `dismissal_restrictions`.
 */
export type FieldType =
  | "string"
  | "string|number"
  | "record"
  | "objects"
  | "boolean"
  | "integer"
  | "strings"
  | "object";

export interface ParamSpec {
  readonly in: ParamLocation;
  readonly type: "string" | "number" | "array" | "boolean" | "object" | "string|number";
  readonly required?: boolean;
  /** For query numbers that travel as text: the digits-only rule of spec section 8. */
  readonly pattern?: string;
  readonly max?: number;
  /** For arrays: the fewest and the most items a request may send (GitHub's documented bounds), else 422. */
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly default?: number;
  /** `null` is accepted and clears the stored value. */
  readonly nullable?: boolean;
  /** What the value means, for the API description, where its name and type do not say it. */
  readonly description?: string;
  /** For objects: their keys and each key's type; every key optional, other keys ignored (as GitHub does). */
  readonly properties?: Readonly<Record<string, FieldType>>;
  /**
   * For arrays of objects (a git tree's entries): each item's keys, as `properties` says them; each key may also be
   * null (`sha: null` deletes a tree's path). Without it an array's items are strings.
   */
  readonly items?: Readonly<Record<string, FieldType>>;
}

/** Anything with parameter rows: a table row, or a row's parameters alone. */
export interface WithParams {
  readonly params: Readonly<Record<string, ParamSpec>>;
}

export const DIGITS = "^[0-9]+$";
export const PER_PAGE_DEFAULT = 30;
export const PER_PAGE_MAX = 100;

/** `page` and `per_page`, as every paged list's row declares them. */
export const paging = {
  page: { in: "query", type: "number", pattern: DIGITS },
  per_page: { in: "query", type: "number", pattern: DIGITS, max: PER_PAGE_MAX, default: PER_PAGE_DEFAULT },
} as const satisfies Record<string, ParamSpec>;
