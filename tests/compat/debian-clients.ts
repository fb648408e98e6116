/**
 * The GitHub clients from Debian's packages, pinned by version: PyGithub (`python3-github`), octokit.rb
 * (`ruby-octokit`) and the GitHub CLI (`gh`). `.ci/run` installs them when missing; elsewhere a test whose client
 * is absent or another version reports itself skipped with the reason, never passed.
 */
import assert from "node:assert/strict";
import { spawnSync, spawn } from "node:child_process";
import type { ListeningApp } from "../helpers/listening-app.js";
import { ALICE, ALICE_TOKEN, BOB_TOKEN, OLGA, OTP_SECRET } from "../helpers/client-world.js";
import { currentOtp } from "../../src/server/services/credentials.js";
import { skipOutsideCi } from "../helpers/services.js";

export const DEBIAN_CLIENTS = {
  pygithub: {
    package: "python3-github",
    version: "1.55",
    check: ["/usr/bin/python3", "-c", "import importlib.metadata as m; print(m.version('PyGithub'))"],
  },
  octokitRb: {
    package: "ruby-octokit",
    version: "4.20.0",
    check: ["ruby", "-e", "require 'octokit'; puts Octokit::VERSION.to_s"],
  },
  gh: { package: "gh", version: "2.23.0", check: ["gh", "--version"] },
} as const;

/** false when the client is installed at its pinned version, else why its tests are skipped (outside CI only). */
export function skipUnlessClient(name: keyof typeof DEBIAN_CLIENTS): false | string {
  const client = DEBIAN_CLIENTS[name];
  const [command, ...args] = client.check;
  const run = spawnSync(command, args, { encoding: "utf8" });
  if (run.status !== 0)
    return skipOutsideCi(`${client.package} is not installed (apt-get install -y ${client.package})`);
  const version = run.stdout.match(/\d+\.\d+(\.\d+)?/)?.[0];
  if (version !== client.version)
    return skipOutsideCi(`${client.package} is ${version}, the tests are pinned to ${client.version}`);
  return false;
}

export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a client's script to its end without blocking this process, whose server it talks to; `onOutput` sees what it
 * has written so far, each time it writes (a prompt to answer while it runs).
 */
export function runScript(
  command: string,
  args: string[],
  env: Record<string, string>,
  ms = 120_000,
  onOutput?: (output: { stdout: string; stderr: string }) => void,
): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      onOutput?.({ stdout, stderr });
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      onOutput?.({ stdout, stderr });
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The client world's credentials as a case script reads them, the one-time code at the server's clock. */
export function clientWorldEnvironment(t: ListeningApp): Record<string, string> {
  return {
    FEEDGATE_URL: t.url,
    ALICE_LOGIN: ALICE.login,
    ALICE_PASSWORD: ALICE.password,
    ALICE_TOKEN,
    BOB_TOKEN,
    OLGA_LOGIN: OLGA.login,
    OLGA_PASSWORD: OLGA.password,
    OLGA_OTP: currentOtp(OTP_SECRET, t.clock.now()),
  };
}

/**
 * Runs a case script against `t` (each case prints `{"case": name, "result": ...}` on a line of its own) and
 * returns each case's result; a script that failed, or a case that never ran, fails the test that asks for it.
 */
export async function runCases(command: string, script: string, t: ListeningApp) {
  const run = await runScript(command, [script], clientWorldEnvironment(t));
  const results = new Map<string, unknown>();
  for (const line of run.stdout.split("\n").filter(Boolean)) {
    const { case: name, result } = JSON.parse(line) as { case: string; result: unknown };
    results.set(name, result);
  }
  return (name: string) => {
    assert.equal(run.code, 0, run.stderr);
    assert.ok(results.has(name), `case "${name}" did not run:\n${run.stdout}\n${run.stderr}`);
    return results.get(name) as Record<string, unknown>;
  };
}
