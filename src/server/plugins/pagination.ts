/**
 * Paging for every list: `page` and `per_page` (digits only, validated by the route schema), default 30,
 * anything above 100 served as 100, and one `Link` header helper (wire notes 2.5): absolute URLs that keep
 * the other query parameters, relations in GitHub's order (prev, next, last, first), none when one page
 * holds everything.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { PER_PAGE_DEFAULT, PER_PAGE_MAX } from "../../api/endpoints.js";
import type { PageQuery } from "../../api/schemas.js";

export interface PageWindow {
  page: number;
  perPage: number;
  limit: number;
  offset: number;
}

/** Reads already-validated paging parameters; GitHub serves `page=0` as the first page and `per_page=0` as the default. */
export function readPage(query: PageQuery): PageWindow {
  const page = Math.max(1, Number(query.page ?? 1)) || 1;
  const requested = Number(query.per_page ?? PER_PAGE_DEFAULT) || PER_PAGE_DEFAULT;
  const perPage = Math.min(PER_PAGE_MAX, requested);
  // Very deep page numbers would overflow an SQL offset; such a page is simply empty.
  const offset = Math.min((page - 1) * perPage, Number.MAX_SAFE_INTEGER);
  return { page, perPage, limit: perPage, offset };
}

/** The request's own URL with one query parameter set: `page`, or a list's `cursor`. */
function linkUrl(request: FastifyRequest, name: string, value: string): string {
  const url = new URL(request.url, request.baseUrl);
  // A token never goes into a header that caches and proxies keep. It also broke node-github 0.2.4: its
  // getNextPage re-sends the Link URL's query and appends its own `access_token`, and a token given twice is
  // refused as Bad credentials (tests/server/authentication.test.ts). Clients re-add their credentials anyway.
  url.searchParams.delete("access_token");
  url.searchParams.set(name, value);
  return `${request.baseUrl}${url.pathname}${url.search}`;
}

const pageUrl = (request: FastifyRequest, page: number) => linkUrl(request, "page", String(page));

/**
 * Link headers already built, by everything they are made of: polls ask for the same page again and again, and
 * building one parses the URL three times. Bounded by clearing; a miss only builds the header again.
 */
const LINKS_KEPT = 5_000;
const builtLinks = new Map<string, string>();

/** Writes the `Link` header for a page of a list of `total` items. */
export function writeLinkHeader(request: FastifyRequest, reply: FastifyReply, window: PageWindow, total: number): void {
  const lastPage = Math.max(1, Math.ceil(total / window.perPage));
  // A URL carrying a token is never kept: tokens stay in memory no longer than their request.
  const keep = !request.url.includes("access_token");
  const key = `${window.page} ${window.perPage} ${lastPage} ${request.baseUrl} ${request.url}`;
  let header = keep ? builtLinks.get(key) : undefined;
  if (header === undefined) {
    header = linkHeader(request, window, lastPage);
    if (keep) {
      if (builtLinks.size >= LINKS_KEPT) builtLinks.clear();
      builtLinks.set(key, header);
    }
  }
  if (header !== "") reply.header("Link", header);
}

/** The `Link` header's value, "" when one page holds everything. */
function linkHeader(request: FastifyRequest, window: PageWindow, lastPage: number): string {
  const links: string[] = [];
  const link = (page: number, rel: string) => links.push(`<${pageUrl(request, page)}>; rel="${rel}"`);
  if (window.page > 1) link(Math.min(window.page - 1, lastPage), "prev");
  if (window.page < lastPage) {
    link(window.page + 1, "next");
    link(lastPage, "last");
  }
  if (window.page > 1) link(1, "first");
  return links.join(", ");
}

/**
 * The `Link` header of a list paged by cursor (GitHub's webhook deliveries): `rel="next"` only, while there is a next
 * page, its URL the request's own with that page's cursor.
 */
export function writeCursorLink(request: FastifyRequest, reply: FastifyReply, next: string | null): void {
  if (next !== null) reply.header("Link", `<${linkUrl(request, "cursor", next)}>; rel="next"`);
}
