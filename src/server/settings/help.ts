/**
 * A setting's help line, made from its row so that it cannot drift: what it does, what 0 means where 0 means none,
 * then the environment variable and the default, `(env FEEDGATE_REQUEST_TIMEOUT, default 120s)`.
 */
import type { AnySetting } from "./setting.js";

export function helpOf(row: AnySetting): string {
  const zero = row.zero === undefined ? "" : `; 0: ${row.zero}`;
  return `${row.help}${zero} (env ${row.env}, default ${row.shownDefault})`;
}
