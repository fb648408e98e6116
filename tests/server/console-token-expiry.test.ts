/**
 * The console's Expiration field (GitHub's "Generate new token": 7, 30, 60, 90 days, a custom date, or none) and the
 * Expires column of the token list, through app.inject(): runs on SQLite and in the PostgreSQL matrix. The clock is
 * the server's (TestClock, 2026-01-15T10:00:00Z).
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { csrfOf, form, FORM, sessionOf } from "../helpers/console-forms.js";

describe("console token expiration", () => {
  let t: TestApp;
  let session: string;
  let aliceId: number;
  const signIn = async () => {
    const signedIn = await t.app.inject({
      method: "POST",
      url: "/console/sign-in",
      headers: FORM,
      payload: form({ login: "alice", password: "alice-password" }),
    });
    session = sessionOf(signedIn)!;
  };
  before(async () => {
    t = await startTestApp({ tokenMaxLifetime: "90d" });
    aliceId = (await t.createUser("alice", "alice-password")).id;
    await signIn();
  });
  after(() => t.close());

  const get = (url: string) => t.app.inject({ method: "GET", url, headers: { cookie: `feedgate_session=${session}` } });
  const generate = async (fields: Record<string, string>) => {
    const csrf = csrfOf((await get("/console/tokens/new")).body);
    return t.app.inject({
      method: "POST",
      url: "/console/tokens",
      headers: { ...FORM, cookie: `feedgate_session=${session}` },
      payload: form({ ...fields, csrf }),
    });
  };
  const expiryOf = async (note: string) =>
    (await t.store.authorizations.list(aliceId, { limit: 100, offset: 0 })).rows.find((r) => r.note === note)
      ?.expiresAt;

  test("the form offers 7, 30, 60 and 90 days, a custom date and none, 30 days chosen", async () => {
    const page = (await get("/console/tokens/new")).body;
    const options = [...page.matchAll(/<option value="([^"]+)"( selected)?>([^<]+)<\/option>/g)].map((m) => [
      m[1],
      m[3],
      Boolean(m[2]),
    ]);
    assert.deepEqual(options, [
      ["7", "7 days", false],
      ["30", "30 days", true],
      ["60", "60 days", false],
      ["90", "90 days", false],
      ["custom", "Custom...", false],
      ["none", "No expiration", false],
    ]);
    assert.match(page, /<label for="expiration">Expiration<\/label>/);
    assert.match(page, /<input id="expiration_date" name="expiration_date" type="date"/);
  });

  test("each choice becomes the token's expiry, by the server's clock", async () => {
    for (const [expiration, expected] of [
      ["7", "2026-01-22T10:00:00.000Z"],
      ["90", "2026-04-15T10:00:00.000Z"],
    ]) {
      const res = await generate({ note: `in ${expiration}`, expiration: expiration!, expiration_date: "" });
      assert.equal(res.statusCode, 303, res.body);
      assert.equal((await expiryOf(`in ${expiration}`))?.toISOString(), expected);
    }
    const custom = await generate({ note: "custom", expiration: "custom", expiration_date: "2026-03-01" });
    assert.equal(custom.statusCode, 303);
    assert.equal((await expiryOf("custom"))?.toISOString(), "2026-03-01T00:00:00.000Z");
  });

  test("a choice the server refuses shows the form again with why, keeping the choice, and stores nothing", async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ expiration: "none" }, /expires_at is required: tokens on this server expire within 90 days/],
      [
        { expiration: "custom", expiration_date: "2026-06-01" },
        /expires_at must be at most 90 days from now on this server/,
      ],
      [{ expiration: "custom", expiration_date: "2026-01-01" }, /expires_at must be in the future/],
      [{ expiration: "custom", expiration_date: "" }, /Choose the date a custom expiration ends on/],
      [{ expiration: "365" }, /Expiration must be one of the choices offered/],
    ];
    for (const [fields, problem] of cases) {
      const res = await generate({ note: "refused", ...fields });
      assert.equal(res.statusCode, 422, JSON.stringify(fields));
      assert.match(res.body, problem);
      if (fields.expiration !== "365")
        assert.match(res.body, new RegExp(`<option value="${fields.expiration}" selected>`));
    }
    assert.equal(await expiryOf("refused"), undefined);
  });

  test("the list shows when each token expires, and that an expired one has", async () => {
    await t.createToken((await t.store.users.findByLogin("alice"))!, [], "forever");
    const before = (await get("/console/tokens")).body;
    assert.match(before, /<th scope="col">Expires<\/th>/);
    assert.match(before, /forever<\/td>(?:(?!<\/tr>).)*<td>Never<\/td>/s);
    assert.match(
      before,
      /in 7<\/td>(?:(?!<\/tr>).)*<td><time datetime="2026-01-22T10:00:00.000Z">2026-01-22 10:00 UTC<\/time><\/td>/s,
    );
    t.clock.advance("8d");
    try {
      await signIn(); // the session itself ended in the meantime
      const after = (await get("/console/tokens")).body;
      assert.match(
        after,
        /in 7<\/td>(?:(?!<\/tr>).)*<td><strong>Expired<\/strong> <time datetime="2026-01-22T10:00:00.000Z">/s,
      );
      assert.match(after, /in 90<\/td>(?:(?!<\/tr>).)*<td><time datetime="2026-04-15T10:00:00.000Z">/s);
    } finally {
      t.clock.reset();
    }
  });
});
