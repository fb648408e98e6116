/**
 * What feedgate serves validates against GitHub's published schemas (../shared/data/openapi/: event,
 * issue-event, authorization), with payloads exempt and the by-design differences of schemas.ts BY_DESIGN.
 *
 * The world: the client world (partial envelopes that feedgate completes), 2,300 real events (the GH Archive
 * sample of 2021 and the events octokit.rb and PyGithub recorded from api.github.com in 2012-2020, stored
 * verbatim), the recorded issue events, and authorizations created through the API. Three checks:
 * - envelopes feedgate makes validate, with no exception;
 * - a real event or issue event fails only where GitHub's own recorded response already failed (bot logins
 *   such as `dependabot[bot]` make URLs that are not RFC 3986 URIs, and 2012 events about no repository have a
 *   `repo` without id): feedgate adds no failure of its own;
 * - against GitHub's schema as published, every failure is explained by one BY_DESIGN entry or is GitHub's own,
 *   and every BY_DESIGN entry explains at least one: the list is exact, neither stale nor missing anything.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { ErrorObject } from "ajv";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";
import { ALICE, WORLD } from "../helpers/client-world.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { SHARED_DATA } from "./clients.js";
import { BY_DESIGN, githubSchemaErrors, schemaErrors, type ByDesign, type SchemaName } from "./schemas.js";
import { FEEDS } from "./feeds.js";

type Json = Record<string, unknown>;

interface Served {
  schema: SchemaName;
  item: Json;
  /** What GitHub itself sent for this item, when it came from recorded data. */
  original?: Json;
  where: string;
}

const ndjson = (path: string) =>
  readFileSync(new URL(path, SHARED_DATA), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Json);

const REAL_EVENTS = [
  "gharchive/2021-07-21-sample.ndjson",
  "recorded/octokit-rb/events.ndjson",
  "recorded/pygithub/events.ndjson",
];
const REAL_ISSUE_EVENTS = ["recorded/octokit-rb/issue_events.ndjson", "recorded/pygithub/issue_events.ndjson"];
/** A recorded issue event names its repository only in its URL; the world file wants it as `repo`. */
const repoOf = (issueEvent: Json) => /\/repos\/([^/]+\/[^/]+)\/issues\/events\//.exec(String(issueEvent.url))?.[1];

const key = (e: ErrorObject) => `${e.instancePath} ${e.keyword} ${JSON.stringify(e.params)}`;

/** Whether a BY_DESIGN entry accounts for an error of GitHub's schema as published. */
function explains(entry: ByDesign, schema: SchemaName, error: ErrorObject): boolean {
  if (entry.schema !== schema) return false;
  const path = entry.at.map((k) => `/${k}`).join("");
  const at = error.instancePath === path;
  const below = error.instancePath.startsWith(`${path}/`);
  const missing = (error.params as { missingProperty?: string }).missingProperty;
  // A nullable object fails as "not null" and "none of the alternatives" beside its own complaints.
  const nullableWrapper = at && path !== "" && (error.keyword === "type" || error.keyword === "anyOf");
  const { change } = entry;
  if ("replace" in change) return at || below;
  if ("required" in change)
    return at && ((error.keyword === "required" && !change.required.includes(missing!)) || nullableWrapper);
  const child = error.instancePath.slice(path.length + 1).split("/")[0]!;
  return (
    (at && ((error.keyword === "required" && !change.only.includes(missing!)) || nullableWrapper)) ||
    (below && !change.only.includes(child))
  );
}

describe("GitHub's published schemas", () => {
  let t: TestApp;
  const served: Served[] = [];

  async function collect(path: string, schema: SchemaName, originals: Map<string, Json>, authorization?: string) {
    for (let page = 1; ; page++) {
      const res = await t.app.inject({
        method: "GET",
        url: `${path}${path.includes("?") ? "&" : "?"}per_page=100&page=${page}`,
        headers: authorization ? { authorization } : {},
      });
      assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
      const items = res.json() as Json[];
      if (items.length === 0) return;
      for (const item of items)
        served.push({ schema, item, original: originals.get(String(item.id)), where: `${path} ${String(item.id)}` });
    }
  }

  before(async () => {
    t = await startTestApp({ baseUrl: "https://feedgate.example", rateLimitAnonymous: 100_000 });
    const ingest = new IngestService(t.store, t.clock.now);
    await ingest.seedWorld(WORLD, { baseDir: undefined });
    const events = new Map(REAL_EVENTS.flatMap(ndjson).map((e) => [String(e.id), e]));
    await ingest.ingestEvents([...events.values()]);
    // Issue events recorded from /issues/:number/events carry no `issue`; feedgate's feed lists the repository's.
    const issueEvents = new Map(
      REAL_ISSUE_EVENTS.flatMap(ndjson)
        .filter((e) => e.issue)
        .map((e) => [String(e.id), e]),
    );
    await ingest.seedWorld(
      { issue_events: [...issueEvents.values()].map((e) => ({ ...e, repo: repoOf(e) })) },
      { baseDir: undefined },
    );

    const alice = basic(ALICE.login, ALICE.password);
    const none = new Map<string, Json>();
    for (const feed of FEEDS) {
      const { user, repo, org } = feed.params;
      const path = {
        get: "/events",
        getFromRepo: `/repos/${user}/${repo}/events`,
        getFromRepoIssues: `/repos/${user}/${repo}/issues/events`,
        getFromRepoNetwork: `/networks/${user}/${repo}/events`,
        getFromOrg: `/orgs/${org}/events`,
        getReceived: `/users/${user}/received_events`,
        getReceivedPublic: `/users/${user}/received_events/public`,
        getFromUser: `/users/${user}/events`,
        getFromUserPublic: `/users/${user}/events/public`,
        getFromUserOrg: `/users/${user}/events/orgs/${org}`,
      }[feed.operation];
      await collect(path, feed.schema, feed.operation === "get" ? events : none, alice);
    }
    for (const repo of new Set([...issueEvents.values()].map(repoOf)))
      await collect(`/repos/${repo}/issues/events`, "issue-event", issueEvents);

    const created = await t.app.inject({
      method: "POST",
      url: "/authorizations",
      headers: { authorization: alice },
      payload: {
        scopes: ["repo", "gist"],
        note: "schemas",
        note_url: "https://example.com/schemas",
        fingerprint: "fp",
        expires_at: "2026-02-14T10:00:00Z",
      },
    });
    assert.equal(created.statusCode, 201);
    served.push({ schema: "authorization", item: created.json() as Json, where: "POST /authorizations" });
    const updated = await t.app.inject({
      method: "PATCH",
      url: `/authorizations/${String((created.json() as Json).id)}`,
      headers: { authorization: alice },
      payload: { note: null, note_url: null, fingerprint: null },
    });
    served.push({ schema: "authorization", item: updated.json() as Json, where: "PATCH /authorizations/:id" });
    const listed = await t.app.inject({ method: "GET", url: "/authorizations", headers: { authorization: alice } });
    for (const item of listed.json() as Json[])
      served.push({ schema: "authorization", item, where: `GET /authorizations ${String(item.id)}` });
  });
  after(() => t.close());

  test("the world serves every kind: feedgate-made events, issue events and authorizations, and real ones", () => {
    const kinds = new Set(served.map((s) => `${s.schema} ${s.original ? "real" : "made"}`));
    assert.deepEqual([...kinds].sort(), [
      "authorization made",
      "event made",
      "event real",
      "issue-event made",
      "issue-event real",
    ]);
    assert.ok(served.filter((s) => s.original).length > 2000);
  });

  test("envelopes feedgate makes validate", () => {
    const failures = served
      .filter((s) => !s.original)
      .flatMap((s) => schemaErrors(s.schema, s.item).map((e) => `${s.where} ${e}`));
    assert.deepEqual(failures, []);
  });

  test("real events and issue events fail only where GitHub's own response failed", (t) => {
    const own = new Map<string, number>();
    const added: string[] = [];
    for (const s of served.filter((x) => x.original)) {
      const theirs = new Set(schemaErrors(s.schema, { ...s.original, id: String(s.original!.id) }));
      for (const error of schemaErrors(s.schema, s.item)) {
        if (theirs.has(error)) own.set(error, (own.get(error) ?? 0) + 1);
        else added.push(`${s.where} ${error}`);
      }
    }
    assert.deepEqual(added, []);
    for (const [error, count] of own) t.diagnostic(`GitHub's own, ${count}x: ${error}`);
  });

  test("every failure of GitHub's schema as published is a BY_DESIGN entry's or GitHub's own; every entry is needed", () => {
    const unexplained: string[] = [];
    const used = new Set<ByDesign>();
    for (const s of served) {
      const theirs = s.original ? new Set(githubSchemaErrors(s.schema, { ...s.original }).map(key)) : new Set<string>();
      for (const error of githubSchemaErrors(s.schema, s.item)) {
        const entries = BY_DESIGN.filter((entry) => explains(entry, s.schema, error));
        for (const entry of entries) used.add(entry);
        if (entries.length === 0 && !theirs.has(key(error))) unexplained.push(`${s.where} ${key(error)}`);
      }
    }
    assert.deepEqual(unexplained, []);
    assert.deepEqual(
      BY_DESIGN.filter((entry) => !used.has(entry)).map((e) => `${e.schema} ${e.at.join(".") || "(root)"}`),
      [],
    );
  });
});
