/**
 * GitHub's rule for an OAuth app's `redirect_uri` (docs: authorizing-oauth-apps, "Redirect URLs"): the callback's
 * scheme, its host or a sub-domain of it, its port, and its path or one below it; a loopback callback takes any port,
 * as native apps pick a free one. An omitted `redirect_uri` is the callback.
 */
const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"]);

const pathWithin = (path: string, base: string) =>
  path === base || path.startsWith(base.endsWith("/") ? base : `${base}/`);

export function redirectAllowed(redirectUri: string, callbackUrl: string): boolean {
  if (!URL.canParse(redirectUri) || !URL.canParse(callbackUrl)) return false;
  const asked = new URL(redirectUri);
  const registered = new URL(callbackUrl);
  if (asked.protocol !== registered.protocol) return false;
  const sameHost = asked.hostname === registered.hostname || asked.hostname.endsWith(`.${registered.hostname}`);
  const portOk = asked.port === registered.port || LOOPBACK.has(registered.hostname);
  return sameHost && portOk && pathWithin(asked.pathname, registered.pathname);
}

/** `url` with these query fields added (a callback may carry a query of its own). */
export function withQuery(url: string, fields: Record<string, string | undefined>): string {
  const target = new URL(url);
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) target.searchParams.set(name, value);
  return target.href;
}
