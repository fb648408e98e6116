/**
 * The request headers a caller may set (spec section 4): a closed list, matched case-insensitively as HTTP
 * does. Anything else (Authorization above all) is the client's to send, from its own options.
 */
import { ParameterError } from "./errors.js";

export const PERMITTED_HEADERS = [
  "If-Modified-Since",
  "If-None-Match",
  "Cookie",
  "User-Agent",
  "Accept",
  "X-Service-OTP",
] as const;

type PermittedHeader = (typeof PERMITTED_HEADERS)[number];
/** The conditional headers: only they can turn an answer into 304 Not Modified. */
type ConditionalHeader = "If-Modified-Since" | "If-None-Match";

/** Names as the spec writes them or in lower case; other casings work at run time too. */
export type RequestHeaders = { [K in PermittedHeader | Lowercase<PermittedHeader>]?: string };

/** Headers that cannot make a request conditional; what a client's defaults may hold. */
export type UnconditionalHeaders = RequestHeaders & { [K in ConditionalHeader | Lowercase<ConditionalHeader>]?: never };

const PERMITTED = new Map(PERMITTED_HEADERS.map((name) => [name.toLowerCase(), name]));
const CONDITIONAL = new Set(["if-modified-since", "if-none-match"]);

/**
 * Checks a headers map and returns it with lower-case names. `where` names it in errors ("headers",
 * "options.headers").
 */
export function checkHeaders(
  headers: unknown,
  where: string,
  options: { conditional: boolean },
): Record<string, string> {
  if (headers === undefined) return {};
  if (typeof headers !== "object" || headers === null || Array.isArray(headers)) {
    throw new ParameterError(where, `${where} must be an object of header names to strings`);
  }
  const checked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!PERMITTED.has(lower)) {
      throw new ParameterError(
        `${where}.${name}`,
        `${where}.${name} is not a permitted header; permitted: ${PERMITTED_HEADERS.join(", ")}`,
      );
    }
    if (!options.conditional && CONDITIONAL.has(lower)) {
      // One ETag or date for every request would make unrelated requests answer 304.
      throw new ParameterError(
        `${where}.${name}`,
        `${where}.${name} belongs to a single request, not to the client's defaults`,
      );
    }
    if (typeof value !== "string") throw new ParameterError(`${where}.${name}`, `${where}.${name} must be a string`);
    checked[lower] = value;
  }
  return checked;
}
