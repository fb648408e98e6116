/**
 * The console's static files (assets/): read once at start, named by a hash of their content
 * (`console.3f9a1c2b7d.js`), and served with a year-long immutable cache, since a changed file gets a new name.
 * `npm run build` copies assets/ next to the compiled module (scripts/copy-console-assets.mjs); under tsx they are
 * read from the sources.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

export interface Asset {
  body: Buffer;
  contentType: string;
  /** `/console/assets/<name>.<hash>.<ext>` */
  url: string;
}

const TYPES: Record<string, string> = { js: "text/javascript; charset=utf-8", css: "text/css; charset=utf-8" };

function load(file: string): Asset {
  const body = readFileSync(new URL(`./assets/${file}`, import.meta.url));
  const hash = createHash("sha256").update(body).digest("hex").slice(0, 10);
  const dot = file.lastIndexOf(".");
  const ext = file.slice(dot + 1);
  return { body, contentType: TYPES[ext]!, url: `/console/assets/${file.slice(0, dot)}.${hash}.${ext}` };
}

export interface ConsoleAssets {
  script: Asset;
  style: Asset;
  /** By URL, for the route that serves them. */
  byUrl: Map<string, Asset>;
}

let loaded: ConsoleAssets | undefined;

/** Read once per process: every app of the process (each test double's) serves the same files. */
export function loadAssets(): ConsoleAssets {
  if (loaded) return loaded;
  const script = load("console.js");
  const style = load("console.css");
  return (loaded = { script, style, byUrl: new Map([script, style].map((a) => [a.url, a])) });
}
