/** A caller's rate-limit window as the server counts it; `X-RateLimit-*` and `GET /rate_limit` are made from it. */
export interface RateLimitState {
  /** The window's counter key: a user or a client IP. */
  key: string;
  limit: number;
  used: number;
  resetAt: Date;
}

/**
 * A window of its own for one operation, in place of the caller's core window: GitHub limits some operations
 * separately (credential revocation: 60 requests an hour per client). Counted per client IP, since such operations
 * are anonymous; spending it answers with `status`, which GitHub documents per operation.
 */
export interface OwnRateLimit {
  /** `X-RateLimit-Resource`, and the counter's name. */
  readonly resource: string;
  readonly limit: number;
  readonly windowSeconds: number;
  /** The status of a request over the limit. */
  readonly status: 403 | 422;
  /**
   * Whose window: the client IP's (the default), or the user's when authenticated (GitHub's search: 30 a minute for a
   * user, `anonymousLimit` for an anonymous caller's IP).
   */
  readonly per?: "ip" | "user";
  readonly anonymousLimit?: number;
}
