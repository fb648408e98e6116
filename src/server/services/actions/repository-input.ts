/**
 * What a repository write takes, as GitHub checks it: a name of letters, digits, `.`, `-` and `_` (other characters
 * become `-`, as GitHub makes "my repo" into "my-repo"), at most 100 of them, not `.` or `..`; `visibility` public or
 * private (saying what `private` says); and GitHub's nine labels of a new repository. GitHub words a refused creation
 * "Repository creation failed." with the field's entry.
 */
import { ApiError } from "../../errors.js";
import { InvalidInputError } from "../../failures.js";
import type { ValidationError } from "../../../api/schemas.js";

const NAME_MAX = 100;
const NOT_IN_NAMES = /[^A-Za-z0-9._-]+/g;

/** GitHub's labels of a new repository, with their colours and descriptions. */
export const DEFAULT_LABELS = [
  ["bug", "d73a4a", "Something isn't working"],
  ["documentation", "0075ca", "Improvements or additions to documentation"],
  ["duplicate", "cfd3d7", "This issue or pull request already exists"],
  ["enhancement", "a2eeef", "New feature or request"],
  ["good first issue", "7057ff", "Good for newcomers"],
  ["help wanted", "008672", "Extra attention is needed"],
  ["invalid", "e4e669", "This doesn't seem right"],
  ["question", "d876e3", "Further information is requested"],
  ["wontfix", "ffffff", "This will not be worked on"],
] as const;

/** The branch a new repository names as its default, as GitHub's do since 2020. */
export const NEW_DEFAULT_BRANCH = "main";

/** A refused repository write: `message` is GitHub's for the operation, the entry names the field. */
export function refused(message: string, entry: Omit<ValidationError, "resource">, docs?: string): ApiError {
  return new ApiError(422, message, {
    errors: [{ resource: "Repository", ...entry }],
    ...(docs ? { documentationUrl: docs } : {}),
  });
}

export const CREATION_FAILED = "Repository creation failed.";

/** The name as GitHub stores it; a name that stays empty, or is `.` or `..`, or is too long, is refused. */
export function repositoryName(given: string, message: string): string {
  const name = given.trim().replace(NOT_IN_NAMES, "-");
  if (name === "" || name === "." || name === "..")
    throw refused(message, { code: given.trim() === "" ? "missing_field" : "invalid", field: "name" });
  if (name.length > NAME_MAX)
    throw refused(message, {
      code: "custom",
      field: "name",
      message: `name is too long (maximum is ${NAME_MAX} characters)`,
    });
  return name;
}

/** GitHub's entry for a name the account already has (`POST /user/repos`, a rename, a fork's `name`). */
export const nameTaken = (message: string) =>
  refused(message, { code: "custom", field: "name", message: "name already exists on this account" });

/** Whether the repository is to be private, from `private` and `visibility` (which wins); undefined: neither given. */
export function privacyOf(input: { private?: boolean; visibility?: string }, message: string): boolean | undefined {
  if (input.visibility === undefined) return input.private;
  if (input.visibility === "public" || input.visibility === "private") return input.visibility === "private";
  throw refused(message, {
    code: "invalid",
    field: "visibility",
    message: `visibility must be public or private, got ${JSON.stringify(input.visibility)}`,
  });
}

/** One of a query's allowed values, or its default when absent; anything else is GitHub's 422 naming the field. */
export function oneOf<T extends string>(
  field: string,
  value: string | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new InvalidInputError(`${field} must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`, {
    field,
    code: "invalid",
  });
}
