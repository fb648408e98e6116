/**
 * A file as GitHub's `application/vnd.github.html` media type answers it: Markdown rendered (GitHub Flavored Markdown,
 * by `marked`) and sanitized as GitHub sanitizes what it renders (an allowlist of elements and attributes, no script,
 * no style, no event handler, links and images by http, https, mailto or a relative URL only), inside GitHub's
 * wrapper `<div id="file" class="md" data-path="PATH"><article class="markdown-body entry-content container-lg"
 * itemprop="text">`; a README answered as the readme routes do, `id="readme"`. Any other text is shown as GitHub shows a
 * plain-text README: escaped in a `<pre>` that keeps its lines. A binary file (git's test: a NUL in its first 8,000
 * bytes) has no HTML form: null. No I/O.
 */
import type { Marked } from "marked";
import type sanitizeHtml from "sanitize-html";
import { loadOnUse } from "../load-on-use.js";
import { isBinary } from "../git/file-diff.js";

const sanitizer = loadOnUse<typeof sanitizeHtml>("sanitize-html");
const markedPackage = loadOnUse<typeof import("marked")>("marked");

/** The extensions GitHub's markup library renders as Markdown (github/markup's `markdown` markup). */
const MARKDOWN = /\.(md|mkd|mkdn|mdwn|mdown|markdown)$/i;

let renderer: Marked | undefined;
const markdown = () => (renderer ??= new (markedPackage().Marked)({ gfm: true }));

const TEXT_ELEMENTS = ["h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "blockquote", "pre", "code", "div", "span"];
const INLINE_ELEMENTS = ["a", "b", "i", "strong", "em", "del", "ins", "s", "strike", "sub", "sup", "kbd", "q", "tt"];
const STRUCTURE = ["ul", "ol", "li", "dl", "dt", "dd", "table", "thead", "tbody", "tfoot", "tr", "th", "td", "caption"];
const MORE = ["img", "input", "details", "summary", "abbr", "cite", "dfn", "mark", "small", "samp", "var", "time"];

/** What survives of rendered HTML: GitHub's allowlist (html-pipeline's sanitization filter) in substance. */
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...TEXT_ELEMENTS, ...INLINE_ELEMENTS, ...STRUCTURE, ...MORE],
  allowedAttributes: {
    a: ["href", "title", "id", "name"],
    img: ["src", "alt", "title", "width", "height", "align"],
    // Task list items, as GitHub keeps them: a disabled checkbox.
    input: ["type", "checked", "disabled"],
    th: ["align", "colspan", "rowspan"],
    td: ["align", "colspan", "rowspan"],
    ol: ["start"],
    code: ["class"],
    "*": ["dir", "lang", "title"],
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowProtocolRelative: false,
};

/** Text for HTML: `&`, `<`, `>` and `"` as entities, as an attribute value needs too. */
const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The file at `path` with `body` as GitHub's HTML media type shows it; null for a binary file. */
export function renderedFile(path: string, body: Buffer, shell: "file" | "readme" = "file"): string | null {
  if (isBinary(body)) return null;
  const text = body.toString("utf8");
  const dataPath = escapeHtml(path);
  if (MARKDOWN.test(path)) {
    const html = sanitizer()(markdown().parse(text, { async: false }), SANITIZE);
    return (
      `<div id="${shell}" class="md" data-path="${dataPath}">` +
      `<article class="markdown-body entry-content container-lg" itemprop="text">${html}</article></div>`
    );
  }
  return (
    `<div id="${shell}" class="plain" data-path="${dataPath}">` +
    `<div class="plain"><pre style="white-space: pre-wrap">${escapeHtml(text)}</pre></div></div>`
  );
}
