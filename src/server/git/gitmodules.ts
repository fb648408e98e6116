/**
 * A `.gitmodules` file read as git reads it (git-config syntax, gitmodules(5)): `[submodule "NAME"]` sections whose
 * `path` names where the submodule sits in the tree and whose `url` says where to clone it from. Keys are read
 * without case, values without their surrounding blanks, quotes and trailing comments. No I/O.
 */

export interface Submodule {
  name: string;
  path: string;
  url: string;
}

const SECTION = /^\[\s*submodule\s+"((?:[^"\\]|\\.)*)"\s*\]\s*(?:[#;].*)?$/i;
const OTHER_SECTION = /^\[[^\]]*\]/;
const ENTRY = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/;

/** A value as git-config reads it: quotes joined and dropped, `\"`, `\\`, `\t`, `\n` unescaped, comments cut. */
function configValue(raw: string): string {
  let value = "";
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === "\\" && i + 1 < raw.length) {
      const next = raw[++i]!;
      value += next === "t" ? "\t" : next === "n" ? "\n" : next === "b" ? "\b" : next;
    } else if (c === '"') quoted = !quoted;
    else if (!quoted && (c === "#" || c === ";")) break;
    else value += c;
  }
  return value.trim();
}

/** The submodules a `.gitmodules` file describes, those with both a path and a URL, in the file's order. */
export function parseGitmodules(text: string): Submodule[] {
  const found = new Map<string, { path?: string; url?: string }>();
  let current: { path?: string; url?: string } | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const section = SECTION.exec(line);
    if (section) {
      const name = section[1]!.replace(/\\(.)/g, "$1");
      current = found.get(name) ?? {};
      found.set(name, current);
      continue;
    }
    if (OTHER_SECTION.test(line)) {
      current = null;
      continue;
    }
    const entry = ENTRY.exec(line);
    if (!current || !entry) continue;
    const key = entry[1]!.toLowerCase();
    if (key === "path" || key === "url") current[key] = configValue(entry[2] ?? "");
  }
  return [...found]
    .filter(([, s]) => s.path && s.url)
    .map(([name, s]) => ({ name, path: s.path!.replace(/^\/+|\/+$/g, ""), url: s.url! }));
}

/** Whether a submodule URL is relative to the superproject's (`./x.git`, `../x.git`), as git reads one. */
const isRelative = (url: string) => url.startsWith("./") || url.startsWith("../");

/**
 * A submodule URL as a clone of the superproject at `superprojectUrl` (`https://host/o/r.git`) would use it: a
 * relative one resolved as git resolves it (each `../` takes a segment off the superproject's URL, `./` none), any
 * other as written.
 */
export function resolveSubmoduleUrl(url: string, superprojectUrl: string): string {
  if (!isRelative(url)) return url;
  let base = superprojectUrl.replace(/\/+$/, "");
  let rest = url;
  for (;;) {
    if (rest.startsWith("./")) rest = rest.slice(2);
    else if (rest.startsWith("../")) {
      base = base.slice(0, Math.max(base.lastIndexOf("/"), base.indexOf("//") + 1));
      rest = rest.slice(3);
    } else break;
  }
  return `${base}/${rest}`;
}

/**
 * The `owner/repo` a submodule URL names on the host `host` (a URL of any of git's forms: `https://host/o/r.git`,
 * `git://`, `ssh://git@host/o/r`, `git@host:o/r.git`), or null when it names another host or no repository.
 */
export function repositoryOnHost(url: string, host: string): string | null {
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/)(.*)$/.exec(url);
  let at: { host: string; path: string };
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) at = { host: scp[1]!, path: scp[2]! };
  else {
    try {
      const parsed = new URL(url);
      at = { host: parsed.hostname, path: decodeURIComponent(parsed.pathname) };
    } catch {
      return null;
    }
  }
  if (at.host.toLowerCase() !== host.toLowerCase()) return null;
  const match = /^\/*([^/]+)\/([^/]+?)(?:\.git)?\/*$/.exec(at.path);
  return match ? `${match[1]}/${match[2]}` : null;
}
