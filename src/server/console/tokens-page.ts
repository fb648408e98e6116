/** The Tokens pages: the list (with a new token, once), the generate/edit form, and the revoke confirmation. */
import type { AuthorizationRow } from "../store/store.js";
import { html, safeHref, type Html } from "./html.js";
import { csrfField, page, type PageContext } from "./layout.js";
import { SCOPE_GROUPS } from "./scope-groups.js";
import { EXPIRATION_CHOICES } from "./expiration.js";

export const date = (d: Date) =>
  html`<time datetime="${d.toISOString()}">${d.toISOString().slice(0, 16).replace("T", " ")} UTC</time>`;

function noteCell(row: AuthorizationRow): Html {
  const note = row.note ?? "(no note)";
  const href = safeHref(row.noteUrl);
  return href ? html`<a href="${href}">${note}</a>` : html`${note}`;
}

export function newTokenNotice(token: string): Html {
  return html`<section class="notice" aria-labelledby="new-token-heading">
  <h2 id="new-token-heading">Your new token</h2>
  <p>Make sure to copy it now. You won't be able to see it again.</p>
  <p><code class="token" id="new-token">${token}</code> <button type="button" data-copy="new-token">Copy</button></p>
</section>`;
}

/** Links to the neighbouring pages of the list, when it has more than one. */
function pageLinks({ number, last }: { number: number; last: number }): Html | string {
  if (last === 1) return "";
  return html`<nav aria-label="Token pages"><p>Page ${number} of ${last}
  ${number > 1 ? html`<a href="/console/tokens?page=${number - 1}">Previous page</a>` : ""}
  ${number < last ? html`<a href="/console/tokens?page=${number + 1}">Next page</a>` : ""}</p></nav>`;
}

/** When the token stops working, as GitHub's list says it: never, the date, or that it has expired. */
export function expiresCell(row: AuthorizationRow, now: Date): Html | string {
  if (!row.expiresAt) return "Never";
  return row.expiresAt <= now ? html`<strong>Expired</strong> ${date(row.expiresAt)}` : date(row.expiresAt);
}

export function tokensPage(
  context: PageContext,
  rows: AuthorizationRow[],
  newToken: string | null,
  pages: { number: number; last: number },
  now: Date,
): string {
  const table =
    rows.length === 0
      ? html`<p>No tokens yet.</p>`
      : html`<table>
  <caption class="hint">Your personal access tokens</caption>
  <thead><tr><th scope="col">Note</th><th scope="col">Scopes</th><th scope="col">Ends with</th>
    <th scope="col">Created</th><th scope="col">Last changed</th><th scope="col">Expires</th><th scope="col">Actions</th></tr></thead>
  <tbody>${rows.map(
    (row) => html`<tr>
    <td>${noteCell(row)}</td><td>${row.scopes.length ? row.scopes.join(", ") : "(no scopes)"}</td>
    <td><code>${row.tokenLastEight}</code></td><td>${date(row.createdAt)}</td><td>${date(row.updatedAt)}</td>
    <td>${expiresCell(row, now)}</td>
    <td class="actions"><a class="button" href="/console/tokens/${row.id}/edit" aria-label="Edit ${row.note ?? `token ${row.id}`}">Edit</a>
      <a class="button" href="/console/tokens/${row.id}/revoke" aria-label="Revoke ${row.note ?? `token ${row.id}`}">Revoke</a></td>
  </tr>`,
  )}</tbody></table>`;
  return page(
    context,
    "Tokens (classic)",
    html`<h1>Tokens (classic)</h1>
${newToken ? newTokenNotice(newToken) : ""}
<p><a class="button" href="/console/tokens/new">Generate new token</a></p>
${table}
${pageLinks(pages)}`,
  );
}

export interface TokenFormValues {
  note: string;
  noteUrl: string;
  scopes: readonly string[];
  /** One of EXPIRATION_CHOICES' values; only a new token has one (an expiry is not changed by editing, as on GitHub). */
  expiration: string;
  /** `YYYY-MM-DD`, for the custom choice. */
  expirationDate: string;
}

/** GitHub's Expiration field: a choice of lifetimes, and the date a custom one ends on. */
export function expirationField(values: Pick<TokenFormValues, "expiration" | "expirationDate">): Html {
  return html`<label for="expiration">Expiration</label>
  <select id="expiration" name="expiration" aria-describedby="expiration-hint">
  ${EXPIRATION_CHOICES.map((c) => html`<option value="${c.value}"${values.expiration === c.value ? html` selected` : ""}>${c.label}</option>`)}
  </select>
  <label for="expiration_date">Custom expiration date (UTC)</label>
  <input id="expiration_date" name="expiration_date" type="date" value="${values.expirationDate}">
  <span class="hint" id="expiration-hint">The token stops working then; a custom date needs the date above.</span>`;
}

function scopeBox(scope: string, description: string, checked: boolean, child: boolean): Html {
  const id = `scope-${scope.replace(/[^a-z0-9]/gi, "-")}`;
  return html`<div class="scope${child ? " child" : ""}">
  <input type="checkbox" id="${id}" name="scopes" value="${scope}" aria-describedby="${id}-description"${checked ? html` checked` : ""}>
  <label for="${id}">${scope}</label> <span class="hint" id="${id}-description">${description}</span></div>`;
}

/** The form to generate a token (no id) or to edit one. */
export function tokenFormPage(
  context: PageContext,
  values: TokenFormValues,
  editing: AuthorizationRow | null,
  problem: string | null,
): string {
  const heading = editing ? "Edit token" : "New personal access token (classic)";
  return page(
    context,
    heading,
    html`<h1>${heading}</h1>
${problem ? html`<p class="error" role="alert">${problem}</p>` : ""}
<form method="post" action="${editing ? `/console/tokens/${editing.id}` : "/console/tokens"}">${csrfField(context)}
  <label for="note">Note</label>
  <input id="note" name="note" type="text" value="${values.note}" aria-describedby="note-hint">
  <span class="hint" id="note-hint">What's this token for?</span>
  <label for="note_url">Note URL</label>
  <input id="note_url" name="note_url" type="url" value="${values.noteUrl}">
  ${editing ? html`<p>Expires: ${editing.expiresAt ? date(editing.expiresAt) : "never"}</p>` : expirationField(values)}
  <fieldset><legend>Scopes</legend>
  ${SCOPE_GROUPS.map(
    (g) => html`<div class="group">${scopeBox(g.scope, g.description, values.scopes.includes(g.scope), false)}
    ${g.children.map((c) => scopeBox(c.scope, c.description, values.scopes.includes(c.scope), true))}</div>`,
  )}
  </fieldset>
  <p><button class="primary" type="submit">${editing ? "Update token" : "Generate token"}</button>
    <a href="/console/tokens">Cancel</a></p>
</form>`,
  );
}

export function revokePage(context: PageContext, row: AuthorizationRow): string {
  return page(
    context,
    "Revoke token",
    html`<h1>Revoke token</h1>
<p>Revoke <strong>${row.note ?? `token ${row.id}`}</strong> (ends with <code>${row.tokenLastEight}</code>)? Anything using it
  loses access at once.</p>
<form method="post" action="/console/tokens/${row.id}/revoke">${csrfField(context)}
  <button class="danger" type="submit">Revoke</button> <a href="/console/tokens">Cancel</a>
</form>`,
  );
}
