/**
 * The relative links of a markdown page and the anchors its headings make, as GitHub renders them, so that the
 * documentation's pages can be checked to point at files and headings that exist.
 */

export interface Link {
  /** The target as written: a path relative to the page, a `#anchor`, or both. */
  target: string;
  /** Line of the page the link is on. */
  line: number;
}

/** A line with its code spans blanked out, so that `[x](y)` written as code is not taken for a link. */
function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)[^`]*?\1/g, (span) => " ".repeat(span.length));
}

/** The page's lines outside fenced code blocks, with their line numbers. */
function proseLines(page: string): { text: string; line: number }[] {
  const lines: { text: string; line: number }[] = [];
  let fenced = false;
  page.split("\n").forEach((text, index) => {
    if (/^\s*```/.test(text)) fenced = !fenced;
    else if (!fenced) lines.push({ text, line: index + 1 });
  });
  return lines;
}

/** Whether a target names a scheme (`https:`, `mailto:`): not a file of the repository. */
function isAbsolute(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

/** Every link and image of the page whose target is relative: a path, an anchor, or a path with an anchor. */
export function relativeLinks(page: string): Link[] {
  const links: Link[] = [];
  for (const { text, line } of proseLines(page)) {
    for (const match of withoutCodeSpans(text).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      if (!isAbsolute(match[1]!)) links.push({ target: match[1]!, line });
    }
  }
  return links;
}

/**
 * The anchor GitHub gives a heading (github-slugger): lower case, punctuation (code marks, colons, slashes) dropped,
 * each space a hyphen; a repeated heading gets `-1`, `-2`, ...
 */
export function headingAnchors(page: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(page)) {
    const heading = text.match(/^#{1,6}\s+(.*?)\s*#*\s*$/)?.[1];
    if (heading === undefined) continue;
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
