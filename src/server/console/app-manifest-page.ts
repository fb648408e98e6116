/** The manifest flow's confirmation: the app a manifest describes, and "Create GitHub App for ...". */
import type { AppManifest } from "../services/apps/manifest-flow.js";
import { html } from "./html.js";
import { csrfField, page, type PageContext } from "./layout.js";

/** The fields the confirmation carries through its form, as the entry route passed them. */
export interface ManifestFields {
  manifest: string;
  state?: string;
  org?: string;
}

export function appManifestPage(
  context: PageContext,
  owner: string,
  manifest: AppManifest | null,
  fields: ManifestFields,
  problem: string | null,
) {
  const hidden = Object.entries(fields)
    .filter((entry): entry is [string, string] => typeof entry[1] === "string")
    .map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  const permissions = Object.entries(manifest?.permissions ?? {}).map(
    ([name, level]) => html`<li><code>${name}</code>: ${level}</li>`,
  );
  return page(
    context,
    "Create GitHub App",
    html`<h1>Create GitHub App for ${owner}</h1>
${problem ? html`<p class="error" role="alert">${problem}</p>` : ""}
${
  manifest
    ? html`<dl>
  <dt>Name</dt><dd>${manifest.name}</dd>
  <dt>Homepage</dt><dd><code>${manifest.url}</code></dd>
  <dt>Webhook</dt><dd>${manifest.hook ? html`<code>${manifest.hook.url}</code>` : "none"}</dd>
  <dt>Events</dt><dd>${manifest.events.length ? manifest.events.join(", ") : "none"}</dd>
</dl>
<p>Permissions:</p><ul>${permissions.length ? permissions : html`<li>none</li>`}</ul>
<form method="post" action="/console/settings/apps/new">${csrfField(context)}${hidden}
  <p><button class="primary" type="submit">Create GitHub App for ${owner}</button></p>
</form>`
    : ""
}`,
  );
}
