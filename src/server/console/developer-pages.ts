/**
 * Developer settings: the person's OAuth apps and GitHub Apps, the forms that register new ones, and the page that shows
 * a new app's secrets this once. What the GitHub App form may ask is api/permissions.ts's and api/webhook-events.ts's.
 */
import { PERMISSIONS, type PermissionName } from "../../api/permissions.js";
import { WEBHOOK_EVENT_NAMES } from "../../api/webhook-events.js";
import type { AppRow, OAuthAppRow } from "../store/store.js";
import type { ConvertedApp } from "../services/apps/manifest-flow.js";
import { html } from "./html.js";
import { csrfField, page, type PageContext } from "./layout.js";

/** The events the GitHub App form offers: those a repository's webhook delivers (an app gets `installation` anyway). */
export const APP_EVENTS = [...new Set(Object.values(WEBHOOK_EVENT_NAMES))];

const problemLine = (problem: string | null) => (problem ? html`<p class="error" role="alert">${problem}</p>` : "");

export function developerSettingsPage(context: PageContext, owned: { oauthApps: OAuthAppRow[]; apps: AppRow[] }) {
  const oauthRows = owned.oauthApps.map(
    (app) =>
      html`<tr><td>${app.name}</td><td><code>${app.clientId}</code></td><td>${app.deviceFlow ? "on" : "off"}</td></tr>`,
  );
  const appRows = owned.apps.map(
    (app) =>
      html`<tr><td>${app.name}</td><td>${String(app.id)}</td><td><code>${app.clientId}</code></td>
<td><a href="/console/apps/${app.slug}/installations/new">Install</a></td></tr>`,
  );
  return page(
    context,
    "Developer settings",
    html`<h1>Developer settings</h1>
<h2>GitHub Apps</h2>
${
  appRows.length
    ? html`<table><thead><tr><th scope="col">App</th><th scope="col">App ID</th><th scope="col">Client ID</th><th scope="col"></th></tr></thead><tbody>${appRows}</tbody></table>`
    : html`<p>You own no GitHub App.</p>`
}
<p><a href="/console/settings/apps/new">New GitHub App</a></p>
<h2>OAuth Apps</h2>
${
  oauthRows.length
    ? html`<table><thead><tr><th scope="col">App</th><th scope="col">Client ID</th><th scope="col">Device flow</th></tr></thead><tbody>${oauthRows}</tbody></table>`
    : html`<p>You own no OAuth app.</p>`
}
<p><a href="/console/settings/applications/new">New OAuth App</a></p>`,
  );
}

export function newOAuthAppPage(context: PageContext, problem: string | null) {
  return page(
    context,
    "Register a new OAuth app",
    html`<h1>Register a new OAuth app</h1>
${problemLine(problem)}
<form method="post" action="/console/settings/applications/new">${csrfField(context)}
  <label for="name">Application name</label><input id="name" name="name" type="text" required>
  <label for="url">Homepage URL</label><input id="url" name="url" type="url" required>
  <label for="callback_url">Authorization callback URL</label><input id="callback_url" name="callback_url" type="url" required>
  <label><input name="device_flow" type="checkbox" value="on"> Enable Device Flow</label>
  <p><button class="primary" type="submit">Register application</button></p>
</form>`,
  );
}

export function oauthAppRegisteredPage(context: PageContext, app: OAuthAppRow, clientSecret: string) {
  return page(
    context,
    `${app.name} registered`,
    html`<h1>${app.name}</h1>
<dl><dt>Client ID</dt><dd><code>${app.clientId}</code></dd>
<dt>Client secret</dt><dd><code>${clientSecret}</code></dd></dl>
<p>Copy the client secret now: it is not shown again.</p>
<p><a href="/console/settings/developers">Developer settings</a></p>`,
  );
}

export function newGitHubAppPage(context: PageContext, problem: string | null) {
  const permissions = (Object.entries(PERMISSIONS) as [PermissionName, (typeof PERMISSIONS)[PermissionName]][])
    .filter(([, spec]) => !("always" in spec))
    .map(
      ([name, spec]) => html`<label for="permission-${name}">${spec.title} (${spec.group})</label>
<select id="permission-${name}" name="permission:${name}"><option value="">No access</option>${spec.levels.map(
        (level) => html`<option value="${level}">${level === "read" ? "Read-only" : "Read and write"}</option>`,
      )}</select>`,
    );
  const events = APP_EVENTS.map(
    (name) => html`<label><input type="checkbox" name="events" value="${name}"> ${name}</label>`,
  );
  return page(
    context,
    "Register new GitHub App",
    html`<h1>Register new GitHub App</h1>
${problemLine(problem)}
<form method="post" action="/console/settings/apps/new">${csrfField(context)}
  <label for="name">GitHub App name</label><input id="name" name="name" type="text" required maxlength="34">
  <label for="url">Homepage URL</label><input id="url" name="url" type="url" required>
  <label for="callback_url">Callback URL</label><input id="callback_url" name="callback_url" type="url">
  <label for="webhook_url">Webhook URL</label><input id="webhook_url" name="webhook_url" type="url">
  <fieldset><legend>Permissions</legend>${permissions}</fieldset>
  <fieldset><legend>Subscribe to events</legend>${events}</fieldset>
  <p><button class="primary" type="submit">Create GitHub App</button></p>
</form>`,
  );
}

export function gitHubAppRegisteredPage(context: PageContext, made: ConvertedApp) {
  return page(
    context,
    `${made.app.name} registered`,
    html`<h1>${made.app.name}</h1>
<dl><dt>App ID</dt><dd>${String(made.app.id)}</dd>
<dt>Client ID</dt><dd><code>${made.app.clientId}</code></dd>
<dt>Client secret</dt><dd><code>${made.clientSecret}</code></dd>
${made.webhookSecret ? html`<dt>Webhook secret</dt><dd><code>${made.webhookSecret}</code></dd>` : ""}</dl>
<h2>Private key</h2>
<pre class="private-key">${made.pem}</pre>
<p>Copy the secrets and the private key now: feedgate keeps only the key's public part, and shows none of them again.</p>
<p><a href="/console/apps/${made.app.slug}/installations/new">Install ${made.app.name}</a></p>`,
  );
}
