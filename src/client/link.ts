/**
 * The `Link` header (RFC 8288, wire notes 2.5): `<url>; rel="next", <url>; rel="last"`. Paging follows the
 * URLs the server wrote, never page numbers the client computes: GitHub's own links switch to id-based
 * paths (`/repositories/:id/events`) that a client could not rebuild.
 */

/** rel name -> absolute URL. A link may carry several rels (`rel="next last"`). */
export function parseLink(header: string | undefined, base: string): Record<string, string> {
  const rels: Record<string, string> = {};
  if (!header) return rels;
  for (const [, target = "", params = ""] of header.matchAll(/<([^>]*)>([^<]*)/g)) {
    const rel = /(?:^|;)\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]+))/i.exec(params);
    if (!rel) continue;
    let url: string;
    try {
      url = new URL(target, base).href;
    } catch {
      continue;
    }
    for (const name of (rel[1] ?? rel[2] ?? "").toLowerCase().split(/\s+/).filter(Boolean)) rels[name] ??= url;
  }
  return rels;
}
