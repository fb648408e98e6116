/**
 * GH Archive-style events for tests to ingest, with the envelope given partially as a world file, an import or
 * `POST /admin/events` may give it: the ingest completes the rest (GitHub's ids and urls, an empty payload,
 * `public: true`), so a test names only what it is about and passes anything else in `extra`.
 */

/** The day of the GH Archive sample (demo/2021-07-21-sample.ndjson.gz): an event's time unless given. */
export const ARCHIVE_TIME = "2021-07-21T10:00:00Z";

/** GitHub's time format (whole seconds, no fraction) for `minutes` after `start`. */
export const minutesAfter = (start: string, minutes: number) =>
  new Date(Date.parse(start) + minutes * 60_000).toISOString().replace(".000Z", "Z");

/** An event by `actor` on `repo`; `extra` adds fields or replaces any of these. */
// `{} as Extra`: with no extra given, Extra is its default, the empty object type.
export function event<Extra extends object = Record<never, never>>(
  id: string | number,
  type: string,
  actor: string,
  repo: string,
  extra: Extra = {} as Extra,
) {
  return { id: String(id), type, actor: { login: actor }, repo: { name: repo }, created_at: ARCHIVE_TIME, ...extra };
}

/**
 * A repository's issue event as a world file gives it (`repo` says where it belongs); `actor` null for GitHub's
 * events without one. The id is kept as given: tests of id handling pass numbers and zero-padded strings.
 */
export function issueEvent<Extra extends object = Record<never, never>>(
  repo: string,
  id: string | number,
  action: string,
  actor: string | null,
  extra: Extra = {} as Extra,
) {
  return {
    repo,
    id,
    event: action,
    actor: actor === null ? null : { login: actor },
    created_at: ARCHIVE_TIME,
    issue: { title: `Issue ${id}`, number: 1, state: "closed" },
    ...extra,
  };
}
