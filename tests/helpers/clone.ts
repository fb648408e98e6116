/**
 * A clone of the repository as a reader has it after `npm ci`: the sources copied into a scratch directory (so
 * that building, packing or running there never touches the working tree), the installed packages linked, and
 * `../shared` beside it, as in CI.
 */
import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { REPOSITORY } from "./repository.js";

export { REPOSITORY };
const SHARED = resolve(REPOSITORY, "../shared");
const TRACKED = [
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "tsconfig.build.json",
  "README.md",
  "LICENSE",
  "src",
  "demo",
  "scripts",
  "examples",
];

export interface Clone {
  /** The scratch directory holding the clone and `shared`; remove it when done. */
  dir: string;
  /** The clone itself. */
  clone: string;
}

export function makeClone(prefix: string): Clone {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const clone = join(dir, "feedgate");
  mkdirSync(clone);
  for (const entry of TRACKED) cpSync(join(REPOSITORY, entry), join(clone, entry), { recursive: true });
  symlinkSync(join(REPOSITORY, "node_modules"), join(clone, "node_modules"));
  symlinkSync(SHARED, join(dir, "shared"));
  return { dir, clone };
}
