/**
 * An activity page: a heading, the type filter, the events as a timeline (newest first), and "Load more". Without
 * script it is complete: the filter is a GET form, "Load more" a link to `?page=N`. console.js adds the live stream
 * (the list's data-stream) and loads more in place (the link's data-items), rendering items as item() does here.
 */
import type { ActivityItem } from "./activity-item.js";
import type { ItemsPage } from "./activity-feed.js";
import { EVENT_TYPES, type Segment } from "./event-sentence.js";
import { html, type Html } from "./html.js";
import { page, type PageContext } from "./layout.js";

const segment = (s: Segment) => (typeof s === "string" ? s : html`<a href="${s.href}">${s.text}</a>`);

/** One event. console.js builds the same markup for events that arrive live or by "Load more". */
export function item(event: ActivityItem): Html {
  return html`<li data-id="${event.id}"><p class="sentence">${event.sentence.map(segment)}</p>
  <p class="meta"><time datetime="${event.at}" title="${event.at}">${event.ago}</time> · <span class="type">${event.type}</span>${
    event.org ? html` · in <a href="${event.org.href}">${event.org.text}</a>` : ""
  }</p></li>`;
}

export interface ActivityPageOptions {
  /** The page's h1, and its title. */
  heading: string;
  /** One line under the heading: which feed this is. */
  description: string;
  /** The page's URL path, without query. */
  path: string;
  type: string | null;
  /** Links to pages about the same thing (a repository's Webhooks). */
  related?: { href: string; text: string }[];
}

const query = (type: string | null, page: number) =>
  `?${new URLSearchParams({ ...(type ? { type } : {}), page: String(page) })}`;

function filter(options: ActivityPageOptions): Html {
  return html`<form method="get" action="${options.path}" class="filter">
  <label for="type">Event type</label>
  <select id="type" name="type"><option value="">All types</option>${EVENT_TYPES.map(
    (type) => html`<option value="${type}"${type === options.type ? html` selected` : ""}>${type}</option>`,
  )}</select>
  <button type="submit">Filter</button>
</form>`;
}

export function activityPage(context: PageContext, options: ActivityPageOptions, first: ItemsPage): string {
  const { path, type } = options;
  const list = html`<ol class="events" id="events" aria-label="Events, newest first" data-stream="${path}/stream"${
    type ? html` data-type="${type}"` : ""
  }>${first.items.map(item)}</ol>`;
  const empty =
    first.items.length === 0 ? html`<p id="no-events">No events${type ? html` of type ${type}` : ""} yet.</p>` : "";
  const more =
    first.next === null
      ? ""
      : html`<p><a class="button" id="load-more" href="${path}${query(type, first.next)}"
    data-items="${path}/items${query(type, first.next)}">Load more</a></p>`;
  const truncated = first.truncated ? html`<p class="hint">The filter looked at the most recent events only.</p>` : "";
  return page(
    context,
    options.heading,
    html`<h1>${options.heading}</h1>
<p class="hint">${options.description}</p>
${options.related?.length ? html`<p>${options.related.map((link) => html`<a href="${link.href}">${link.text}</a> `)}</p>` : ""}
${filter(options)}
<p class="hint" id="live-status" role="status" aria-live="polite"></p>
${empty}${list}${more}${truncated}`,
  );
}
