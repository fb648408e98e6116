/** GitHub's timestamp form, `YYYY-MM-DDTHH:MM:SSZ` (no milliseconds). */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * The form of GitHub's `GitHub-Authentication-Token-Expiration` header, `YYYY-MM-DD HH:MM:SS UTC` (for example
 * `2021-10-07 19:07:53 UTC`), which clients such as go-github parse as exactly that layout.
 */
export function tokenExpirationHeader(date: Date): string {
  return isoSeconds(date).replace("T", " ").replace(/Z$/, " UTC");
}
