/** The pages an OAuth app sends a person to: its consent ("Authorize ..." / "Cancel") and the device code's. */
import type { OAuthAppRow } from "../store/store.js";
import { html, type Html } from "./html.js";
import { csrfField, page, type PageContext } from "./layout.js";

function scopeList(scopes: readonly string[]): Html {
  return scopes.length === 0
    ? html`<p>It asks for no scope: public information only (read-only).</p>`
    : html`<p>It asks for these scopes:</p><ul class="scopes">${scopes.map((scope) => html`<li><code>${scope}</code></li>`)}</ul>`;
}

function consent(context: PageContext, app: OAuthAppRow, scopes: readonly string[], action: string, hidden: Html) {
  return page(
    context,
    `Authorize ${app.name}`,
    html`<h1>Authorize ${app.name}</h1>
<p><strong>${app.name}</strong> wants to access your <strong>${context.user?.login ?? ""}</strong> account.</p>
${scopeList(scopes)}
<form method="post" action="${action}">${csrfField(context)}${hidden}
  <p><button class="primary" type="submit" name="decision" value="authorize">Authorize ${app.name}</button>
  <button type="submit" name="decision" value="cancel">Cancel</button></p>
</form>
<p>Authorizing will send you to <code>${new URL(app.callbackUrl).origin}</code>.</p>`,
  );
}

/** The web flow's consent; `fields` are the authorize request's, carried through the form unchanged. */
export function authorizePage(
  context: PageContext,
  app: OAuthAppRow,
  scopes: readonly string[],
  fields: Record<string, string>,
) {
  const hidden = html`${Object.entries(fields).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  )}`;
  return consent(context, app, scopes, "/console/login/oauth/authorize", hidden);
}

export function deviceCodePage(context: PageContext, problem: string | null) {
  return page(
    context,
    "Device activation",
    html`<h1>Device activation</h1>
${problem ? html`<p class="error" role="alert">${problem}</p>` : ""}
<form method="post" action="/console/login/device">${csrfField(context)}
  <label for="user_code">Enter the code displayed on your device</label>
  <input id="user_code" name="user_code" type="text" autocomplete="off" autocapitalize="characters" required autofocus placeholder="XXXX-XXXX">
  <p><button class="primary" type="submit">Continue</button></p>
</form>`,
  );
}

export function deviceConsentPage(context: PageContext, app: OAuthAppRow, scopes: readonly string[], userCode: string) {
  return consent(
    context,
    app,
    scopes,
    "/console/login/device/authorize",
    html`<input type="hidden" name="user_code" value="${userCode}">`,
  );
}

export function deviceDonePage(context: PageContext, approved: boolean) {
  return approved
    ? page(
        context,
        "Congratulations",
        html`<h1>Congratulations, you're all set!</h1><p>Your device is now connected.</p>`,
      )
    : page(
        context,
        "Access denied",
        html`<h1>Access denied</h1><p>The device was not given access to your account.</p>`,
      );
}

/** The OAuth apps the user has tokens of, each with a button that revokes its grant (every token of it). */
export function authorizedAppsPage(context: PageContext, apps: readonly OAuthAppRow[]) {
  const rows = apps.map(
    (app) => html`<tr><td>${app.name}</td><td><code>${app.clientId}</code></td><td>
  <form method="post" action="/console/applications/revoke">${csrfField(context)}
    <input type="hidden" name="client_id" value="${app.clientId}">
    <button type="submit">Revoke</button></form></td></tr>`,
  );
  return page(
    context,
    "Authorized OAuth Apps",
    html`<h1>Authorized OAuth Apps</h1>
${
  apps.length === 0
    ? html`<p>You have not authorized any OAuth app.</p>`
    : html`<table><thead><tr><th scope="col">App</th><th scope="col">Client id</th><th scope="col"></th></tr></thead>
<tbody>${rows}</tbody></table>`
}`,
  );
}
