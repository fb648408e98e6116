/**
 * The code rows (issue "code without a git server"): the read eleven of sixteen bots make first, their configuration
 * file through the contents API, as JSON (base64) and raw (Probot's config plugin asks for it raw), each against its
 * own ceiling (bare node:http sending the bytes feedgate sent). The file is the top repository's, given by a world
 * file's `files` (its first commit), which seeding a reused database again leaves as it is.
 *
 * `npm run bench -- --only contents-config,contents-raw` runs these rows alone.
 */
import { writeFileSync } from "node:fs";
import type { Scenario } from "./load.js";

export const CODE_ROWS = ["contents-config", "contents-raw"];

/** A Probot app's configuration, of the size such files have. */
const CONFIG = `${["daysUntilStale: 60", "daysUntilClose: 7", "exemptLabels:", "  - pinned", "  - security"].join("\n")}\n`;
const PATH = ".github/stale.yml";

/** The world file giving the top repository its configuration file. */
export function writeCodeWorld(file: string, topRepo: string): void {
  writeFileSync(file, `${JSON.stringify({ repos: [{ full_name: topRepo, files: { [PATH]: CONFIG } }] })}\n`);
}

export function codeScenarios(topRepo: string, token: string): Scenario[] {
  const headers = (accept: string) => ({ Authorization: `token ${token}`, Accept: accept });
  const path = `/repos/${topRepo}/contents/${PATH}`;
  return [
    {
      key: "contents-config",
      label: "GET /repos/:o/:r/contents/:path (a bot's configuration, JSON)",
      target: "feedgate",
      method: "GET",
      path,
      headers: headers("application/vnd.github+json"),
      expect: 200,
    },
    {
      key: "contents-raw",
      label: "GET /repos/:o/:r/contents/:path?ref=main (raw)",
      target: "feedgate",
      method: "GET",
      // Its own URL: the rows' ceilings replay feedgate's answers by method and path.
      path: `${path}?ref=main`,
      headers: headers("application/vnd.github.v3.raw"),
      expect: 200,
    },
  ];
}
