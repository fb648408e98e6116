/**
 * Expiring tokens, as GitHub issues them since 2021: `expires_at` on the authorization (set on create, changed or
 * cleared on update), the `GitHub-Authentication-Token-Expiration` header on every response to an expiring token,
 * 401 "Bad credentials" from its expiry on (by the server's clock, remembered tokens included), 422 for an expiry that
 * is malformed, past or beyond `--token-max-lifetime`. Over a real socket, on the driver FEEDGATE_TEST_STORE names.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { Octokit } from "octokit-rest-latest";
import { basic, startTestApp } from "../helpers/test-app.js";

const ALICE = basic("alice", "alice-password");
const DAY = 86_400_000;
const HEADER = "github-authentication-token-expiration";

/** The server's clock starts at 2026-01-15T10:00:00Z (TestClock). */
async function start(config: Parameters<typeof startTestApp>[0] = {}) {
  const t = await startTestApp({ baseUrl: "https://feedgate.example", ...config });
  await t.createUser("alice", "alice-password");
  const url = await t.app.listen({ port: 0, host: "127.0.0.1" });
  const call = (method: string, path: string, authorization: string, body?: unknown) =>
    fetch(`${url}${path}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return { t, url, call };
}

type Server = Awaited<ReturnType<typeof start>>;

async function count(s: Server): Promise<number> {
  return ((await (await s.call("GET", "/authorizations?per_page=100", ALICE)).json()) as unknown[]).length;
}

/** GitHub's 422 for the field, with nothing else in it. */
async function assertRefused(res: Response, message: RegExp) {
  assert.equal(res.status, 422);
  const body = (await res.json()) as {
    message: string;
    errors: { resource: string; field: string; code: string; message: string }[];
  };
  assert.equal(body.message, "Validation Failed");
  assert.equal(body.errors.length, 1);
  assert.equal(body.errors[0]!.resource, "OauthAccess");
  assert.equal(body.errors[0]!.field, "expires_at");
  assert.match(body.errors[0]!.message, message);
}

describe("expiring tokens", () => {
  let s: Server;
  before(async () => {
    s = await start();
  });
  after(() => s.t.close());

  test("create keeps expires_at (to the second, in UTC) and every response to the token carries GitHub's header", async () => {
    const created = await s.call("POST", "/authorizations", ALICE, {
      note: "ci",
      expires_at: "2026-02-14T12:00:00.250+02:00",
    });
    assert.equal(created.status, 201);
    const body = (await created.json()) as { id: string; token: string; expires_at: string };
    assert.equal(body.expires_at, "2026-02-14T10:00:00Z");
    const listed = (await (await s.call("GET", `/authorizations/${body.id}`, ALICE)).json()) as { expires_at: string };
    assert.equal(listed.expires_at, "2026-02-14T10:00:00Z");

    const user = await s.call("GET", "/user", `token ${body.token}`);
    assert.equal(user.status, 200);
    assert.equal(user.headers.get(HEADER), "2026-02-14 10:00:00 UTC");
    const missing = await s.call("GET", "/repos/alice/none/events", `Bearer ${body.token}`);
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get(HEADER), "2026-02-14 10:00:00 UTC", "error responses too, as GitHub");
  });

  test("a token without expiry, and a password, get expires_at null and no header", async () => {
    const created = await s.call("POST", "/authorizations", ALICE, { note: "forever" });
    const body = (await created.json()) as { token: string; expires_at: unknown };
    assert.equal(body.expires_at, null);
    const user = await s.call("GET", "/user", `token ${body.token}`);
    assert.equal(user.status, 200);
    assert.equal(user.headers.get(HEADER), null);
    assert.equal((await s.call("GET", "/user", ALICE)).headers.get(HEADER), null);
  });

  test("a live stream read with an expiring token ends once the server's clock passes the expiry, and its reconnect is 401", async () => {
    const created = (await (
      await s.call("POST", "/authorizations", ALICE, { note: "stream", expires_at: "2026-01-15T11:00:00Z" })
    ).json()) as { token: string };
    const auth = `token ${created.token}`;
    const controller = new AbortController();
    const stream = await fetch(`${s.url}/events`, {
      headers: { authorization: auth, accept: "text/event-stream" },
      signal: controller.signal,
    });
    assert.equal(stream.status, 200);
    const reader = stream.body!.getReader();
    let text = "";
    const ended = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return text;
        text += new TextDecoder().decode(value);
      }
    })();
    try {
      s.t.clock.advance("59m");
      await new Promise((resolve) => setTimeout(resolve, 1500)); // a check ran: still open before the expiry
      assert.doesNotMatch(text, /closed/);
      s.t.clock.advance("1m");
      const closed = await Promise.race([
        ended,
        new Promise<string>((resolve) => setTimeout(() => resolve("still open"), 4000)),
      ]);
      assert.match(closed, /^: closed: the token has expired$/m);
      assert.equal((await s.call("GET", "/events", auth)).status, 401);
    } finally {
      controller.abort();
      s.t.clock.reset();
    }
  });

  test("from its expiry on, by the server's clock, the token is 401 Bad credentials however it is sent", async () => {
    const { token } = (await (
      await s.call("POST", "/authorizations", ALICE, { expires_at: "2026-01-15T11:00:00Z" })
    ).json()) as { token: string };
    assert.equal((await s.call("GET", "/user", `token ${token}`)).status, 200); // now remembered by its last eight
    s.t.clock.advance("59m");
    assert.equal((await s.call("GET", "/user", `token ${token}`)).status, 200);
    s.t.clock.advance("1m"); // exactly the expiry: no write happened, so only the clock tells
    try {
      for (const authorization of [`token ${token}`, `Bearer ${token}`, basic("x-access-token", token)]) {
        const res = await s.call("GET", "/user", authorization);
        assert.equal(res.status, 401, authorization.split(" ")[0]);
        assert.deepEqual(await res.json(), {
          message: "Bad credentials",
          documentation_url: "https://developer.github.com/v3",
        });
        assert.equal(res.headers.get(HEADER), null);
      }
      const query = await fetch(`${s.url}/user?access_token=${token}`);
      assert.equal(query.status, 401);
      s.t.clock.advance("30d");
      assert.equal((await s.call("GET", "/user", `token ${token}`)).status, 401);
    } finally {
      s.t.clock.reset();
    }
  });

  test("an expiry that is malformed, not real, without a zone, past or now is 422 naming expires_at; nothing is stored", async () => {
    const before = await count(s);
    const cases: [unknown, RegExp][] = [
      ["tomorrow", /^expires_at must be an ISO 8601 time with a zone/],
      ["2026-02-14", /^expires_at must be an ISO 8601 time with a zone/],
      ["2026-02-14T10:00:00", /^expires_at must be an ISO 8601 time with a zone/],
      ["2026-02-30T10:00:00Z", /^expires_at is not a real time/],
      ["2026-02-14T24:00:00Z", /^expires_at is not a real time/],
      ["2026-01-15T09:59:59Z", /^expires_at must be in the future$/],
      ["2026-01-15T10:00:00Z", /^expires_at must be in the future$/],
      [1_800_000_000, /^expires_at /],
    ];
    for (const [expires_at, message] of cases) {
      await assertRefused(await s.call("POST", "/authorizations", ALICE, { note: "bad", expires_at }), message);
    }
    assert.equal(await count(s), before);
  });

  test("update sets, keeps (when unmentioned) and clears the expiry; the header follows at once", async () => {
    const { id, token } = (await (await s.call("POST", "/authorizations", ALICE, { note: "patched" })).json()) as {
      id: string;
      token: string;
    };
    assert.equal((await s.call("GET", "/user", `token ${token}`)).headers.get(HEADER), null);

    const set = await s.call("PATCH", `/authorizations/${id}`, ALICE, { expires_at: "2026-01-22T10:00:00Z" });
    assert.equal(set.status, 200);
    assert.equal(((await set.json()) as { expires_at: string }).expires_at, "2026-01-22T10:00:00Z");
    assert.equal((await s.call("GET", "/user", `token ${token}`)).headers.get(HEADER), "2026-01-22 10:00:00 UTC");

    const noted = (await (await s.call("PATCH", `/authorizations/${id}`, ALICE, { note: "renamed" })).json()) as {
      expires_at: string;
    };
    assert.equal(noted.expires_at, "2026-01-22T10:00:00Z");

    await assertRefused(
      await s.call("PATCH", `/authorizations/${id}`, ALICE, { expires_at: "2026-01-01T00:00:00Z", note: "lost" }),
      /^expires_at must be in the future$/,
    );
    const unchanged = (await (await s.call("GET", `/authorizations/${id}`, ALICE)).json()) as {
      note: string;
      expires_at: string;
    };
    assert.deepEqual([unchanged.note, unchanged.expires_at], ["renamed", "2026-01-22T10:00:00Z"]);

    const cleared = (await (await s.call("PATCH", `/authorizations/${id}`, ALICE, { expires_at: null })).json()) as {
      expires_at: unknown;
    };
    assert.equal(cleared.expires_at, null);
    const user = await s.call("GET", "/user", `token ${token}`);
    assert.equal(user.status, 200);
    assert.equal(user.headers.get(HEADER), null);
  });

  test("an expired token cannot be brought back by a new expiry", async () => {
    const { id, token } = (await (
      await s.call("POST", "/authorizations", ALICE, { expires_at: "2026-01-16T10:00:00Z" })
    ).json()) as { id: string; token: string };
    s.t.clock.advance("2d");
    try {
      for (const expires_at of ["2026-03-01T00:00:00Z", null]) {
        await assertRefused(
          await s.call("PATCH", `/authorizations/${id}`, ALICE, { expires_at }),
          /^expires_at cannot be changed: this token has expired$/,
        );
      }
      const still = (await (await s.call("GET", `/authorizations/${id}`, ALICE)).json()) as { expires_at: string };
      assert.equal(still.expires_at, "2026-01-16T10:00:00Z");
      assert.equal((await s.call("GET", "/user", `token ${token}`)).status, 401);
    } finally {
      s.t.clock.reset();
    }
  });

  test("Octokit 22 reads the expiry from the header of an ordinary call", async () => {
    const { token } = (await (
      await s.call("POST", "/authorizations", ALICE, { expires_at: "2026-04-15T10:00:00Z" })
    ).json()) as { token: string };
    const { status, data, headers } = await new Octokit({ baseUrl: s.url, auth: token }).users.getAuthenticated();
    assert.equal(status, 200);
    assert.equal(data.login, "alice");
    assert.equal(headers[HEADER], "2026-04-15 10:00:00 UTC");
  });
});

describe("--token-max-lifetime", () => {
  let s: Server;
  before(async () => {
    s = await start({ tokenMaxLifetime: "90d" });
  });
  after(() => s.t.close());

  test("a create that names no expiry gets the longest lifetime", async () => {
    const body = (await (await s.call("POST", "/authorizations", ALICE, { note: "old client" })).json()) as {
      expires_at: string;
    };
    assert.equal(
      body.expires_at,
      new Date(Date.parse("2026-01-15T10:00:00Z") + 90 * DAY).toISOString().replace(".000", ""),
    );
  });

  test("exactly the longest lifetime is accepted; a second more, or no expiry, is 422 and stores nothing", async () => {
    const limit = new Date(Date.parse("2026-01-15T10:00:00Z") + 90 * DAY);
    const before = await count(s);
    await assertRefused(
      await s.call("POST", "/authorizations", ALICE, { expires_at: new Date(limit.getTime() + 1000).toISOString() }),
      /^expires_at must be at most 90 days from now on this server$/,
    );
    await assertRefused(
      await s.call("POST", "/authorizations", ALICE, { expires_at: null }),
      /^expires_at is required: tokens on this server expire within 90 days$/,
    );
    assert.equal(await count(s), before);

    const created = await s.call("POST", "/authorizations", ALICE, { expires_at: limit.toISOString() });
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: string };
    await assertRefused(
      await s.call("PATCH", `/authorizations/${id}`, ALICE, { expires_at: null }),
      /^expires_at is required/,
    );
    await assertRefused(
      await s.call("PATCH", `/authorizations/${id}`, ALICE, { expires_at: "2027-01-01T00:00:00Z" }),
      /^expires_at must be at most 90 days/,
    );
  });
});
