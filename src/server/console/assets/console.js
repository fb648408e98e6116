// The console's one script (the Content-Security-Policy allows no other, and no inline script): small enhancements
// of pages that work without it.

// "Copy" buttons: copy the text of the element their data-copy names.
for (const button of document.querySelectorAll("button[data-copy]")) {
  button.addEventListener("click", async () => {
    const source = document.getElementById(button.dataset.copy);
    if (!source) return;
    try {
      await navigator.clipboard.writeText(source.textContent.trim());
      button.textContent = "Copied";
    } catch {
      // No clipboard permission: select the text so the keyboard can copy it.
      getSelection().selectAllChildren(source);
    }
  });
}

// Activity pages: events rendered as the server's activity-page.ts item() renders them, built with textContent and
// attributes only: items arrive as JSON (sentence segments), never as markup.
function activityItem(event) {
  const make = (tag, className, text) => {
    const element = document.createElement(tag);
    if (className) element.className = className;
    if (text !== undefined) element.textContent = text;
    return element;
  };
  const link = (segment) => Object.assign(make("a", "", segment.text), { href: segment.href });
  const li = make("li");
  li.dataset.id = event.id;
  const sentence = make("p", "sentence");
  for (const segment of event.sentence) sentence.append(typeof segment === "string" ? segment : link(segment));
  const meta = make("p", "meta");
  const time = make("time", "", event.ago);
  time.dateTime = event.at;
  time.title = event.at;
  meta.append(time, " · ", make("span", "type", event.type));
  if (event.org) meta.append(" · in ", link(event.org));
  li.append(sentence, meta);
  return li;
}

const events = document.getElementById("events");
const status = document.getElementById("live-status");

// New events at the top as they are stored: the page's feed on an EventSource, authenticated by the session cookie.
// EventSource reconnects by itself with Last-Event-ID, and the server replays what the page missed.
if (events?.dataset.stream && "EventSource" in window) {
  const wanted = events.dataset.type;
  const source = new EventSource(events.dataset.stream);
  source.addEventListener("open", () => {
    status.textContent = "Live: new events appear at the top.";
  });
  // A refused stream (the session ended: 401) is closed for good; a dropped one reconnects by itself.
  source.addEventListener("error", () => {
    status.textContent =
      source.readyState === EventSource.CLOSED
        ? "Live updates stopped; reload the page."
        : "Live updates paused; reconnecting.";
  });
  // Away too long for the server to replay all it missed (--stream-replay-max): the page has a hole; a reload fills it.
  source.addEventListener("gap", () => {
    status.textContent = "Some events were missed while reconnecting: reload the page to see them.";
  });
  source.addEventListener("activity", (message) => {
    const event = JSON.parse(message.data);
    if (wanted && event.type !== wanted) return;
    if (events.querySelector(`li[data-id="${CSS.escape(event.id)}"]`)) return;
    document.getElementById("no-events")?.remove();
    events.prepend(activityItem(event));
  });
}

// "Load more" in place: the next page's items as JSON, appended; the link then points at the page after.
const more = document.getElementById("load-more");
if (events && more) {
  more.addEventListener("click", async (click) => {
    click.preventDefault();
    const answer = await fetch(more.dataset.items, { headers: { accept: "application/json" } });
    if (!answer.ok) {
      location.href = more.href;
      return;
    }
    const page = await answer.json();
    for (const event of page.items)
      if (!events.querySelector(`li[data-id="${CSS.escape(event.id)}"]`)) events.append(activityItem(event));
    if (page.next === null) {
      more.remove();
      return;
    }
    for (const attribute of ["href", "data-items"]) {
      const url = new URL(more.getAttribute(attribute), location.href);
      url.searchParams.set("page", String(page.next));
      more.setAttribute(attribute, url.pathname + url.search);
    }
  });
}
