/** GitHub's install page for an app: where (your account or an organization you own) and which repositories. */
import type { AppRow, InstallationRow } from "../store/store.js";
import type { InstallTarget } from "../services/apps/app-installer.js";
import { html } from "./html.js";
import { csrfField, page, type PageContext } from "./layout.js";

export function appInstallPage(context: PageContext, app: AppRow, targets: InstallTarget[], problem: string | null) {
  const open = targets.filter((target) => !target.installed);
  const accounts = open.map(
    (target, i) =>
      html`<label><input type="radio" name="account" value="${target.account.login}" ${i === 0 ? "checked" : ""}> ${target.account.login}</label>`,
  );
  const repositories = open.flatMap((target) =>
    target.repos.map(
      (repo) =>
        html`<li><label><input type="checkbox" name="repositories" value="${repo.fullName}"> ${repo.fullName}</label></li>`,
    ),
  );
  const installedOn = targets.filter((target) => target.installed).map((target) => target.account.login);
  return page(
    context,
    `Install ${app.name}`,
    html`<h1>Install ${app.name}</h1>
${problem ? html`<p class="error" role="alert">${problem}</p>` : ""}
${installedOn.length ? html`<p>Installed already on ${installedOn.join(", ")}.</p>` : ""}
${
  open.length === 0
    ? html`<p>There is no account left to install it on.</p>`
    : html`<form method="post" action="/console/apps/${app.slug}/installations/new">${csrfField(context)}
  <fieldset><legend>Install on</legend>${accounts}</fieldset>
  <fieldset><legend>Repository access</legend>
    <label><input type="radio" name="selection" value="all" checked> All repositories</label>
    <label><input type="radio" name="selection" value="selected"> Only select repositories</label>
    <ul class="repositories">${repositories}</ul>
  </fieldset>
  <p><button class="primary" type="submit">Install</button></p>
</form>`
}`,
  );
}

export function appInstalledPage(context: PageContext, app: AppRow, installation: InstallationRow, login: string) {
  const on =
    installation.repositorySelection === "all"
      ? "all of its repositories"
      : `${installation.repositoryIds.length} selected ${installation.repositoryIds.length === 1 ? "repository" : "repositories"}`;
  return page(
    context,
    `${app.name} installed`,
    html`<h1>${app.name} is installed on ${login}</h1><p>Installation ${installation.id}, on ${on}.</p>`,
  );
}
