/**
 * The Fine-grained tokens pages, beside Tokens (classic) as on GitHub: the list (with a new token, once), the form
 * GitHub's "Generate new token" page has (name, description, resource owner, expiration, repository access,
 * permissions), and the revoke confirmation. What the form may ask is api/permissions.ts's table.
 */
import { PERMISSIONS, type PermissionGroup, type PermissionName } from "../../api/permissions.js";
import type { FineGrainedTokenView } from "../services/fine-grained-tokens.js";
import { html, type Html } from "./html.js";
import { csrfField, page, type PageContext } from "./layout.js";
import { date, expirationField, expiresCell, newTokenNotice } from "./tokens-page.js";

export interface FineGrainedFormValues {
  name: string;
  description: string;
  resourceOwner: string;
  expiration: string;
  expirationDate: string;
  repositorySelection: string;
  /** One `owner/name` (or a name under the resource owner) per line. */
  repositories: string;
  /** The level chosen for each permission; absent: no access. */
  permissions: Partial<Record<PermissionName, string>>;
}

/** GitHub's three answers to "Repository access", with the API's values. */
const SELECTIONS = [
  { value: "none", label: "Public repositories", hint: "Read-only access to public repositories." },
  { value: "all", label: "All repositories", hint: "Every repository of the resource owner, current and future." },
  { value: "subset", label: "Only select repositories", hint: "The repositories listed below." },
] as const;

const GROUP_TITLES: Record<PermissionGroup, string> = {
  repository: "Repository permissions",
  organization: "Organization permissions",
  other: "Account permissions",
};
const LEVEL_LABELS = { read: "Read-only", write: "Read and write" } as const;

function selectionLabel(view: FineGrainedTokenView): Html | string {
  const { repositorySelection } = view.row.fineGrained;
  if (repositorySelection !== "subset") return SELECTIONS.find((s) => s.value === repositorySelection)!.label;
  return html`${view.repositories.map((r, i) => html`${i > 0 ? ", " : ""}<code>${r.fullName}</code>`)}`;
}

const permissionList = (view: FineGrainedTokenView) =>
  Object.entries(view.row.fineGrained.permissions)
    .map(
      ([name, level]) =>
        `${PERMISSIONS[name as PermissionName].title} (${PERMISSIONS[name as PermissionName].group}): ${level}`,
    )
    .join("; ");

export function fineGrainedTokensPage(
  context: PageContext,
  views: FineGrainedTokenView[],
  newToken: string | null,
  now: Date,
): string {
  const table =
    views.length === 0
      ? html`<p>No fine-grained tokens yet.</p>`
      : html`<table>
  <caption class="hint">Your fine-grained personal access tokens</caption>
  <thead><tr><th scope="col">Name</th><th scope="col">Resource owner</th><th scope="col">Repository access</th>
    <th scope="col">Permissions</th><th scope="col">Ends with</th><th scope="col">Created</th><th scope="col">Expires</th>
    <th scope="col">Actions</th></tr></thead>
  <tbody>${views.map(
    (view) => html`<tr>
    <td>${view.row.note ?? ""}${view.row.fineGrained.description ? html`<br><span class="hint">${view.row.fineGrained.description}</span>` : ""}</td>
    <td>${view.owner.login}</td><td>${selectionLabel(view)}</td><td>${permissionList(view)}</td>
    <td><code>${view.row.tokenLastEight}</code></td><td>${date(view.row.createdAt)}</td><td>${expiresCell(view.row, now)}</td>
    <td class="actions"><a class="button" href="/console/fine-grained-tokens/${view.row.id}/revoke"
      aria-label="Revoke ${view.row.note ?? `token ${view.row.id}`}">Revoke</a></td>
  </tr>`,
  )}</tbody></table>`;
  return page(
    context,
    "Fine-grained tokens",
    html`<h1>Fine-grained tokens</h1>
${newToken ? newTokenNotice(newToken) : ""}
<p>Each token reaches one user's or organization's resources: the repositories you choose, with the permissions you give it.</p>
<p><a class="button" href="/console/fine-grained-tokens/new">Generate new token</a></p>
${table}`,
  );
}

function permissionField(name: PermissionName, chosen: string | undefined): Html {
  const spec = PERMISSIONS[name];
  const id = `permission-${name}`;
  if ("always" in spec) {
    return html`<p><strong>${spec.title}</strong>: Read-only <span class="hint">(always granted)</span></p>`;
  }
  return html`<div class="field"><label for="${id}">${spec.title}</label>
  <select id="${id}" name="permission:${name}">
    <option value="">No access</option>
    ${spec.levels.map((level) => html`<option value="${level}"${chosen === level ? html` selected` : ""}>${LEVEL_LABELS[level]}</option>`)}
  </select></div>`;
}

export function fineGrainedFormPage(
  context: PageContext,
  values: FineGrainedFormValues,
  problem: string | null,
): string {
  const names = Object.keys(PERMISSIONS) as PermissionName[];
  return page(
    context,
    "New fine-grained personal access token",
    html`<h1>New fine-grained personal access token</h1>
${problem ? html`<p class="error" role="alert">${problem}</p>` : ""}
<form method="post" action="/console/fine-grained-tokens">${csrfField(context)}
  <label for="token-name">Token name</label>
  <input id="token-name" name="name" type="text" required maxlength="40" value="${values.name}">
  <label for="description">Description</label>
  <input id="description" name="description" type="text" value="${values.description}">
  <label for="resource-owner">Resource owner</label>
  <input id="resource-owner" name="resource_owner" type="text" value="${values.resourceOwner}" aria-describedby="resource-owner-hint">
  <span class="hint" id="resource-owner-hint">Your login, or an organization you belong to: the token reaches its resources only.</span>
  ${expirationField(values)}
  <fieldset><legend>Repository access</legend>
  ${SELECTIONS.map(
    (s) => html`<div class="check"><input type="radio" id="selection-${s.value}" name="repository_selection"
    value="${s.value}" aria-describedby="selection-${s.value}-hint"${values.repositorySelection === s.value ? html` checked` : ""}>
    <label for="selection-${s.value}">${s.label}</label></div><span class="hint" id="selection-${s.value}-hint">${s.hint}</span>`,
  )}
  <div class="field"><label for="repositories">Selected repositories</label>
  <textarea id="repositories" name="repositories" rows="3" aria-describedby="repositories-hint">${values.repositories}</textarea>
  <span class="hint" id="repositories-hint">With "Only select repositories": one per line, <code>owner/name</code>.</span></div>
  </fieldset>
  ${(["repository", "organization", "other"] as const).map(
    (group) => html`<fieldset><legend>${GROUP_TITLES[group]}</legend>
    ${names.filter((name) => PERMISSIONS[name].group === group).map((name) => permissionField(name, values.permissions[name]))}
  </fieldset>`,
  )}
  <p><button class="primary" type="submit">Generate token</button> <a href="/console/fine-grained-tokens">Cancel</a></p>
</form>`,
  );
}

export function fineGrainedRevokePage(context: PageContext, view: FineGrainedTokenView): string {
  const name = view.row.note ?? `token ${view.row.id}`;
  return page(
    context,
    "Revoke token",
    html`<h1>Revoke token</h1>
<p>Revoke <strong>${name}</strong> (ends with <code>${view.row.tokenLastEight}</code>)? Anything using it loses access at once.</p>
<form method="post" action="/console/fine-grained-tokens/${view.row.id}/revoke">${csrfField(context)}
  <button class="danger" type="submit">Revoke</button> <a href="/console/fine-grained-tokens">Cancel</a>
</form>`,
  );
}
