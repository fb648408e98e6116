/**
 * The GitHub clients from Debian's packages, pinned by version: PyGithub (`python3-github`), octokit.rb
 * (`ruby-octokit`) and the GitHub CLI (`gh`). `.ci/run` installs them when missing; elsewhere a test whose client
 * is absent or another version reports itself skipped with the reason, never passed.
 */
import { spawnSync, spawn } from "node:child_process";

export const DEBIAN_CLIENTS = {
  pygithub: { package: "python3-github", version: "1.55", check: ["/usr/bin/python3", "-c", "import importlib.metadata as m; print(m.version('PyGithub'))"] },
  octokitRb: { package: "ruby-octokit", version: "4.20.0", check: ["ruby", "-e", "require 'octokit'; puts Octokit::VERSION.to_s"] },
  gh: { package: "gh", version: "2.23.0", check: ["gh", "--version"] },
} as const;

/** false when the client is installed at its pinned version, else why its tests are skipped. */
export function skipUnlessClient(name: keyof typeof DEBIAN_CLIENTS): false | string {
  const client = DEBIAN_CLIENTS[name];
  const [command, ...args] = client.check;
  const run = spawnSync(command, args, { encoding: "utf8" });
  if (run.status !== 0) return `${client.package} is not installed (apt-get install -y ${client.package})`;
  const version = run.stdout.match(/\d+\.\d+(\.\d+)?/)?.[0];
  if (version !== client.version) return `${client.package} is ${version}, the tests are pinned to ${client.version}`;
  return false;
}

export interface ScriptRun { code: number | null; stdout: string; stderr: string }

/** Runs a client's script to its end without blocking this process, whose server it talks to. */
export function runScript(command: string, args: string[], env: Record<string, string>, ms = 120_000): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on("data", (chunk: Buffer) => { stderr += chunk.toString(); });
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The `{"case": name, "result": ...}` lines a case script prints, by case. */
export function caseResults(stdout: string): Map<string, unknown> {
  const results = new Map<string, unknown>();
  for (const line of stdout.split("\n").filter(Boolean)) {
    const { case: name, result } = JSON.parse(line) as { case: string; result: unknown };
    results.set(name, result);
  }
  return results;
}
