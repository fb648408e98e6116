/**
 * Stored events -> the wire JSON array. Complete events are emitted exactly as stored, without parsing;
 * envelopes given partially (`{"login": "bob"}`) get the ids and URLs GitHub always sends.
 */
import type { StoredEvent } from "../store/store.js";
import { avatarOf } from "./urls.js";

type Json = Record<string, unknown>;

function account(given: Json, wireId: number | null, urlPath: string, baseUrl: string): Json {
  const login = String(given.login);
  return {
    id: wireId,
    login,
    gravatar_id: "",
    url: `${baseUrl}/${urlPath}/${login}`,
    avatar_url: avatarOf(login),
    ...given,
  };
}

function completed(row: StoredEvent, baseUrl: string): string {
  const event = JSON.parse(row.body) as Json;
  if (event.actor && typeof event.actor === "object") {
    event.actor = account(event.actor as Json, row.actorWireId, "users", baseUrl);
  }
  // No wire id: the event concerns no repository (GitHub's `{"name": "/"}`), and its `repo` stays as sent.
  if (event.repo && typeof event.repo === "object" && row.repoWireId !== null) {
    const repo = event.repo as Json;
    event.repo = { id: row.repoWireId, name: repo.name, url: `${baseUrl}/repos/${String(repo.name)}`, ...repo };
  }
  if (event.org && typeof event.org === "object") {
    event.org = account(event.org as Json, row.orgWireId, "orgs", baseUrl);
  }
  return JSON.stringify(event);
}

/**
 * The object's top-level `id` as a JSON integer, as GitHub sent issue-event ids (`--numeric-ids`). The digits are
 * written as stored (ids are validated as up to 18 digits at ingest), not through a JavaScript number, so an id past
 * 2^53 keeps its value on the wire; leading zeros go, JSON integers have none.
 */
function withIntegerId(json: string): string {
  const object = JSON.parse(json) as Json;
  const members = Object.entries(object).map(
    ([key, value]) =>
      `${JSON.stringify(key)}:${
        key === "id" && typeof value === "string" && /^[0-9]+$/.test(value)
          ? value.replace(/^0+(?=[0-9])/, "")
          : JSON.stringify(value)
      }`,
  );
  return `{${members.join(",")}}`;
}

/**
 * The page as the UTF-8 bytes of one JSON array, each event's text written into the buffer in its place, rather than
 * joined into one large string and encoded again: on a live feed every ingest makes its pages again.
 * @param integerIds ids as JSON integers: issue events on a `--numeric-ids` server (event ids stay strings).
 */
export function toWireEventsBytes(rows: StoredEvent[], baseUrl: string, integerIds = false): Buffer {
  const texts = rows.map((row) => toWireEventJson(row, baseUrl, integerIds));
  // The brackets, and a comma between two events.
  let length = 2 + Math.max(0, texts.length - 1);
  for (const text of texts) length += Buffer.byteLength(text);
  const bytes = Buffer.allocUnsafe(length);
  let at = bytes.write("[");
  texts.forEach((text, i) => {
    if (i > 0) at += bytes.write(",", at);
    at += bytes.write(text, at);
  });
  bytes.write("]", at);
  return bytes;
}

/** One event's JSON text, as a page of its feed holds it (a live stream's `data`). */
export function toWireEventJson(row: StoredEvent, baseUrl: string, integerIds = false): string {
  const json = row.complete ? row.body : completed(row, baseUrl);
  return integerIds ? withIntegerId(json) : json;
}
