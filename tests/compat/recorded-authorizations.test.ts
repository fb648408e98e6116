/**
 * Real GitHub responses of the authorizations family replayed against feedgate: every `/authorizations`
 * interaction octokit.rb recorded from api.github.com (../shared/data/recorded/octokit-rb/interactions.json,
 * 2013-2018: POST 201, GET one and the list, PATCH, DELETE 204, and the PUT get-or-create endpoints).
 *
 * Each cassette (one spec's recording) is replayed in order on a fresh app, as one user with a password: the
 * ids GitHub returned are mapped to the ids feedgate returned, so a GET or DELETE after a POST names the created
 * authorization. Request bodies were not recorded; REQUEST_BODIES gives what octokit.rb's spec sent. A recorded
 * list is replayed over a world holding the authorizations of that page (and one more when GitHub offered a
 * next page). What feedgate did differently (status, headers GitHub sent, body keys, id type, the token shown,
 * the fields that were asked for) is computed as sentences, which must equal KNOWN_DIFFERENCES for that
 * interaction, each with its reason: a difference not listed fails, and so does a listed one that is gone.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import type { LightMyRequestResponse } from "fastify";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";
import { headersOf, loadInteractions, type Interaction } from "../helpers/recorded.js";
import { assertSchema } from "./schemas.js";
import { each, isObject, keyDifference, type Json, type KnownDifference } from "../helpers/assertions.js";

const LOGIN = "octokit-user";
const PASSWORD = "recorded-password";

/**
 * Headers of GitHub's HTTPS front end and transport that are no part of the REST interface; every other header
 * GitHub sent must be sent by feedgate too (it may send more).
 */
const NOT_COMPARED: Record<string, string> = {
  server: "names the server software",
  date: "the time of the recording",
  "content-length": "framing: Node chooses Content-Length or chunked transfer",
  "transfer-encoding": "framing: Node chooses Content-Length or chunked transfer",
  connection: "hop-by-hop, set by Node's HTTP server",
  "strict-transport-security": "browser hardening of github.com's HTTPS front end; a deployment's TLS proxy sets it",
  "x-frame-options": "browser hardening of github.com's HTTPS front end; a deployment's TLS proxy sets it",
  "x-xss-protection": "browser hardening of github.com's HTTPS front end; a deployment's TLS proxy sets it",
  "referrer-policy": "browser hardening of github.com's HTTPS front end; a deployment's TLS proxy sets it",
  "content-security-policy": "browser hardening of github.com's HTTPS front end; a deployment's TLS proxy sets it",
  "x-runtime-rack": "GitHub's internal timing",
  "x-served-by": "GitHub's internal host id",
};

/** What octokit.rb's spec sent (spec/octokit/client/authorizations_spec.rb); bodies are not in the recordings. */
const REQUEST_BODIES: { method: string; body: (recorded: Json | null) => Json; why: string }[] = [
  {
    method: "POST",
    why: "create_authorization with the note (and scopes) the response echoes",
    body: (recorded) =>
      Object.fromEntries(
        ["scopes", "note", "note_url", "fingerprint"]
          .filter((key) => recorded?.[key] !== null && recorded?.[key] !== undefined)
          .map((key) => [key, recorded![key]]),
      ),
  },
  {
    method: "PATCH",
    why: "update_authorization(id, add_scopes: ['repo:status'])",
    body: () => ({ add_scopes: ["repo:status"] }),
  },
  {
    method: "PUT",
    why: "create_authorization(idempotent: true, client_id:, client_secret:, scopes: ['gist'])",
    body: () => ({ client_secret: "0".repeat(40), scopes: ["gist"] }),
  },
];

// ---------------------------------------------------------------------------------------------------------------
// Differences that are right by design, as data.

const WHY = {
  getOrCreate:
    "feedgate serves no PUT /authorizations/clients/:client_id[/:fingerprint]: get-or-create mints tokens " +
    "for a registered OAuth application (client_id and client_secret), and feedgate has no applications, so a " +
    "POST /authorizations naming one is 422 (services/authorizations.ts); unknown routes are 404",
  idStrings: "ids on the wire are strings (DESIGN.md; spec 2: `id | string`); GitHub sent numbers",
  writeEtag:
    "feedgate sends ETag only where a conditional request can use it, on a 200 to GET " +
    "(tests/server/conditional.test.ts pins that writes carry none); GitHub's 201 and PATCH 200 had one",
  noContentType:
    "a 204 has no body to describe; node-github 0.2.4 JSON-parses any body declared as JSON and fails " +
    "on the empty one (a 500 InternalServerError for a successful delete), so feedgate sends no Content-Type",
  e1Keys:
    "the 2013-2014 object predates 2015-04-20, when GitHub added hashed_token, token_last_eight and " +
    "fingerprint (wire notes 1.2); feedgate serves the 2015-2020 object",
  expiresAt:
    "the recordings predate 2021, when GitHub's tokens began to expire and the authorization gained " +
    "expires_at (GHES 3.x's schema has it); feedgate serves it, null for a token that never expires",
  e1Token:
    "until 2015-04-20 GitHub showed the full token everywhere; since then only the 201 of its creation does " +
    "(wire notes 1.2), as feedgate does",
  e1Credentials:
    "GitHub dropped Access-Control-Allow-Credentials by 2018 (the 2018 recordings have none); feedgate " +
    "answers CORS with `*` and no credentials, which browsers may not combine with Allow-Credentials anyway",
  listModified:
    "GitHub's 2013 list sent Last-Modified, its 2018 list did not (wire notes 1.6); feedgate follows " +
    "2018 and sends Last-Modified on one authorization only",
  pages:
    "GitHub's account had 171 pages of authorizations; only page 1 was recorded, so the world holds those 30 " +
    "and one more",
} as const;

const POSTS_2018 = [
  "POST /authorizations [Octokit_Client_Tokens/_scopes/checks_the_scopes_on_a_one-off_token.json#0]",
  "POST /authorizations [Octokit_Client_Tokens/_scopes/checks_the_scopes_on_the_current_token.json#0]",
  "POST /authorizations [Octokit_Client_Authorizations/_authorization/returns_a_single_authorization.json#0]",
  "POST /authorizations [Octokit_Client_Authorizations/_create_authorization/without_idempotent_true/creates_a_new_API_authorization_each_time.json#0]",
  "POST /authorizations [Octokit_Client_Authorizations/_create_authorization/without_idempotent_true/creates_a_new_API_authorization_each_time.json#1]",
  "POST /authorizations [Octokit_Client_Authorizations/_create_authorization/without_idempotent_true/creates_a_new_authorization_with_options.json#0]",
  "POST /authorizations [Octokit_Client_Authorizations/_create_authorization/without_idempotent_true/creates_an_API_authorization.json#0]",
  "POST /authorizations [Octokit_Client_Authorizations/_delete_authorization/deletes_an_existing_authorization.json#0]",
  "POST /authorizations [Octokit_Client_Authorizations/_update_authorization/updates_and_existing_authorization.json#0]",
  "POST /authorizations [Octokit_Client_Authorizations/_scopes/checks_the_scopes_on_a_one-off_token.json#0]",
  "POST /authorizations [Octokit_Client_Authorizations/_scopes/checks_the_scopes_on_the_current_token.json#0]",
];
const GET_2018 =
  "GET /authorizations/223759428 [Octokit_Client_Authorizations/_authorization/returns_a_single_authorization.json#1]";
const LIST_2018 =
  "GET /authorizations [Octokit_Client_Authorizations/_authorizations/lists_existing_authorizations.json#0]";
const PATCH_2018 =
  "PATCH /authorizations/223759416 [Octokit_Client_Authorizations/_update_authorization/updates_and_existing_authorization.json#1]";
const DELETE_2018 =
  "DELETE /authorizations/223759426 [Octokit_Client_Authorizations/_delete_authorization/deletes_an_existing_authorization.json#1]";
const LIST_2013 =
  "GET /authorizations [Octokit_Client_Authorizations/_authorizations/when_use_manual_pagination/lists_existing_authorizations.json#0]";
const POST_2013 = "POST /authorizations [delete_authorization.json#0]";
const DELETE_2013 = "DELETE /authorizations/2875491 [delete_authorization.json#1]";
const PUTS = [
  "PUT /authorizations/clients/<GITHUB_CLIENT_ID>/jklmnop12345678 [Octokit_Client_Authorizations/_create_authorization/with_idempotent_true/creates_a_new_authorization_with_fingerprint.json#0]",
  "PUT /authorizations/clients/<GITHUB_CLIENT_ID> [Octokit_Client_Authorizations/_create_authorization/with_idempotent_true/creates_a_new_authorization_with_options.json#0]",
  "PUT /authorizations/clients/<GITHUB_CLIENT_ID> [Octokit_Client_Authorizations/_create_authorization/with_idempotent_true/returns_an_existing_API_authorization_if_one_already_exists.json#0]",
  "PUT /authorizations/clients/<GITHUB_CLIENT_ID> [Octokit_Client_Authorizations/_create_authorization/with_idempotent_true/returns_an_existing_API_authorization_if_one_already_exists.json#1]",
  "PUT /authorizations/clients/<GITHUB_CLIENT_ID> [Octokit_Client_Authorizations/_check_application_authorization/checks_an_application_authorization.json#0]",
  "PUT /authorizations/clients/<GITHUB_CLIENT_ID> [Octokit_Client_Authorizations/_reset_application_authorization/resets_a_token.json#0]",
  "PUT /authorizations/clients/<GITHUB_CLIENT_ID> [Octokit_Client_Authorizations/_revoke_application_authorization/deletes_an_application_authorization.json#0]",
];

const KNOWN_DIFFERENCES: KnownDifference[] = [
  ...each("status 404, GitHub's 200", WHY.getOrCreate, PUTS),
  ...each("id is a string, GitHub's a number", WHY.idStrings, [...POSTS_2018, GET_2018, PATCH_2018, POST_2013]),
  ...each("id is a string, GitHub's a number (30 of 30)", WHY.idStrings, [LIST_2018, LIST_2013]),
  ...each("no etag header", WHY.writeEtag, [...POSTS_2018, PATCH_2018, POST_2013]),
  ...each("no content-type header", WHY.noContentType, [DELETE_2018]),
  ...each("keys differ: GitHub-only [], feedgate-only [expires_at]", WHY.expiresAt, [
    ...POSTS_2018,
    GET_2018,
    PATCH_2018,
  ]),
  ...each("keys differ: GitHub-only [], feedgate-only [expires_at] (30 of 30)", WHY.expiresAt, [LIST_2018]),
  ...each(
    "keys differ: GitHub-only [], feedgate-only [hashed_token, token_last_eight, fingerprint, expires_at]",
    `${WHY.e1Keys}; ${WHY.expiresAt}`,
    [POST_2013],
  ),
  ...each(
    "keys differ: GitHub-only [], feedgate-only [hashed_token, token_last_eight, fingerprint, expires_at] (30 of 30)",
    `${WHY.e1Keys}; ${WHY.expiresAt}`,
    [LIST_2013],
  ),
  ...each('token is "", GitHub\'s was shown (30 of 30)', WHY.e1Token, [LIST_2013]),
  ...each("no access-control-allow-credentials header", WHY.e1Credentials, [LIST_2013, POST_2013, DELETE_2013]),
  ...each("no last-modified header", WHY.listModified, [LIST_2013]),
  ...each('Link rel="last" is page 2, GitHub\'s page 171', WHY.pages, [LIST_2013]),
];

// ---------------------------------------------------------------------------------------------------------------
// Loading the recordings.

/** The recorded URL's path, without the cassette's credential placeholders. */
const pathOf = (i: Interaction) =>
  new URL(i.url.replace(/^https:\/\/[^/@]*@/, "https://")).pathname.replace(/%3C/gi, "<").replace(/%3E/gi, ">");
const shortSource = (sourceFile: string) => sourceFile.replace(/^spec\/cassettes\//, "");
const nameOf = (i: Interaction) => `${i.method} ${pathOf(i)} [${shortSource(i.source_file)}#${i.index}]`;

function loadCassettes(): Map<string, Interaction[]> {
  const interactions = loadInteractions("octokit-rb").filter((i) => pathOf(i).startsWith("/authorizations"));
  const cassettes = new Map<string, Interaction[]>();
  for (const i of interactions) cassettes.set(i.source_file, [...(cassettes.get(i.source_file) ?? []), i]);
  for (const list of cassettes.values()) list.sort((a, b) => a.index - b.index);
  return cassettes;
}

// ---------------------------------------------------------------------------------------------------------------
// Comparing, as sentences.

/** One authorization's differences: key sets (and the app's), id type, token shown or not, and the asked-for fields. */
function objectDifferences(github: Json, served: Json, compareValues: boolean): string[] {
  const found: string[] = [];
  const keys = keyDifference(github, served);
  if (keys) found.push(`keys ${keys}`);
  const app = keyDifference(github.app, served.app);
  if (app) found.push(`app keys ${app}`);
  if (typeof github.id !== typeof served.id) found.push(`id is a ${typeof served.id}, GitHub's a ${typeof github.id}`);
  // Recorded tokens were replaced by REDACTED: what can be compared is whether one was shown.
  const [githubShown, servedShown] = [github.token !== "", served.token !== ""];
  if (githubShown !== servedShown)
    found.push(servedShown ? 'token shown, GitHub\'s was ""' : 'token is "", GitHub\'s was shown');
  if (compareValues) {
    for (const key of ["scopes", "note", "note_url", "fingerprint"]) {
      if (key in github && !isDeepStrictEqual(github[key], served[key]))
        found.push(`${key} ${JSON.stringify(served[key])}, GitHub's ${JSON.stringify(github[key])}`);
    }
  }
  return found;
}

function bodyDifferences(github: unknown, served: unknown): string[] {
  if (Array.isArray(github)) {
    const items = served as Json[];
    const found: string[] = [];
    if (items.length !== github.length) found.push(`${items.length} authorizations, GitHub's ${github.length}`);
    const counts = new Map<string, number>();
    github.forEach((item, n) => {
      for (const d of objectDifferences(item as Json, items[n] ?? {}, false)) counts.set(d, (counts.get(d) ?? 0) + 1);
    });
    for (const [d, count] of counts) found.push(`${d} (${count} of ${github.length})`);
    return found;
  }
  return isObject(github) ? objectDifferences(github, served as Json, true) : [];
}

/** `Link` as {rel: page}. */
function linkPages(header: unknown): Record<string, string | null> {
  if (header === undefined) return {};
  return Object.fromEntries(
    String(header)
      .split(/,\s*/)
      .map((part) => {
        const match = /^<([^>]+)>;\s*rel="(\w+)"$/.exec(part.trim());
        assert.ok(match, `malformed Link part: ${part}`);
        return [match[2]!, new URL(match[1]!).searchParams.get("page")];
      }),
  );
}

function headerDifferences(recorded: Interaction, res: LightMyRequestResponse): string[] {
  const github = headersOf(recorded);
  const found: string[] = [];
  for (const name of Object.keys(recorded.response_headers)) {
    if (NOT_COMPARED[name.toLowerCase()] === undefined && res.headers[name.toLowerCase()] === undefined)
      found.push(`no ${name.toLowerCase()} header`);
  }
  const [githubLinks, servedLinks] = [linkPages(github.link), linkPages(res.headers.link)];
  for (const [rel, page] of Object.entries(githubLinks)) {
    if (!(rel in servedLinks)) found.push(`no Link rel="${rel}" (GitHub's: page ${page})`);
    else if (servedLinks[rel] !== page)
      found.push(`Link rel="${rel}" is page ${servedLinks[rel]}, GitHub's page ${page}`);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------------------------
// Replaying one cassette.

interface Replayed {
  name: string;
  differences: string[];
  res: LightMyRequestResponse;
}

/** A recorded list: the world holds its authorizations, in its order, and one more when GitHub offered a next page. */
async function seedList(t: TestApp, recorded: Interaction): Promise<void> {
  const user = (await t.store.users.findByLogin(LOGIN))!;
  const items = recorded.body as Json[];
  for (const item of items)
    await t.createToken(user, item.scopes as string[], (item.note as string | null) ?? "recorded");
  if (linkPages(headersOf(recorded).link).next) await t.createToken(user, [], "beyond the recorded page");
}

async function replay(cassette: Interaction[]): Promise<Replayed[]> {
  const t = await startTestApp({ baseUrl: "https://feedgate.example" });
  try {
    await t.createUser(LOGIN, PASSWORD);
    const ids = new Map<string, string>(); // GitHub's id -> feedgate's
    const results: Replayed[] = [];
    for (const recorded of cassette) {
      if (recorded.method === "GET" && Array.isArray(recorded.body)) await seedList(t, recorded);
      const path = pathOf(recorded).replace(/^\/authorizations\/(\d+)$/, (_, id: string) => {
        assert.ok(ids.has(id), `${nameOf(recorded)}: ${id} was not created earlier in the cassette`);
        return `/authorizations/${ids.get(id)!}`;
      });
      const rule = REQUEST_BODIES.find((r) => r.method === recorded.method);
      const res = await t.app.inject({
        method: recorded.method as "GET",
        url: path,
        headers: { authorization: basic(LOGIN, PASSWORD) },
        ...(rule ? { payload: rule.body(isObject(recorded.body) ? recorded.body : null) } : {}),
      });
      const served: unknown = res.body === "" ? null : res.json();
      if (res.statusCode === 201 && isObject(recorded.body) && isObject(served))
        ids.set(String(recorded.body.id), String(served.id));
      const differences =
        res.statusCode !== recorded.status
          ? [`status ${res.statusCode}, GitHub's ${recorded.status}`]
          : [...headerDifferences(recorded, res), ...bodyDifferences(recorded.body, served)];
      results.push({ name: nameOf(recorded), differences, res });
    }
    return results;
  } finally {
    await t.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------

const CASSETTES = loadCassettes();
const NAMES = [...CASSETTES.values()].flat().map(nameOf);

describe("recorded GitHub authorizations replayed against feedgate", () => {
  test("the recordings hold every operation of the family: POST 201, GET one, GET the list, PATCH, DELETE 204", () => {
    const kinds = new Set(
      [...CASSETTES.values()]
        .flat()
        .map(
          (i) =>
            `${i.method} ${/^\/authorizations\/\d+$/.test(pathOf(i)) ? "one" : pathOf(i) === "/authorizations" ? "list" : "other"} ${i.status}`,
        ),
    );
    for (const kind of ["POST list 201", "GET one 200", "GET list 200", "PATCH one 200", "DELETE one 204"])
      assert.ok(kinds.has(kind), kind);
  });

  test("every known difference names a recorded interaction, and every header left out has a reason", () => {
    assert.deepEqual(
      KNOWN_DIFFERENCES.filter((d) => !NAMES.includes(d.interaction)),
      [],
    );
    assert.ok(Object.values(NOT_COMPARED).every((reason) => reason.length > 0));
  });

  for (const [source, cassette] of CASSETTES) {
    test(`${shortSource(source)}: ${cassette.map((i) => `${i.method} ${i.status}`).join(", ")}`, async () => {
      for (const { name, differences, res } of await replay(cassette)) {
        const expected = KNOWN_DIFFERENCES.filter((d) => d.interaction === name).map((d) => d.difference);
        assert.deepEqual(differences.sort(), expected.sort(), name);
        // What feedgate served also validates against GitHub's schema (tests/compat/schemas.ts).
        if (res.statusCode === 200 || res.statusCode === 201) assertSchema("authorization", res.json(), name);
      }
    });
  }
});
