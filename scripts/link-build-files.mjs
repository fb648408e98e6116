// `npm run compile`'s step after tsc: what the compiled tree's modules read beside them at run time, as they read it
// from the sources: the console's static files next to the module that serves them, and the files a module reads
// from the repository's root (package.json for the version, demo/ for the demo world), which are one folder up
// from build/src as from src. Links, so that an edit to one of them needs no new compile.
import { existsSync, lstatSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const LINKS = {
  "build/src/server/console/assets": "src/server/console/assets",
  "build/package.json": "package.json",
  "build/demo": "demo",
};

for (const [link, target] of Object.entries(LINKS)) {
  const path = `${root}${link}`;
  if (existsSync(path) || lstatSync(path, { throwIfNoEntry: false })) rmSync(path, { recursive: true, force: true });
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(relative(dirname(path), `${root}${target}`), path);
}
