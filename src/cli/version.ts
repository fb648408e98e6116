/**
 * The package's version, read at run time from package.json two directories up: src/cli/ under tsx and
 * dist/cli/ when built are both two levels below the package root, and an import of the JSON would copy a
 * stale number into dist/ (or pull package.json into the build's rootDir).
 */
import { readFileSync } from "node:fs";

export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return manifest.version;
}
