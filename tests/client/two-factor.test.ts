/**
 * Basic auth and two-factor (spec section 5, wire notes 1.4): a 401 carrying `X-Service-OTP: required; app`
 * asks the `otp` callback once and retries once with the code; credentials are UTF-8 on the wire and
 * never appear in errors.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client, HttpError, ParameterError, type OtpCallback } from "../../src/client/index.js";
import { currentOtp } from "../../src/server/services/credentials.js";
import { jsonResponse, recordingFetch } from "../helpers/recording-fetch.js";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { OLGA, OTP_SECRET, UNICODE } from "../helpers/client-world.js";

const OTP_MESSAGE = "Must specify two-factor authentication OTP code.";

describe("two-factor authentication and credentials", () => {
  let t: ListeningApp;
  before(async () => {
    t = await startListeningApp();
  });
  after(() => t.close());

  /** olga's client, with a recording fetch and a callback that counts its calls. */
  function olga(answer: (challenge: { method: string }) => string | Promise<string>) {
    const recorder = recordingFetch();
    const challenges: { method: string }[] = [];
    const otp: OtpCallback = (challenge) => {
      challenges.push(challenge);
      return answer(challenge);
    };
    const client = new Client({
      baseUrl: t.url,
      version: "3.0.0",
      fetch: recorder.fetch,
      auth: { type: "basic", username: OLGA.login, password: OLGA.password, otp },
    });
    return { client, sent: recorder.sent, challenges };
  }

  test("a 401 OTP challenge asks the callback once and the retry with its code succeeds", async () => {
    const { client, sent, challenges } = olga(async () => currentOtp(OTP_SECRET, t.clock.now()));
    const result = await client.authorization.getAll();
    assert.equal(result.status, 200);
    assert.deepEqual(challenges, [{ method: "app" }]);
    assert.equal(sent.length, 2);
    assert.equal(sent[0]!.headers["x-service-otp"], undefined);
    assert.equal(sent[1]!.headers["x-service-otp"], currentOtp(OTP_SECRET, t.clock.now()));
  });

  test("the retry of a write sends the same body again", async () => {
    const { client, sent } = olga(() => currentOtp(OTP_SECRET, t.clock.now()));
    const { data } = await client.authorization.create({ note: "with otp", scopes: ["gist"] });
    assert.deepEqual([data.note, data.scopes], ["with otp", ["gist"]]);
    assert.equal(sent.length, 2);
    assert.equal(sent[1]!.body, sent[0]!.body);
  });

  test("a wrong code fails with 401 after exactly one retry; the code is redacted from the error", async () => {
    const { client, sent, challenges } = olga(() => "000000");
    const error = await client.authorization.getAll().then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(error instanceof HttpError);
    assert.equal(error.code, 401);
    assert.equal(error.message, OTP_MESSAGE);
    assert.equal(error.headers["x-service-otp"], "required; app");
    assert.equal(error.headers["x-github-otp"], "required; app");
    assert.equal(challenges.length, 1);
    assert.equal(sent.length, 2);
    assert.equal(error.request.headers["x-service-otp"], "[REDACTED]");
    assert.equal(error.request.headers.authorization, "Basic [REDACTED]");
    assert.ok(!JSON.stringify(error).includes(OLGA.password));
  });

  test("without a callback the challenge is the error", async () => {
    const recorder = recordingFetch();
    const client = new Client({
      baseUrl: t.url,
      version: "3.0.0",
      fetch: recorder.fetch,
      auth: { type: "basic", username: OLGA.login, password: OLGA.password },
    });
    const error = await client.authorization.getAll().then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(error instanceof HttpError);
    assert.equal(error.message, OTP_MESSAGE);
    assert.equal(recorder.sent.length, 1);
  });

  test("a code given as a string is sent up front: one request", async () => {
    const recorder = recordingFetch();
    const client = new Client({
      baseUrl: t.url,
      version: "3.0.0",
      fetch: recorder.fetch,
      auth: {
        type: "basic",
        username: OLGA.login,
        password: OLGA.password,
        otp: currentOtp(OTP_SECRET, t.clock.now()),
      },
    });
    assert.equal((await client.authorization.getAll()).status, 200);
    assert.equal(recorder.sent.length, 1);
  });

  test("a code in the request's X-Service-OTP header is used as given", async () => {
    const { client, sent, challenges } = olga(() => "never asked");
    const result = await client.authorization.getAll({
      headers: { "X-Service-OTP": currentOtp(OTP_SECRET, t.clock.now()) },
    });
    assert.equal(result.status, 200);
    assert.deepEqual([sent.length, challenges.length], [1, 0]);
  });

  test("a wrong password is 401 Bad credentials and the callback is not asked", async () => {
    const recorder = recordingFetch();
    let asked = 0;
    const client = new Client({
      baseUrl: t.url,
      version: "3.0.0",
      fetch: recorder.fetch,
      auth: { type: "basic", username: OLGA.login, password: "wrong", otp: () => String(++asked) },
    });
    const error = await client.authorization.getAll().then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(error instanceof HttpError);
    assert.equal(error.message, "Bad credentials");
    assert.deepEqual([asked, recorder.sent.length], [0, 1]);
  });

  test("a callback that returns no string is refused, naming auth.otp", async () => {
    const { client } = olga(() => undefined as unknown as string);
    const error = await client.authorization.getAll().then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(error instanceof ParameterError);
    assert.equal(error.parameter, "auth.otp");
  });

  test("GitHub's X-GitHub-OTP challenge is answered too, and its method is passed on", async () => {
    let calls = 0;
    const recorder = recordingFetch((request) =>
      ++calls === 1
        ? jsonResponse({ message: OTP_MESSAGE }, { status: 401, headers: { "X-GitHub-OTP": "required; sms" } })
        : jsonResponse(request.headers["x-service-otp"] === "123456" ? [] : { message: "wrong" }, { status: 200 }),
    );
    const methods: string[] = [];
    const client = new Client({
      baseUrl: "https://ghe.example/api/v3",
      version: "3.0.0",
      fetch: recorder.fetch,
      auth: {
        type: "basic",
        username: "u",
        password: "p",
        otp: ({ method }) => {
          methods.push(method);
          return "123456";
        },
      },
    });
    const result = await client.authorization.getAll();
    assert.deepEqual(result.data, []);
    assert.deepEqual(methods, ["sms"]);
    assert.equal(recorder.sent[1]!.url, "https://ghe.example/api/v3/authorizations");
  });

  test("a non-ASCII password is sent as UTF-8 Basic credentials", async () => {
    const recorder = recordingFetch();
    const client = new Client({
      baseUrl: t.url,
      version: "3.0.0",
      fetch: recorder.fetch,
      auth: { type: "basic", username: UNICODE.login, password: UNICODE.password },
    });
    assert.equal((await client.authorization.getAll()).status, 200);
    assert.equal(
      recorder.sent[0]!.headers.authorization,
      `Basic ${Buffer.from(`${UNICODE.login}:${UNICODE.password}`, "utf8").toString("base64")}`,
    );
  });

  test("authenticate switches credentials for later requests, and null makes the client anonymous", async () => {
    const recorder = recordingFetch();
    const client = new Client({ baseUrl: t.url, version: "3.0.0", fetch: recorder.fetch });
    client.authenticate({ type: "basic", username: UNICODE.login, password: UNICODE.password });
    assert.equal((await client.authorization.getAll()).status, 200);
    client.authenticate(null);
    await client.events.get({ per_page: 1 });
    assert.equal(recorder.sent[1]!.headers.authorization, undefined);
  });
});
