/**
 * The SDK never throws synchronously (issue 14): every operation, `paginate`'s first step and the page-following
 * methods return a promise, and a refused parameter is a rejection of it, before any request is sent. So one
 * `.catch()` (or `Promise.allSettled`) handles parameter errors and failed requests alike. Calls the types forbid
 * are made anyway, as plain JavaScript callers make them.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { Client, ParameterError } from "../../src/client/index.js";
import { recordingFetch } from "../helpers/recording-fetch.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
describe("SDK parameter errors are rejections", () => {
  const recorder = recordingFetch(() => {
    throw new Error("nothing may be sent");
  });
  const client = new Client({ baseUrl: "http://127.0.0.1:9", version: "3.0.0", fetch: recorder.fetch });
  // biome-ignore lint/suspicious/noExplicitAny: calling what the types forbid is the test
  const untyped = client as any;

  /** Each call, made without awaiting: it must return (not throw) a promise. */
  const CALLS: [string, () => unknown][] = [
    ['authorization.getAll with per_page: "abc"', () => client.authorization.getAll({ per_page: "abc" })],
    ["authorization.get without its id", () => untyped.authorization.get({})],
    ["authorization.get with params that are no object", () => untyped.authorization.get("7")],
    [
      "authorization.create with an unknown parameter",
      () => untyped.authorization.create({ note: "n", scope: ["repo"] }),
    ],
    [
      "authorization.update with scopes that are no array",
      () => untyped.authorization.update({ id: "1", scopes: "repo" }),
    ],
    [
      "authorization.delete with a header the spec does not permit",
      () => untyped.authorization.delete({ id: "1", headers: { "X-Forwarded-For": "x" } }),
    ],
    ["events.getFromRepo with page 1.5", () => client.events.getFromRepo({ user: "a", repo: "b", page: 1.5 })],
    ["events.getFromUser with an empty user", () => client.events.getFromUser({ user: "" })],
    ["getNextPage of a value that is no result", () => untyped.getNextPage(42)],
    [
      "getNextPage of a result with no next page",
      () => client.getNextPage({ meta: {}, url: "http://127.0.0.1:9/events" }),
    ],
    [
      "getLastPage of a Link header without last",
      () => client.getLastPage('<http://127.0.0.1:9/events?page=2>; rel="next"'),
    ],
    [
      'paginate\'s first step with per_page: "abc"',
      () => client.paginate(client.authorization.getAll, { per_page: "abc" }).next(),
    ],
    ["paginate's first step with params that are no object", () => untyped.paginate(client.events.get, 5).next()],
  ];

  for (const [name, call] of CALLS) {
    test(`${name}: a rejected promise, nothing sent`, async () => {
      let returned: unknown;
      assert.doesNotThrow(() => {
        returned = call();
      });
      assert.ok(returned instanceof Promise, "a promise");
      const caught = await (returned as Promise<unknown>).then(
        () => null,
        (error: unknown) => error,
      );
      assert.ok(caught instanceof ParameterError, String(caught));
      assert.equal(recorder.sent.length, 0);
    });
  }

  test(".catch() and Promise.allSettled see every refusal, and no request was sent", async () => {
    const reasons: unknown[] = [];
    await client.authorization.getAll({ per_page: "abc" }).catch((error: unknown) => reasons.push(error));
    assert.ok(reasons[0] instanceof ParameterError);
    assert.equal(reasons[0].parameter, "per_page");
    const settled = await Promise.allSettled(CALLS.map(([, call]) => call() as Promise<unknown>));
    assert.deepEqual(
      settled.map((s) => s.status),
      CALLS.map(() => "rejected"),
    );
    for (const s of settled) assert.ok((s as PromiseRejectedResult).reason instanceof ParameterError);
    assert.equal(recorder.sent.length, 0);
  });
});
