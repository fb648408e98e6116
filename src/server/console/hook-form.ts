/**
 * The "Add webhook" form: payload URL, content type, secret, events (each by name, or "Send me everything") and
 * "Active", with the problem of a refused submission above it and the values given kept in it.
 */
import { DEFAULT_EVENTS, WEBHOOK_EVENTS } from "../services/hook-input.js";
import { WEBHOOK_EVENT_NAMES } from "../../api/webhook-events.js";
import { html, type Html } from "./html.js";
import { csrfField, type PageContext } from "./layout.js";

export interface HookFormValues {
  url: string;
  contentType: string;
  events: readonly string[];
  active: boolean;
}

/** GitHub's form starts with pushes only, active. The secret is never echoed back into a page. */
export const EMPTY_HOOK_FORM: HookFormValues = { url: "", contentType: "json", events: DEFAULT_EVENTS, active: true };

/** Every event name but `*`, which is the "Send me everything" box. */
const EVENT_NAMES = [...WEBHOOK_EVENTS].filter((name) => name !== "*").sort();

/**
 * The names feedgate ever delivers: those its stored event types map to. A hook may subscribe to any name GitHub
 * knows (a client written for GitHub sends them), but the rest never arrive, so the form says which these are.
 */
const SENT_EVENTS: ReadonlySet<string> = new Set(Object.values(WEBHOOK_EVENT_NAMES));
const SENT_MARKER = "sent by feedgate";

/** The form's fields as the route reads them; the secret apart, as it is not kept. */
export function readHookForm(body: URLSearchParams): HookFormValues & { secret: string } {
  return {
    url: (body.get("url") ?? "").trim(),
    contentType: body.get("content_type") ?? "",
    secret: body.get("secret") ?? "",
    events: body.getAll("events"),
    active: body.has("active"),
  };
}

/** A checkbox and its label on one row; `marker`, when given, is text after the label that describes the box. */
function box(
  id: string,
  name: string,
  value: string,
  label: string,
  checked: boolean,
  describedBy: string | null = null,
  marker: Html | string = "",
): Html {
  return html`<span class="check"><input type="checkbox" id="${id}" name="${name}" value="${value}"${checked ? html` checked` : ""}${describedBy ? html` aria-describedby="${describedBy}"` : ""}>
    <span><label for="${id}">${label}</label>${marker}</span></span>`;
}

/** An event's box, marked (in words, not only colour) when feedgate sends that event. */
function eventBox(name: string, checked: boolean): Html {
  const id = `hook-event-${name}`;
  if (!SENT_EVENTS.has(name)) return box(id, "events", name, name, checked);
  return box(
    id,
    "events",
    name,
    name,
    checked,
    `${id}-sent`,
    html` <span class="sent" id="${id}-sent">${SENT_MARKER}</span>`,
  );
}

export function hookForm(context: PageContext, action: string, values: HookFormValues, problem: string | null): Html {
  const option = (value: string, label: string) =>
    html`<option value="${value}"${values.contentType === value ? html` selected` : ""}>${label}</option>`;
  return html`<section aria-labelledby="add-webhook-heading">
<h2 id="add-webhook-heading">Add webhook</h2>
${problem ? html`<p class="error" role="alert">${problem}</p>` : ""}
<form method="post" action="${action}">${csrfField(context)}
  <label for="hook-url">Payload URL</label>
  <input id="hook-url" name="url" type="url" required value="${values.url}" placeholder="https://example.com/postreceive">
  <label for="hook-content-type">Content type</label>
  <select id="hook-content-type" name="content_type">${option("json", "application/json")}${option("form", "application/x-www-form-urlencoded")}</select>
  <label for="hook-secret">Secret</label>
  <input id="hook-secret" name="secret" type="password" autocomplete="new-password" aria-describedby="hook-secret-hint">
  <span class="hint" id="hook-secret-hint">Signs each delivery (X-Hub-Signature-256); stored sealed, never shown again.</span>
  <fieldset><legend>Events</legend>
    <p class="hint">Feedgate sends the events marked “${SENT_MARKER}”, made from the events it stores (and a
      <code>ping</code> when an active hook is added). The others are accepted, as GitHub accepts them, but never sent.</p>
    <p>${box("hook-event-all", "events", "*", "Send me everything", values.events.includes("*"))}</p>
    <div class="checks">${EVENT_NAMES.map((name) => eventBox(name, values.events.includes(name)))}</div>
  </fieldset>
  <p>${box("hook-active", "active", "1", "Active", values.active, "hook-active-hint")}
    <span class="hint" id="hook-active-hint">Deliver events to this hook.</span></p>
  <p><button class="primary" type="submit">Add webhook</button></p>
</form>
</section>`;
}
