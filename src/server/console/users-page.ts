/** The Users page (site administrators): every account that can sign in, with what an operator checks first. */
import type { UserRow } from "../store/store.js";
import { html } from "./html.js";
import { page, type PageContext } from "./layout.js";

const yesNo = (value: boolean) => (value ? "Yes" : "No");

export function usersPage(context: PageContext, users: UserRow[], tokenCounts: Map<number, number>): string {
  return page(
    context,
    "Users",
    html`<h1>Users</h1>
<table>
  <caption class="hint">Accounts that can sign in (${users.length})</caption>
  <thead><tr><th scope="col">Login</th><th scope="col">Type</th><th scope="col">Site admin</th>
    <th scope="col">Two-factor</th><th scope="col">Tokens</th><th scope="col">Status</th></tr></thead>
  <tbody>${users.map((user) => html`<tr><th scope="row">${user.login}</th><td>${user.type}</td><td>${yesNo(user.siteAdmin)}</td><td>${user.otpSecret ? "On" : "Off"}</td><td>${tokenCounts.get(user.id) ?? 0}</td><td>${user.suspendedAt ? "Suspended" : "Active"}</td></tr>`)}</tbody>
</table>`,
  );
}
