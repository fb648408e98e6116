/**
 * The real GitHub clients feedgate is proven with, pinned exactly in package.json (devDependencies) and loaded
 * as their users load them: node-github and @octokit/rest 16 are CommonJS (createRequire), the latest
 * @octokit/rest is ESM (imported in its own test file under the alias `octokit-rest-latest`).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { REPOSITORY } from "../helpers/repository.js";

const require = createRequire(import.meta.url);
const ROOT = pathToFileURL(`${REPOSITORY}/`);

/** What each compatibility test runs: the dependency name in package.json and the version it must be. */
export const PINNED = {
  nodeGithub: { dependency: "github", spec: "0.2.4", version: /^0\.2\.4$/ },
  octokit16: { dependency: "@octokit/rest", spec: "16.43.2", version: /^16\.43\.2$/ },
  octokitLatest: {
    dependency: "octokit-rest-latest",
    spec: /^npm:@octokit\/rest@22\.\d+\.\d+$/,
    version: /^22\.\d+\.\d+$/,
  },
} as const;

/** The version package.json asks for and the version installed in node_modules. */
export function versions(client: keyof typeof PINNED): { declared: string | undefined; installed: string } {
  const project = JSON.parse(readFileSync(new URL("package.json", ROOT), "utf8")) as {
    devDependencies: Record<string, string>;
  };
  const name = PINNED[client].dependency;
  // Read from the folder: the latest @octokit/rest's `exports` does not export its package.json.
  const installed = JSON.parse(readFileSync(new URL(`node_modules/${name}/package.json`, ROOT), "utf8")) as {
    version: string;
  };
  return { declared: project.devDependencies[name], installed: installed.version };
}

/** node-github's constructor (untyped CommonJS). */
// biome-ignore lint/suspicious/noExplicitAny: node-github is untyped CommonJS whose methods are made at run time
export const NodeGithub = require("github") as new (config: Record<string, unknown>) => any;

/** @octokit/rest 16's Octokit, typed by its own declarations. */
export const { Octokit: Octokit16 } = require("@octokit/rest") as typeof import("@octokit/rest");

/** The node-fetch that @octokit/rest 16 uses by default, for a recording wrapper around the client as shipped. */
export const octokit16Fetch = createRequire(
  createRequire(require.resolve("@octokit/rest")).resolve("@octokit/request"),
)("node-fetch") as (
  url: string,
  init: Record<string, unknown>,
) => Promise<{ status: number; headers: { get(name: string): string | null } }>;

export { SHARED_DATA } from "../helpers/recorded.js";

/**
 * Each compatibility suite runs in both layouts feedgate serves (issue 14): at `/`, and under `/api/v3`, where
 * GitHub Enterprise Server's API lives and where Enterprise users point these same clients.
 */
export const LAYOUTS = [
  { name: "", prefix: "" },
  { name: " under /api/v3 (GitHub Enterprise's layout)", prefix: "/api/v3" },
] as const;
