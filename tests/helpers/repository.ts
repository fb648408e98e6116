/**
 * Where the repository's files are, from a test. A test runs as TypeScript through tsx (`node --import tsx --test
 * tests/…`, `npm run test:file`) or as the JavaScript `npm test` compiles into build/ (build/tests/…), one folder
 * deeper: a path relative to a test's own file would differ between the two, so paths to the repository's files
 * start here.
 */
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** The folder `npm run compile` writes the compiled tree to (tsconfig.json's outDir), from the repository's root. */
export const BUILD = "build";
/** This is the compiled tree (build/tests/helpers/repository.js), not the sources run through tsx. */
export const COMPILED = import.meta.url.endsWith(".js");
/** The repository's root directory. */
export const REPOSITORY = resolve(import.meta.dirname, COMPILED ? "../../.." : "../..");
/** The real GitHub data CI places beside the clone (`../shared/data`, see its README). */
export const SHARED_DATA_DIR = resolve(REPOSITORY, "../shared/data");

/** A path from the repository's root (`tests/compat/scripts/…`, `demo/…`), as a file system path. */
export const inRepository = (path: string): string => join(REPOSITORY, path);

/**
 * The module of the tree this test runs on, named by its source path: `src/cli/main.ts` itself from the sources,
 * build/src/cli/main.js compiled.
 */
export function moduleOfThisTree(source: string): URL {
  return pathToFileURL(inRepository(COMPILED ? join(BUILD, source.replace(/\.ts$/, ".js")) : source));
}

/** Node's options for a process that runs this tree's modules: tsx's hooks from the sources, none compiled. */
export const NODE_LOADER: readonly string[] = COMPILED ? [] : ["--import", "tsx"];
