/**
 * One `npm run build` shared by the docs pages' runs: each page runs in a clone of its own and in a test file of its
 * own, at the same time as the others, and building in every clone would cost each a full TypeScript compile. The
 * first run to need a build of these sources makes it and keeps it in a directory of the temporary folder named by
 * a hash of the sources; the others wait for it and copy it. The README's run still builds with `npm start`. The
 * packed tarball's test (tests/client/packed.test.ts) packs the same build.
 */
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** What the build reads: a change to any of these is another build. */
const BUILD_INPUTS = ["src", "scripts", "package.json", "package-lock.json", "tsconfig.json", "tsconfig.build.json"];
const PREFIX = "feedgate-docs-build-";
/** How long a run waits for another one's build before building for itself. */
const WAIT_MS = 240_000;
/** Builds kept longer than this are left by runs of older sources, and removed. */
const STALE_MS = 24 * 3600_000;

function files(root: string, entry: string): string[] {
  const path = join(root, entry);
  if (!statSync(path).isDirectory()) return [entry];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(root, join(entry, name)));
}

/** A hash of every file the build reads, names included. */
function sourcesKey(root: string): string {
  const hash = createHash("sha256");
  for (const file of BUILD_INPUTS.flatMap((entry) => files(root, entry))) {
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update("\0");
  }
  return hash.digest("hex").slice(0, 20);
}

function build(clone: string): void {
  const run = spawnSync("npm", ["run", "build"], { cwd: clone, encoding: "utf8", timeout: 300_000 });
  if (run.status !== 0)
    throw new Error(`npm run build failed in ${clone}:\n${run.stdout}${run.stderr}${run.error ?? ""}`);
}

function removeStale(): void {
  for (const name of readdirSync(tmpdir()).filter((entry) => entry.startsWith(PREFIX))) {
    const path = join(tmpdir(), name);
    if (Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
  }
}

/** Puts `dist/`, built from the clone's sources, into the clone: from the shared build, made first if need be. */
export async function sharedBuild(clone: string): Promise<void> {
  const cache = join(tmpdir(), `${PREFIX}${sourcesKey(clone)}`);
  const lock = `${cache}.lock`;
  const deadline = Date.now() + WAIT_MS;
  while (!existsSync(cache)) {
    try {
      mkdirSync(lock); // atomic: one run builds, the others wait for the directory to appear
    } catch {
      if (Date.now() > deadline) {
        build(clone); // the builder is gone or stuck: build here, without sharing
        return;
      }
      await new Promise((resolveWait) => setTimeout(resolveWait, 500));
      continue;
    }
    try {
      removeStale();
      build(clone);
      const partial = `${cache}.${process.pid}`;
      cpSync(join(clone, "dist"), partial, { recursive: true });
      renameSync(partial, cache); // whole or absent, for the runs waiting on it
      return;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  cpSync(cache, join(clone, "dist"), { recursive: true });
  if (!existsSync(join(clone, "dist", "cli", "main.js"))) {
    throw new Error(`the shared build ${cache} has no cli/main.js: remove it`);
  }
}
