/** A caller's rate-limit window as the server counts it; `X-RateLimit-*` and `GET /rate_limit` are made from it. */
export interface RateLimitState {
  /** The window's counter key: a user or a client IP. */
  key: string;
  limit: number;
  used: number;
  resetAt: Date;
}
