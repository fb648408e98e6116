/** The real GitHub data beside the repository (`../shared/data`, see its README). */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { SHARED_DATA_DIR } from "./repository.js";

export const SHARED_DATA = pathToFileURL(`${SHARED_DATA_DIR}/`);

/** One entry of a recorded `interactions.json`: a request made to api.github.com and GitHub's answer. */
export interface Interaction {
  source_file: string;
  index: number;
  method: string;
  url: string;
  status: number;
  response_headers: Record<string, string | string[]>;
  body: unknown;
}

/** The interactions one client's test suite recorded (`octokit-rb`, `pygithub`). */
export function loadInteractions(corpus: string): Interaction[] {
  return JSON.parse(
    readFileSync(new URL(`recorded/${corpus}/interactions.json`, SHARED_DATA), "utf8"),
  ) as Interaction[];
}

/** GitHub's response headers, names lower-cased and repeated headers joined as HTTP joins them. */
export function headersOf(interaction: Interaction): Record<string, string> {
  return Object.fromEntries(
    Object.entries(interaction.response_headers).map(([name, value]) => [
      name.toLowerCase(),
      Array.isArray(value) ? value.join(", ") : value,
    ]),
  );
}
