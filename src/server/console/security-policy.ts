/**
 * The console's Content-Security-Policy.
 * No inline script or style, nothing from another origin; forms post only here; no page may frame the console.
 * `connect-src 'self'` is what the activity page's EventSource needs.
 */
const DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
];

export const CONTENT_SECURITY_POLICY = DIRECTIVES.join("; ");

/**
 * The policy of a page whose form is answered with a redirect to another origin (an OAuth app's callback): browsers
 * hold a form's redirects to `form-action` too.
 */
export const CONTENT_SECURITY_POLICY_FOR = (formTarget: string) =>
  DIRECTIVES.map((directive) => (directive === "form-action 'self'" ? `${directive} ${formTarget}` : directive)).join(
    "; ",
  );
