/**
 * Starts a worker thread on a module of this tree: from the built JavaScript once built; run from the TypeScript
 * sources (tests, `npm run bench`'s tools), from its built twin when the build is fresh (built-tree.ts), else from the
 * source itself. Node 20 does not carry `--import tsx` into a worker's entry module (its loader hooks are registered
 * after the entry is resolved), so a `.ts` entry is reached through a bootstrap that registers tsx first.
 */
import { Worker, type WorkerOptions } from "node:worker_threads";
import { builtTwin } from "./built-tree.js";

/** Node's options for a built entry: the thread's own less `--import tsx`, whose loader thread it would start for nothing. */
function withoutTsx(execArgv: string[]): string[] {
  return execArgv.filter(
    (arg, i) =>
      arg !== "--import=tsx" &&
      !(arg === "--import" && execArgv[i + 1] === "tsx") &&
      !(arg === "tsx" && execArgv[i - 1] === "--import"),
  );
}

/**
 * `name` (without extension) beside the module `from` (its `import.meta.url`), started with `options`.
 * The entry has the extension of `from`: `.js` once built, `.ts` under tsx.
 */
export function startWorker(from: string, name: string, options: WorkerOptions): Worker {
  const extension = new URL(from).pathname.endsWith(".ts") ? ".ts" : ".js";
  const entry = new URL(`./${name}${extension}`, from);
  if (extension === ".js") return new Worker(entry, options);
  const built = builtTwin(entry);
  if (built) return new Worker(built, { ...options, execArgv: withoutTsx(options.execArgv ?? process.execArgv) });
  const tsx = import.meta.resolve("tsx/esm/api");
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}
