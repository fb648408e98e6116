/** The frame of every console page: one stylesheet, one script, a skip link, the navigation, and a sign-out form. */
import { html, type Html } from "./html.js";
import type { ConsoleAssets } from "./assets.js";
import type { UserRow } from "../store/store.js";

export interface PageContext {
  assets: ConsoleAssets;
  /** The signed-in user; null on the sign-in pages. */
  user: UserRow | null;
  /** The session's CSRF token, for its forms (a two-factor step's pending session has one too). */
  csrf: string;
}

/** The hidden field every state-changing form carries. */
export const csrfField = (context: PageContext) => html`<input type="hidden" name="csrf" value="${context.csrf}">`;

function navigation(context: PageContext): Html | string {
  const { user } = context;
  if (!user) return "";
  return html`<nav aria-label="Console"><ul>
      <li><a href="/console/activity">Activity</a></li>
      <li><a href="/console/fine-grained-tokens">Fine-grained tokens</a></li>
      <li><a href="/console/tokens">Tokens (classic)</a></li>
      <li><a href="/console/applications">Applications</a></li>
      <li><a href="/console/settings/developers">Developer settings</a></li>
      ${user.siteAdmin ? html`<li><a href="/console/users">Users</a></li>` : ""}
    </ul></nav>
    <form method="post" action="/console/sign-out">${csrfField(context)}
      <span>${user.login}</span> <button type="submit">Sign out</button></form>`;
}

export function page(context: PageContext, title: string, body: Html): string {
  return `<!doctype html>\n${html`<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · feedgate</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${context.assets.style.url}">
<script type="module" src="${context.assets.script.url}"></script>
</head><body>
<a class="skip" href="#main">Skip to content</a>
<header><a href="/console/"><strong>feedgate</strong></a>${navigation(context)}</header>
<main id="main">${body}</main>
</body></html>`}`;
}
