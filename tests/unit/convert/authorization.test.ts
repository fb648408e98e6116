/**
 * The authorization converter (src/server/convert/authorization.ts) on its own: a stored row made from each
 * authorization GitHub returned to octokit.rb's recorded suite (../shared/data/recorded/octokit-rb) converts back to
 * GitHub's body, member for member and in GitHub's order. The OAuth apps of the get-or-create (PUT) recordings are
 * left out: feedgate has personal tokens only, described as GitHub described them.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { toWireAuthorization } from "../../../src/server/convert/authorization.js";
import type { AuthorizationRow } from "../../../src/server/store/store.js";
import { loadInteractions } from "../../helpers/recorded.js";

interface GitHubAuthorization {
  id: number;
  url: string;
  app: { name: string; url: string; client_id: string };
  token: string;
  hashed_token: string;
  token_last_eight: string;
  note: string | null;
  note_url: string | null;
  created_at: string;
  updated_at: string;
  scopes: string[];
  fingerprint: string | null;
}
const isAuthorization = (body: unknown): body is GitHubAuthorization =>
  typeof body === "object" && body !== null && "hashed_token" in body;

const RECORDED = loadInteractions("octokit-rb")
  .filter((i) => i.url.includes("/authorizations") && i.method !== "PUT" && (i.status === 200 || i.status === 201))
  .map((i) => i.body)
  .filter(isAuthorization);

const rowOf = (github: GitHubAuthorization): AuthorizationRow => ({
  id: github.id,
  userId: 1,
  hashedToken: github.hashed_token,
  tokenLastEight: github.token_last_eight,
  scopes: github.scopes,
  note: github.note,
  noteUrl: github.note_url,
  fingerprint: github.fingerprint,
  createdAt: new Date(github.created_at),
  updatedAt: new Date(github.updated_at),
  expiresAt: null,
  fineGrained: null,
  oauthAppId: null,
});

describe("toWireAuthorization", () => {
  test("every authorization GitHub returned converts back from its row to GitHub's body, in GitHub's order, then expires_at", () => {
    assert.ok(RECORDED.length >= 10, `${RECORDED.length} recorded authorizations`);
    for (const github of RECORDED) {
      const wire = toWireAuthorization(
        rowOf(github),
        { baseUrl: "https://api.github.com", numericIds: true },
        github.token,
      );
      // The 2018 recordings predate expiring tokens: their tokens never expire.
      assert.deepEqual(Object.keys(wire), [...Object.keys(github), "expires_at"]);
      assert.deepEqual(wire, { ...github, expires_at: null });
    }
  });

  test("expires_at is GitHub's timestamp, to the second, when the token expires", () => {
    const row: AuthorizationRow = { ...rowOf(RECORDED[0]!), expiresAt: new Date("2026-02-14T10:00:00.750Z") };
    assert.equal(
      toWireAuthorization(row, { baseUrl: "https://x", numericIds: false }).expires_at,
      "2026-02-14T10:00:00Z",
    );
  });

  test("ids are strings unless --numeric-ids; the token is shown only when given; times are to the second", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 }),
        fc.date({ noInvalidDate: true, min: new Date(0), max: new Date("9999-12-31") }),
        fc.option(fc.string()),
        (id, at, note) => {
          const row: AuthorizationRow = { ...rowOf(RECORDED[0]!), id, note, createdAt: at, updatedAt: at };
          const wire = toWireAuthorization(row, { baseUrl: "https://ghe.example/api/v3", numericIds: false });
          assert.equal(wire.id, String(id));
          assert.equal(wire.url, `https://ghe.example/api/v3/authorizations/${id}`);
          assert.equal(wire.token, "");
          assert.equal(wire.app.name, note ?? "Personal access token");
          assert.match(wire.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
          assert.equal(Date.parse(wire.created_at), Math.floor(at.getTime() / 1000) * 1000);
          assert.equal(toWireAuthorization(row, { baseUrl: "https://x", numericIds: true }).id, id);
        },
      ),
    );
  });
});
