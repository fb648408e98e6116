/**
 * `--numeric-ids` (issue 14): authorization and issue-event `id`s as JSON integers, as GitHub sent them (wire notes
 * 1.2, 2.4); strings by default, as the spec says. Event ids are strings in both modes. Every body validates
 * against the schema the mode serializes with, and the OpenAPI document describes the type the mode sends.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { Value } from "@sinclair/typebox/value";
import { Type } from "@sinclair/typebox";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { event, issueEvent } from "../helpers/events.js";
import { Event, servedSchemas } from "../../src/api/schemas.js";
import { loadConfig } from "../../src/server/config.js";
import { InvalidInputError } from "../../src/server/failures.js";

const PAT = basic("pat", "pat-password");
const closed = (id: string | number, complete: boolean) =>
  issueEvent("pat/busy", id, "closed", "pat", {
    created_at: "2026-01-14T00:00:00Z",
    ...(complete
      ? { actor: { login: "pat", id: 7, url: "https://api.github.com/users/pat", avatar_url: "https://x/pat.png" } }
      : {}),
  });

for (const numericIds of [false, true]) {
  const mode = numericIds ? "--numeric-ids" : "by default";
  const idType = numericIds ? "number" : "string";
  const { Authorization, IssueEvent } = servedSchemas(numericIds);

  describe(`ids ${mode}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ numericIds, rateLimitAnonymous: 1000 });
      await new IngestService(t.store, t.clock.now).seedWorld(
        {
          users: [{ login: "pat", password: "pat-password" }],
          repos: [{ full_name: "pat/busy" }],
          events: [event("901", "PushEvent", "pat", "pat/busy", { created_at: "2026-01-14T00:00:00Z" })],
          issue_events: [
            closed("41", false),
            closed(42, true),
            closed("0043", false),
            closed("123456789012345678", true),
          ],
        },
        { baseDir: undefined },
      );
    });
    after(() => t.close());

    const call = (method: "GET" | "POST" | "PATCH", url: string, payload?: object) =>
      t.app.inject({ method, url, headers: { authorization: PAT }, ...(payload ? { payload } : {}) });

    test(`authorization ids are ${idType}s in every response, and valid against the served schema`, async () => {
      const created = await call("POST", "/authorizations", { note: mode });
      assert.equal(created.statusCode, 201);
      const id = created.json().id as string | number;
      assert.equal(typeof id, idType);
      assert.ok(Value.Check(Authorization, created.json()));
      assert.equal(created.headers.location, `http://localhost:80/authorizations/${id}`);
      const bodies = [
        (await call("GET", `/authorizations/${id}`)).json(),
        ...(await call("GET", "/authorizations")).json(),
        (await call("PATCH", `/authorizations/${id}`, { note: `${mode} again` })).json(),
        (await call("POST", `/authorizations/${id}`, { note: `${mode} once more` })).json(),
      ];
      for (const body of bodies) {
        assert.equal(body.id, id);
        assert.ok(Value.Check(Authorization, body), JSON.stringify([...Value.Errors(Authorization, body)]));
      }
      // The id served is the one the routes take.
      assert.equal(
        (await t.app.inject({ method: "DELETE", url: `/authorizations/${id}`, headers: { authorization: PAT } }))
          .statusCode,
        204,
      );
    });

    test(`issue-event ids are ${idType}s, completed or stored whole; event ids stay strings`, async () => {
      const res = await t.app.inject({ method: "GET", url: "/repos/pat/busy/issues/events" });
      const items = res.json() as { id: unknown }[];
      assert.deepEqual(
        items.map((e) => typeof e.id),
        [idType, idType, idType, idType],
      );
      // (JSON.parse rounds the integer past 2^53: that one is checked in the text below.)
      assert.deepEqual(
        new Set(items.map((e) => String(e.id)).filter((id) => id.length < 16)),
        new Set(numericIds ? ["41", "42", "43"] : ["41", "42", "0043"]),
      );
      for (const item of items) assert.ok(Value.Check(IssueEvent, item), JSON.stringify(item));
      // Digits past 2^53 go on the wire as stored, not through a JavaScript number.
      assert.match(res.body, numericIds ? /"id":123456789012345678[,}]/ : /"id":"123456789012345678"/);
      const [event] = (await t.app.inject({ method: "GET", url: "/events" })).json();
      assert.equal(event.id, "901");
      assert.ok(Value.Check(Event, event));
    });

    test(`the OpenAPI document describes ${idType} ids for authorizations and issue events, string ids for events`, async () => {
      const { components } = (await t.app.inject({ method: "GET", url: "/openapi.json" })).json();
      const type = numericIds ? "integer" : "string";
      assert.equal(components.schemas.Authorization.properties.id.type, type);
      assert.equal(components.schemas.IssueEvent.properties.id.type, type);
      assert.equal(components.schemas.Event.properties.id.type, "string");
    });
  });
}

describe("--numeric-ids configuration", () => {
  test("FEEDGATE_NUMERIC_IDS turns it on with true/1/yes and off with false/0/no or empty; anything else is refused", () => {
    for (const on of ["true", "1", "yes", "TRUE"])
      assert.equal(loadConfig({}, { FEEDGATE_NUMERIC_IDS: on }).numericIds, true, on);
    for (const off of ["false", "0", "no", ""])
      assert.equal(loadConfig({}, { FEEDGATE_NUMERIC_IDS: off }).numericIds, false, off);
    assert.equal(loadConfig({}, {}).numericIds, false);
    assert.equal(loadConfig({ numericIds: true }, { FEEDGATE_NUMERIC_IDS: "0" }).numericIds, true);
    assert.throws(
      () => loadConfig({}, { FEEDGATE_NUMERIC_IDS: "maybe" }),
      (error: unknown) =>
        error instanceof InvalidInputError && /numeric ids .* must be true or false, got "maybe"/.test(error.message),
    );
  });

  test("the schemas a mode serializes with refuse the other mode's ids", () => {
    assert.ok(Value.Check(servedSchemas(true).IssueEvent.properties.id, 5));
    assert.ok(!Value.Check(servedSchemas(true).IssueEvent.properties.id, "5"));
    assert.ok(!Value.Check(servedSchemas(false).Authorization.properties.id, 5));
    assert.ok(Value.Check(Type.Object({ id: servedSchemas(false).Authorization.properties.id }), { id: "5" }));
  });
});
