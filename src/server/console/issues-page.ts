/** A repository's Issues page: its open issues, newest first, each with its number, title, author, labels and age. */
import type { IssueFacts } from "../convert/issue.js";
import { html } from "./html.js";
import { page, type PageContext } from "./layout.js";
import { userHref } from "./event-sentence.js";

export interface IssuesPageView {
  fullName: string;
  /** The repository's activity page, which links here. */
  repoPath: string;
  issues: IssueFacts[];
  /** Open issues in all, of which `issues` is the first page. */
  total: number;
}

export function issuesPage(context: PageContext, view: IssuesPageView): string {
  const { fullName, issues } = view;
  return page(
    context,
    `Issues · ${fullName}`,
    html`<h1>Issues</h1>
<p><a href="${view.repoPath}">${fullName}</a>: ${view.total} open ${view.total === 1 ? "issue" : "issues"}${
      issues.length < view.total ? html`, the ${issues.length} newest shown` : ""
    }.</p>
${
  issues.length === 0
    ? html`<p class="hint">No open issues.</p>`
    : html`<table>
  <thead><tr><th scope="col">#</th><th scope="col">Title</th><th scope="col">Opened by</th><th scope="col">Labels</th>
    <th scope="col">Opened</th><th scope="col">Comments</th></tr></thead>
  <tbody>${issues.map(
    ({ issue, author, labels }) => html`<tr><td>${issue.number}</td><th scope="row">${issue.title}</th>
    <td><a href="${userHref(author.login)}">${author.login}</a></td><td>${labels.map((l) => l.name).join(", ")}</td>
    <td><time datetime="${issue.createdAt.toISOString()}">${issue.createdAt.toISOString().slice(0, 10)}</time></td>
    <td>${issue.comments}</td></tr>`,
  )}</tbody>
</table>`
}`,
  );
}
