/**
 * Where feedgate runs from its TypeScript sources (its tests, `npm run bench`'s tools, a developer's `tsx`), a thread
 * or process started on one of its modules can run that module's built twin in dist/ instead, when the build is as
 * new as the sources (as `npm ci` and `npm run build` leave it). Node 20 runs tsx's loader hooks on a thread of their
 * own, one message each way per module loaded: a SQLite write worker costs ~0.75 s of CPU to start through tsx against
 * ~0.2 s built, and a `feedgate` process ~1.4 s against ~0.75 s. An installed feedgate runs from dist/ and never asks.
 */
import { readdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** This file is src/server/built-tree.ts, or dist/server/built-tree.js once built: either way, these two. */
const SOURCES = new URL("../../src/", import.meta.url);
const BUILT = new URL("../../dist/", import.meta.url);

let sourcesWritten: number | undefined;

/** The last time a file of src/ was written, in ms: read once a process, at the first question. */
function lastSourceWrite(): number {
  const dir = fileURLToPath(SOURCES);
  sourcesWritten ??= readdirSync(dir, { recursive: true, encoding: "utf8" }).reduce(
    (last, file) => Math.max(last, statSync(`${dir}/${file}`).mtimeMs),
    0,
  );
  return sourcesWritten;
}

/**
 * The built twin of the source module `source` (src/cli/main.ts -> dist/cli/main.js) when it was built after the last
 * change to any source; null when `source` is not one of src/'s TypeScript files, or the build is missing or older.
 */
export function builtTwin(source: URL): URL | null {
  if (!source.pathname.endsWith(".ts") || !source.href.startsWith(SOURCES.href)) return null;
  const twin = new URL(source.href.slice(SOURCES.href.length).replace(/\.ts$/, ".js"), BUILT);
  const built = statSync(twin, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return built > lastSourceWrite() ? twin : null;
}

/** Settled once tsx's hooks are registered on this thread, by importModule. */
let tsxRegistered: Promise<void> | undefined;

/**
 * Imports the module at `url` (a module named by another thread) as this thread runs: on a thread running the built
 * tree while the sources named it (a worker started from its twin), the module's own twin, or, for a TypeScript module
 * that has none (a test's), the module itself through tsx, registered here at the first need.
 */
export async function importModule(url: string): Promise<unknown> {
  if (!url.endsWith(".ts") || !import.meta.url.endsWith(".js")) return import(url);
  const twin = builtTwin(new URL(url));
  if (twin) return import(twin.href);
  tsxRegistered ??= import(import.meta.resolve("tsx/esm/api")).then(
    (tsx: { register(): unknown }) => void tsx.register(),
  );
  await tsxRegistered;
  return import(url);
}
