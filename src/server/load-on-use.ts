/**
 * A CommonJS package required when first used, for the few that only some requests need (archives, diffs, rendered
 * Markdown): every start, a test double's above all, would otherwise load them for nothing. Synchronous, so the code
 * that uses one stays as it was; the package is required once and then kept by Node's module cache.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export function loadOnUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= require(name) as T;
    return loaded;
  };
}
