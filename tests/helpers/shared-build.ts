/**
 * One `npm run build` shared by the docs pages' runs: each page runs in a clone of its own and in a test file of its
 * own, at the same time as the others, and building in every clone would cost each a full TypeScript compile. The
 * first run to need a build of these sources makes it and keeps it in a directory of the temporary folder named by
 * a hash of the sources; the others wait for it and copy it. When the repository's own dist/ was built from these
 * sources (after every file the build reads was last written, as `npm ci` leaves a fresh clone), that build is the
 * one kept, as a build in the clone would make the same. The README's run still builds with `npm start`. The packed
 * tarball's test (tests/client/packed.test.ts) packs the same build.
 */
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPOSITORY } from "./repository.js";

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

/** The last time a file the build reads was written, in ms. */
function lastInputWrite(root: string): number {
  return Math.max(
    ...BUILD_INPUTS.flatMap((entry) => files(root, entry)).map((file) => statSync(join(root, file)).mtimeMs),
  );
}

/**
 * The repository's dist/ when it was built from the sources as they are: each of its files written after every
 * input, a compiled module for each source module (none left by a source since removed), and the console's assets.
 */
function freshRepositoryBuild(): string | null {
  const dist = join(REPOSITORY, "dist");
  if (!existsSync(join(dist, "cli", "main.js"))) return null;
  const built = files(dist, ".");
  const oldest = Math.min(...built.map((file) => statSync(join(dist, file)).mtimeMs));
  const orphan = built.some(
    (file) =>
      file.endsWith(".js") &&
      !file.includes("/assets/") &&
      !existsSync(join(REPOSITORY, "src", file.replace(/\.js$/, ".ts"))),
  );
  const assets = files(REPOSITORY, "src/server/console/assets").map((file) => file.replace(/^src\//, ""));
  const complete = assets.every((file) => built.includes(file));
  return oldest > lastInputWrite(REPOSITORY) && !orphan && complete ? dist : null;
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
      const partial = `${cache}.${process.pid}`;
      const fresh = freshRepositoryBuild();
      if (!fresh) build(clone);
      cpSync(fresh ?? join(clone, "dist"), partial, { recursive: true });
      renameSync(partial, cache); // whole or absent, for the runs waiting on it
      if (fresh) cpSync(fresh, join(clone, "dist"), { recursive: true }); // built in the clone otherwise
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
