/**
 * Checks made before any request (spec sections 4, 8 and 9): each refusal is a ParameterError naming the
 * parameter, and the recording fetch proves nothing was sent. Calls the types already forbid are made
 * anyway (under @ts-expect-error), as plain JavaScript callers would make them: both layers are tested.
 * What is accepted is checked against a real listening feedgate.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client, ParameterError } from "../../src/client/index.js";
import { recordingFetch } from "../helpers/recording-fetch.js";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { ALICE } from "../helpers/client-world.js";

function refusal(work: () => unknown, parameter: string, message?: RegExp) {
  return async () => {
    const error = await Promise.resolve()
      .then(work)
      .then(
        () => null,
        (e: unknown) => e,
      );
    assert.ok(error instanceof ParameterError, `expected a ParameterError for ${parameter}, got ${String(error)}`);
    assert.equal(error.parameter, parameter);
    assert.equal(error.code, "EPARAMETER");
    assert.match(error.message, new RegExp(parameter.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    if (message) assert.match(error.message, message);
  };
}

describe("SDK checks before sending", () => {
  let t: ListeningApp;
  let recorder: ReturnType<typeof recordingFetch>;
  let client: Client;
  before(async () => {
    t = await startListeningApp();
  });
  after(() => t.close());

  const fresh = () => {
    recorder = recordingFetch();
    client = new Client({
      baseUrl: t.url,
      version: "3.0.0",
      fetch: recorder.fetch,
      auth: { type: "basic", username: ALICE.login, password: ALICE.password },
    });
  };

  const REFUSED: [string, () => unknown, string, RegExp?][] = [
    // @ts-expect-error required path parameter missing
    ["a missing path parameter", () => client.events.getFromRepo({ user: "alice" }), "repo", /is required/],
    // @ts-expect-error no parameters at all
    ["no parameters where some are required", () => client.authorization.get(), "id", /is required/],
    // @ts-expect-error path parameters are strings
    ["a number as path parameter", () => client.authorization.get({ id: 5 }), "id", /must be a string, got 5/],
    ["an empty path parameter", () => client.events.getFromOrg({ org: "" }), "org", /must not be empty/],
    ["page with a sign", () => client.events.get({ page: "-1" }), "page", /\^\[0-9\]\+\$/],
    ["page as a fraction", () => client.events.get({ page: 1.5 }), "page", /got 1\.5/],
    ["page with spaces", () => client.events.get({ page: " 2" }), "page"],
    ["page as NaN", () => client.events.get({ page: Number.NaN }), "page"],
    ["per_page above 100", () => client.events.get({ per_page: 101 }), "per_page", /at most 100, got 101/],
    ["per_page above 100 as text", () => client.authorization.getAll({ per_page: "1000" }), "per_page", /at most 100/],
    // @ts-expect-error booleans are not numbers
    ["per_page as a boolean", () => client.events.get({ per_page: true }), "per_page"],
    // @ts-expect-error unknown parameter
    ["an unknown parameter", () => client.events.get({ since: "2020" }), "since", /not a parameter of this operation/],
    // @ts-expect-error unknown parameter on a write
    ["a misspelt body parameter", () => client.authorization.create({ scope: ["repo"] }), "scope"],
    [
      "a scopes array with a number",
      // @ts-expect-error scopes are strings
      () => client.authorization.create({ scopes: ["repo", 1] }),
      "scopes",
      /array of strings/,
    ],
    // @ts-expect-error note is a string
    ["a non-string note", () => client.authorization.create({ note: 5 }), "note"],
    [
      "a header that is not permitted",
      // @ts-expect-error not a permitted header
      () => client.events.get({ headers: { Authorization: "token x" } }),
      "headers.Authorization",
      /not a permitted header/,
    ],
    [
      "X-GitHub-OTP, GitHub's name for the OTP header",
      // @ts-expect-error not a permitted header
      () => client.events.get({ headers: { "X-GitHub-OTP": "1" } }),
      "headers.X-GitHub-OTP",
    ],
    [
      "a header value that is not a string",
      // @ts-expect-error header values are strings
      () => client.events.get({ headers: { Accept: 3 } }),
      "headers.Accept",
      /must be a string/,
    ],
    [
      "a key of an object that is not a boolean",
      () =>
        client.branchProtection.update({
          user: "alice",
          repo: "hello",
          branch: "main",
          // @ts-expect-error `strict` is a boolean
          required_status_checks: { strict: "yes", contexts: [] },
          enforce_admins: null,
          required_pull_request_reviews: null,
          restrictions: null,
        }),
      "required_status_checks.strict",
      /must be true or false, got "yes"/,
    ],
    [
      "a key of an object that is not a list of strings",
      () =>
        client.branchProtection.update({
          user: "alice",
          repo: "hello",
          branch: "main",
          // @ts-expect-error `contexts` are strings
          required_status_checks: { strict: true, contexts: [1] },
          enforce_admins: null,
          required_pull_request_reviews: null,
          restrictions: null,
        }),
      "required_status_checks.contexts",
      /array of strings/,
    ],
    [
      "a key of an object that is not an integer",
      () =>
        client.branchProtection.update({
          user: "alice",
          repo: "hello",
          branch: "main",
          required_status_checks: null,
          enforce_admins: null,
          required_pull_request_reviews: { required_approving_review_count: 1.5 },
          restrictions: null,
        }),
      "required_pull_request_reviews.required_approving_review_count",
      /must be an integer, got 1\.5/,
    ],
    // @ts-expect-error parameters are an object
    ["parameters that are not an object", () => client.events.get("page=2"), "params"],
    [
      "a Link that has no next page",
      () => client.getNextPage(`<${t.url}/events?page=1>; rel="prev"`),
      "page",
      /no next page/,
    ],
  ];

  for (const [what, call, parameter, message] of REFUSED) {
    test(`refuses ${what}, naming ${parameter}, and sends nothing`, async () => {
      fresh();
      await refusal(call, parameter, message)();
      assert.equal(recorder.sent.length, 0);
    });
  }

  describe("at construction", () => {
    const base = () => ({ baseUrl: t.url, version: "3.0.0" as const });
    test(
      "refuses another version",
      // @ts-expect-error only 3.0.0
      refusal(() => new Client({ ...base(), version: "2.0.0" }), "version", /"2\.0\.0" is not supported/),
    );
    test(
      "refuses a missing version",
      // @ts-expect-error version is required
      refusal(() => new Client({ baseUrl: t.url }), "version"),
    );
    test("refuses a relative or non-http base URL", async () => {
      await refusal(() => new Client({ ...base(), baseUrl: "/api" }), "baseUrl")();
      await refusal(() => new Client({ ...base(), baseUrl: "ftp://example.com" }), "baseUrl")();
    });
    test("refuses default headers outside the permitted names, and conditional ones", async () => {
      await refusal(
        // @ts-expect-error not permitted
        () => new Client({ ...base(), headers: { "X-Forwarded-For": "1.2.3.4" } }),
        "options.headers.X-Forwarded-For",
      )();
      await refusal(
        // @ts-expect-error conditional headers belong to one request
        () => new Client({ ...base(), headers: { "If-None-Match": '"x"' } }),
        "options.headers.If-None-Match",
        /single request/,
      )();
    });
    test("refuses a bad timeout and a fetch that is not a function", async () => {
      await refusal(() => new Client({ ...base(), timeout: -1 }), "timeout")();
      // @ts-expect-error fetch must be a function
      await refusal(() => new Client({ ...base(), fetch: "node-fetch" }), "fetch")();
    });
    test("refuses malformed credentials, naming the field", async () => {
      // @ts-expect-error unknown scheme
      await refusal(() => new Client({ ...base(), auth: { type: "token", token: "x" } }), "auth.type")();
      // @ts-expect-error password missing
      await refusal(() => new Client(base()).authenticate({ type: "basic", username: "alice" }), "auth.password")();
      // @ts-expect-error token must be a string
      await refusal(() => new Client(base()).authenticate({ type: "oauth", token: 42 }), "auth.token")();
    });
  });

  describe("what is accepted reaches the server as the spec places it", () => {
    test("numbers for page and per_page travel as their decimal text", async () => {
      fresh();
      const result = await client.events.get({ page: 2, per_page: 5 });
      assert.equal(result.data.length, 5);
      assert.equal(new URL(recorder.sent[0]!.url).search, "?page=2&per_page=5");
      await client.events.get({ page: "0", per_page: "100" });
      assert.equal(new URL(recorder.sent[1]!.url).search, "?page=0&per_page=100");
    });

    test("header names are matched case-insensitively and sent as given", async () => {
      fresh();
      const result = await client.events.get({
        per_page: 1,
        headers: { "user-agent": "sdk-test", ACCEPT: "application/json" } as object,
      });
      assert.equal(result.status, 200);
      const sent = recorder.sent[0]!.headers;
      assert.equal(sent["user-agent"], "sdk-test");
      assert.equal(sent.accept, "application/json");
    });

    test("the version is selected with GitHub's v3 media type; writes send a JSON object body", async () => {
      fresh();
      const { data } = await client.authorization.create({ note: "accepted", scopes: [] });
      const sent = recorder.sent[0]!;
      assert.equal(sent.headers.accept, "application/vnd.github.v3+json");
      assert.equal(sent.headers["content-type"], "application/json; charset=utf-8");
      assert.deepEqual(JSON.parse(sent.body!), { scopes: [], note: "accepted" });
      await client.authorization.delete({ id: data.id });
      assert.equal(recorder.sent[1]!.body, undefined);
    });

    test("undefined optional parameters are left out", async () => {
      fresh();
      await client.events.get({ page: undefined, per_page: 1 });
      assert.equal(new URL(recorder.sent[0]!.url).search, "?per_page=1");
    });
  });
});
