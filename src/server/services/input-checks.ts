/**
 * The checks every kind of ingest input shares (world files, events, the CLI): one home for each, so an event and
 * a world entry cannot disagree about what a repository name or a scope list may be.
 */
import { normalize, unknownScopes } from "../../api/scopes.js";
import { InvalidInputError, UnparsableEntryError } from "../failures.js";
import { notFound } from "../errors.js";

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** `owner/name`. Control characters, NUL above all, name nothing on GitHub, and PostgreSQL refuses NUL in text. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
export const REPO_NAME = /^[^/\s\x00-\x1f\x7f]+\/[^/\s\x00-\x1f\x7f]+$/;

/** Refuses the entry `where` (e.g. `events[3].repo.name`), saying why. */
export function fail(where: string, problem: string): never {
  throw new InvalidInputError(problem, { field: where });
}

/** One line of NDJSON (or a whole JSON body), parsed; text that is not JSON refuses the entry `where`. */
export function parseJsonEntry(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UnparsableEntryError("is not valid JSON", { field: where });
  }
}

/**
 * The one check of requested scope names: unknown names are refused with GitHub's message and code, known ones
 * come back normalized (`["user", "user:email"]` is `["user"]`).
 */
export function validScopes(scopes: readonly string[], field = "scopes"): string[] {
  const unknown = unknownScopes(scopes);
  if (unknown.length > 0)
    throw new InvalidInputError(`scopes are invalid: ${unknown.join(",")}`, { field, code: "custom" });
  return normalize(scopes);
}

/** Row ids in paths (authorizations, hooks, deliveries) are positive integers; anything else names nothing: 404. */
export function parseId(id: string): number {
  if (!/^[1-9][0-9]{0,14}$/.test(id)) throw notFound();
  return Number(id);
}
