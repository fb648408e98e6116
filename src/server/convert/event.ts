/**
 * Stored events -> the wire JSON array. Complete events are emitted exactly as stored, without parsing;
 * envelopes given partially (`{"login": "bob"}`) get the ids and URLs GitHub always sends.
 */
import type { StoredEvent } from "../store/store.js";

type Json = Record<string, unknown>;

/** feedgate hosts no pictures; GitHub's identicon service draws one for any login. */
export const avatarOf = (login: string) => `https://github.com/identicons/${encodeURIComponent(login)}.png`;

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

/** The page as one JSON array text. */
export function toWireEventsJson(rows: StoredEvent[], baseUrl: string): string {
  return `[${rows.map((row) => (row.complete ? row.body : completed(row, baseUrl))).join(",")}]`;
}
