/**
 * The event converter (src/server/convert/event.ts) on its own, no store and no HTTP: complete envelopes go out as
 * stored, byte for byte; partial ones are completed to what GitHub sends, checked against real GH Archive events
 * (../shared/data/gharchive) cut down to the logins and names a world file gives; `--numeric-ids` writes issue-event
 * ids as JSON integers without passing them through a JavaScript number.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { toWireEventJson, toWireEventsBytes } from "../../../src/server/convert/event.js";
import type { StoredEvent } from "../../../src/server/store/store.js";
import { sampleLines } from "../../helpers/ingest-fixtures.js";

type Json = Record<string, unknown>;
interface Account {
  id: number;
  login: string;
  gravatar_id: string;
  url: string;
  avatar_url: string;
}
interface ArchiveEvent {
  id: string;
  actor: Account;
  repo: { id: number; name: string; url: string };
  org?: Account;
  [key: string]: unknown;
}

const GITHUB = "https://api.github.com";
const row = (body: string, extra: Partial<StoredEvent> = {}): StoredEvent => ({
  id: "1",
  body,
  complete: false,
  createdAt: new Date("2021-07-21T06:00:00Z"),
  actorWireId: null,
  repoWireId: null,
  orgWireId: null,
  ...extra,
});
/** Real events of 2021-07-21, as GitHub served them. */
const ARCHIVE = sampleLines()
  .slice(0, 200)
  .map((line) => ({ line, event: JSON.parse(line) as ArchiveEvent }));

/** Member names other than `id`; names that are array indexes are left out, as JavaScript orders them first. */
const MEMBER_NAME = fc.string().filter((name) => name !== "id" && name !== "__proto__" && !/^[0-9]+$/.test(name));

describe("toWireEventJson", () => {
  test("a complete envelope is served exactly as stored, whatever its text", () => {
    for (const { line } of ARCHIVE) assert.equal(toWireEventJson(row(line, { complete: true }), GITHUB), line);
    fc.assert(
      fc.property(
        fc.jsonValue().map((value) => JSON.stringify({ id: "1", value }, null, 1)),
        (body) =>
          toWireEventJson(row(body, { complete: true, actorWireId: 1, repoWireId: 2 }), "https://x.example") === body,
      ),
    );
  });

  test("a partial envelope of a real event is completed to GitHub's own actor, repository and organization", () => {
    const withOrg = ARCHIVE.filter(({ event }) => event.org !== undefined);
    assert.ok(withOrg.length > 10, "the sample has organization events");
    for (const { event } of ARCHIVE) {
      const partial = {
        ...event,
        actor: { login: event.actor.login },
        repo: { name: event.repo.name },
        ...(event.org ? { org: { login: event.org.login } } : {}),
      };
      const served = JSON.parse(
        toWireEventJson(
          row(JSON.stringify(partial), {
            actorWireId: event.actor.id,
            repoWireId: event.repo.id,
            orgWireId: event.org?.id ?? null,
          }),
          GITHUB,
        ),
      ) as ArchiveEvent;
      assert.deepEqual(Object.keys(served), Object.keys(event), event.id);
      assert.deepEqual(served.repo, event.repo, event.id);
      // GitHub's avatars are its own pictures: feedgate points at identicons (wire notes), and sends no display_login.
      const {
        display_login: _shown,
        avatar_url: _avatar,
        ...actor
      } = event.actor as Account & { display_login?: string };
      assert.deepEqual({ ...served.actor, avatar_url: undefined }, { ...actor, avatar_url: undefined }, event.id);
      assert.deepEqual(Object.keys(served.actor), ["id", "login", "gravatar_id", "url", "avatar_url"]);
      if (event.org)
        assert.deepEqual({ ...served.org, avatar_url: undefined }, { ...event.org, avatar_url: undefined }, event.id);
      assert.match(served.actor.avatar_url, /^https:\/\/github\.com\/identicons\/.+\.png$/);
      assert.deepEqual(served.payload, event.payload);
    }
  });

  test("URLs are the server's; what the envelope gives wins over what is completed", () => {
    const body = JSON.stringify({
      id: "5",
      type: "PushEvent",
      actor: { login: "bob", url: "https://elsewhere/bob" },
      repo: { name: "bob/tools" },
      payload: {},
      public: true,
      created_at: "2021-07-21T06:00:00Z",
    });
    const served = JSON.parse(
      toWireEventJson(row(body, { actorWireId: 7, repoWireId: 8 }), "https://ghe.example/api/v3"),
    ) as Json;
    assert.deepEqual(served.actor, {
      id: 7,
      login: "bob",
      gravatar_id: "",
      url: "https://elsewhere/bob",
      avatar_url: "https://github.com/identicons/bob.png",
    });
    assert.deepEqual(served.repo, { id: 8, name: "bob/tools", url: "https://ghe.example/api/v3/repos/bob/tools" });
  });

  test('an event about no repository keeps GitHub\'s `{"name": "/"}` as sent', () => {
    const body = JSON.stringify({ id: "6", type: "GistEvent", actor: { login: "bob" }, repo: { name: "/" } });
    assert.deepEqual((JSON.parse(toWireEventJson(row(body, { actorWireId: 7 }), GITHUB)) as Json).repo, { name: "/" });
  });

  test("integer ids: the digits as stored, leading zeros dropped, past 2^53 without rounding; other members untouched", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,18}$/), fc.dictionary(MEMBER_NAME, fc.jsonValue()), (id, rest) => {
        const body = JSON.stringify({ id, ...rest });
        const served = toWireEventJson(row(body, { complete: true }), GITHUB, true);
        assert.ok(served.startsWith(`{"id":${BigInt(id).toString()}`), served);
        const { id: _id, ...others } = JSON.parse(served) as Json;
        assert.deepEqual(others, JSON.parse(JSON.stringify(rest)));
      }),
    );
  });
});

describe("toWireEventsBytes", () => {
  test("a page is its events' JSON texts in order, as one array", () => {
    const rows = ARCHIVE.slice(0, 3).map(({ line }) => row(line, { complete: true }));
    assert.equal(
      toWireEventsBytes(rows, GITHUB).toString(),
      `[${ARCHIVE.slice(0, 3)
        .map(({ line }) => line)
        .join(",")}]`,
    );
    assert.equal(toWireEventsBytes([], GITHUB).toString(), "[]");
  });

  test("holds the same bytes as the joined texts encoded, whatever characters the events carry", () => {
    // Any UTF-16 code unit, lone surrogates included: each becomes the same bytes (U+FFFD for a lone one) either way.
    const anyText = fc.string({
      unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
      maxLength: 60,
    });
    fc.assert(
      fc.property(fc.array(anyText, { maxLength: 8 }), (texts) => {
        const rows = texts.map((text) => row(text, { complete: true }));
        assert.deepEqual(toWireEventsBytes(rows, GITHUB), Buffer.from(`[${texts.join(",")}]`));
      }),
    );
  });
});
