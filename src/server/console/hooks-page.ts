/**
 * The Webhooks page of a repository: its hooks with their last response (and, for one --webhook-disable-after turned
 * off, when and why), each hook's recent deliveries (request and response behind a disclosure, with "Redeliver"), the
 * "Redeliver failed deliveries" form (every failure since a time, at once), and the "Add webhook" form (hook-form.ts).
 */
import type { DeliveryRow, HookRow } from "../store/hook-store.js";
import { html, type Html } from "./html.js";
import { hookForm, type HookFormValues } from "./hook-form.js";
import { csrfField, page, type PageContext } from "./layout.js";

/** A hook with the deliveries the page shows for it, newest first. */
export interface ShownHook {
  hook: HookRow;
  deliveries: DeliveryRow[];
}

const time = (d: Date) =>
  html`<time datetime="${d.toISOString()}">${d.toISOString().slice(0, 19).replace("T", " ")} UTC</time>`;

/** `/console/repos/:owner/:repo/hooks`: where every form of the page posts under. */
export const hooksPath = (fullName: string) =>
  `/console/repos/${fullName.split("/").map(encodeURIComponent).join("/")}/hooks`;

/** GitHub's `last_response`: the code and message of the last delivery, its status word ("active", "unused") aside. */
function lastResponse(hook: HookRow): Html {
  const { code, status, message } = hook.lastResponse;
  if (code === null && !message) return html`none yet <span class="hint">(${status})</span>`;
  return html`${code === null ? "" : html`<code>${code}</code> `}${message ?? ""} <span class="hint">(${status})</span>`;
}

const headerLines = (headers: Record<string, string>) =>
  Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n");

/** The payload as sent, pretty-printed when it is JSON (a form-encoded hook's is not). */
function payloadText(payload: string | null): string {
  if (payload === null || payload === "") return "(empty)";
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

function deliveryRow(base: string, hook: HookRow, d: DeliveryRow, context: PageContext): Html {
  const ok = d.statusCode >= 200 && d.statusCode < 300;
  return html`<tr>
  <td><span class="${ok ? "ok" : "failed"}">${d.statusCode || "—"}</span> ${d.status}</td>
  <td>${d.event}${d.action ? `.${d.action}` : ""}${d.redelivery ? html` <span class="hint">(redelivery)</span>` : ""}</td>
  <td>${time(d.deliveredAt)}</td><td>${Math.round(d.duration * 1000)} ms</td>
  <td><details><summary>Request and response <span class="visually-hidden">of delivery ${d.guid}</span></summary>
    <h4>Request</h4><pre>${headerLines(d.request.headers)}\n\n${payloadText(d.request.payload)}</pre>
    <h4>Response</h4><pre>${headerLines(d.response.headers)}\n\n${payloadText(d.response.payload)}</pre></details></td>
  <td><form method="post" action="${base}/${hook.id}/deliveries/${d.id}/redeliver">${csrfField(context)}
    <button type="submit" aria-label="Redeliver ${d.event} delivery ${d.guid}">Redeliver</button></form></td>
</tr>`;
}

/** What the bulk redelivery form shows: the window given, and what the last submission did or why it was refused. */
export interface BulkRedelivery {
  since: string;
  problem: string | null;
  /** A notice after a submission that queued deliveries. */
  done: string | null;
}

export const EMPTY_BULK: BulkRedelivery = { since: "2h", problem: null, done: null };

function bulkForm(base: string, bulk: BulkRedelivery, context: PageContext): Html {
  return html`<section aria-labelledby="bulk-heading">
<h2 id="bulk-heading">Redeliver failed deliveries</h2>
${bulk.done ? html`<p class="notice" role="status">${bulk.done}</p>` : ""}
${bulk.problem ? html`<p class="error" role="alert">${bulk.problem}</p>` : ""}
<form method="post" action="${base}/redeliver-failed">${csrfField(context)}
  <label for="bulk-since">Failed since</label>
  <input id="bulk-since" name="since" value="${bulk.since}" aria-describedby="bulk-since-hint" required>
  <p class="hint" id="bulk-since-hint">A duration back from now (30m, 2h, 7d) or an ISO 8601 time. Every delivery of this
    repository's hooks that failed since then is queued again, once; one delivered since, or already queued, is not.</p>
  <button type="submit">Redeliver failed deliveries</button>
</form></section>`;
}

/** "Active", "Inactive", or, for a hook turned off for failing, when and why (it stays off until made active again). */
function state(hook: HookRow): Html {
  if (hook.active) {
    return hook.failingSince
      ? html`Active <span class="failed">(failing since ${time(hook.failingSince)})</span>`
      : html`Active`;
  }
  if (!hook.disabled) return html`Inactive`;
  return html`<strong class="failed">Disabled</strong> ${time(hook.disabled.at)}: ${hook.disabled.reason}`;
}

function hookSection(base: string, { hook, deliveries }: ShownHook, context: PageContext): Html {
  const table =
    deliveries.length === 0
      ? html`<p>No deliveries yet.</p>`
      : html`<table>
  <caption class="hint">Recent deliveries to ${hook.config.url}</caption>
  <thead><tr><th scope="col">Status</th><th scope="col">Event</th><th scope="col">Delivered</th>
    <th scope="col">Duration</th><th scope="col">Details</th><th scope="col">Actions</th></tr></thead>
  <tbody>${deliveries.map((d) => deliveryRow(base, hook, d, context))}</tbody></table>`;
  return html`<section class="hook" id="hook-${hook.id}" aria-labelledby="hook-${hook.id}-heading">
  <h2 id="hook-${hook.id}-heading"><code>${hook.config.url}</code></h2>
  <p class="meta">${state(hook)} · ${hook.config.contentType === "json" ? "application/json" : "application/x-www-form-urlencoded"}
    · ${hook.config.sealedSecret ? "secret set" : "no secret"} · events: ${hook.events.join(", ") || "(none)"}</p>
  <p>Last response: ${lastResponse(hook)}</p>
  <h3>Recent deliveries</h3>
  ${table}
</section>`;
}

export function hooksPage(
  context: PageContext,
  fullName: string,
  hooks: ShownHook[],
  values: HookFormValues,
  problem: string | null,
  bulk: BulkRedelivery = EMPTY_BULK,
): string {
  const base = hooksPath(fullName);
  return page(
    context,
    `Webhooks · ${fullName}`,
    html`<h1>Webhooks</h1>
<p class="meta">Repository <strong>${fullName}</strong></p>
${hooks.length === 0 ? html`<p>No webhooks yet.</p>` : [...hooks.map((shown) => hookSection(base, shown, context)), bulkForm(base, bulk, context)]}
${hookForm(context, base, values, problem)}`,
  );
}
