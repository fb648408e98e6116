/**
 * No secret ever reaches a log (DESIGN.md, "logs"): passwords, tokens in any form, OTP codes and the token a
 * create answers with. The app logs at trace level into memory through the options production uses.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { once } from "node:events";
import pino from "pino";
import type { InjectOptions } from "fastify";
import { basic, startTestApp, TestClock, type TestApp } from "../helpers/test-app.js";
import { loggerOptions, redactUrl } from "../../src/server/logging.js";
import { AuthorizationService } from "../../src/server/services/authorizations.js";
import { currentOtp, newOtpSecret } from "../../src/server/services/credentials.js";

/** A secret as text, or as the byte list or base64 that pino prints for a Buffer holding it. */
function leaks(log: string, secret: string): boolean {
  const bytes = Buffer.from(secret);
  return log.includes(secret) || log.includes([...bytes].join(",")) || log.includes(bytes.toString("base64"));
}

/** Writes bytes to the server and reads until it closes the connection. */
async function sendRaw(port: number, bytes: string): Promise<string> {
  const socket = connect(port, "127.0.0.1");
  socket.end(bytes);
  let answer = "";
  socket.on("data", (chunk) => (answer += chunk));
  await once(socket, "close");
  return answer;
}

describe("logging", () => {
  const rawAnswers: string[] = [];
  const log = {
    text: "",
    write(line: string) {
      this.text += line;
    },
  };
  const secrets: Record<string, string> = {};
  let t: TestApp;

  before(async () => {
    // The same options buildApp gives Fastify in production; Fastify adds its serializers to an instance the same way.
    const options = loggerOptions("trace");
    assert.ok(typeof options === "object");
    t = await startTestApp({}, new TestClock(), pino(options, log));

    secrets.password = `pw-${randomBytes(8).toString("hex")}`;
    secrets.wrongPassword = `guess-${randomBytes(8).toString("hex")}`;
    const otpSecret = newOtpSecret();
    const alice = await t.createUser("alice", secrets.password);
    const tess = await t.createUser("tess", secrets.password, { otpSecret });
    secrets.token = (await t.createToken(alice, ["repo"])).token;
    secrets.legacyToken = (
      await new AuthorizationService(t.store, t.clock.now).issue(
        tess,
        { scopes: [], note: null, noteUrl: null, fingerprint: null },
        randomBytes(20).toString("hex"),
      )
    ).token;
    secrets.otp = currentOtp(otpSecret, t.clock.now());
    secrets.basic = basic("alice", secrets.password).slice("Basic ".length);
    secrets.wrongBasic = basic("alice", secrets.wrongPassword).slice("Basic ".length);

    const requests: InjectOptions[] = [
      { url: "/authorizations", headers: { authorization: `Basic ${secrets.basic}` } },
      { url: "/authorizations", headers: { authorization: `Basic ${secrets.wrongBasic}` } },
      { url: "/nowhere", headers: { authorization: `token ${secrets.token}` } },
      { url: "/nowhere", headers: { authorization: `Bearer ${secrets.token}` } },
      { url: "/nowhere", headers: { authorization: basic("x-access-token", secrets.token) } },
      { url: `/nowhere?access_token=${secrets.token}` },
      { url: `/authorizations?per_page=5&access_token=${secrets.legacyToken}` },
      // The query parser decodes parameter names, so these are the same credential and must be masked too.
      { url: `/nowhere?access%5Ftoken=${secrets.token}` },
      { url: `/nowhere?%61ccess_token=${secrets.token}&page=2` },
      // Logged as sent, prefix included (the router sees /events), and masked all the same.
      { url: `/api/v3/events?access_token=${secrets.token}` },
      // Refused while routing, before any hook runs.
      { url: `/authorizations/%zz?access_token=${secrets.token}` },
      {
        url: "/authorizations",
        headers: { authorization: basic("tess", secrets.password), "X-GitHub-OTP": secrets.otp },
      },
      {
        url: "/authorizations",
        headers: { authorization: basic("tess", secrets.password), "X-Service-OTP": secrets.otp },
      },
    ];
    for (const request of requests) assert.ok((await t.app.inject({ method: "GET", ...request })).statusCode < 500);
    const created = await t.app.inject({
      method: "POST",
      url: "/authorizations",
      headers: { authorization: `Basic ${secrets.basic}` },
      payload: { scopes: ["repo"], note: "logged?" },
    });
    assert.equal(created.statusCode, 201);
    secrets.createdToken = created.json().token;

    // Requests Node's HTTP parser refuses never reach a route: its error carries the raw bytes (rawPacket).
    secrets.rawToken = (await t.createToken(alice, ["repo"])).token;
    const url = new URL(await t.app.listen({ port: 0, host: "127.0.0.1" }));
    for (const malformed of [
      `GET /events?access_token=${secrets.rawToken} HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ${secrets.basic}\r\nBad Header: y\r\n\r\n`,
      `GET /events HTTP/1.1\r\nHost: x\r\nAuthorization: token ${secrets.rawToken}\r\nX: \u0001\r\n\r\n`,
      `GET /events HTTP/1.1\r\nAuthorization: token ${secrets.rawToken}\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n`,
    ]) {
      rawAnswers.push(await sendRaw(Number(url.port), malformed));
    }
  });
  after(() => t.close());

  test("every request is logged, with its URL and any access_token value masked", () => {
    const lines = log.text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const urls = lines.filter((l) => l.msg === "incoming request").map((l) => l.req.url);
    assert.equal(urls.length, 14);
    assert.ok(urls.includes("/authorizations"));
    assert.ok(urls.includes("/nowhere?access_token=[REDACTED]"));
    assert.ok(urls.includes("/authorizations?per_page=5&access_token=[REDACTED]"));
    assert.ok(urls.includes("/nowhere?%61ccess_token=[REDACTED]&page=2"));
    assert.ok(urls.includes("/api/v3/events?access_token=[REDACTED]"), urls.join(" "));
    assert.ok(lines.some((l) => l.msg === "request completed" && l.res.statusCode === 201));
  });

  test("requests the HTTP parser refuses get a GitHub-shaped 400, and are logged at trace without their bytes", () => {
    for (const answer of rawAnswers) {
      assert.match(answer, /^HTTP\/1\.1 400 Bad Request\r\n/);
      assert.match(answer, /\{"message":"Bad Request","documentation_url":"https:\/\/developer\.github\.com\/v3"\}$/);
    }
    assert.ok(log.text.includes('"msg":"client error"'), "the refusal itself is logged");
    assert.ok(!log.text.includes("rawPacket"));
  });

  test("an error object carrying raw request bytes is logged without them, at any level", () => {
    const lines = {
      text: "",
      write(line: string) {
        this.text += line;
      },
    };
    const logger = pino(loggerOptions("trace") as pino.LoggerOptions, lines);
    const error = Object.assign(new Error("Parse Error"), {
      code: "HPE_INVALID_HEADER_TOKEN",
      rawPacket: Buffer.from(
        `GET /?access_token=${secrets.rawToken} HTTP/1.1\r\nAuthorization: token ${secrets.rawToken}\r\n`,
      ),
    });
    logger.trace({ err: error }, "client error");
    logger.error(error);
    assert.match(lines.text, /HPE_INVALID_HEADER_TOKEN/);
    assert.ok(!leaks(lines.text, secrets.rawToken!), "the token in rawPacket leaked");
  });

  const SECRETS = [
    "password",
    "wrongPassword",
    "basic",
    "wrongBasic",
    "token",
    "legacyToken",
    "createdToken",
    "rawToken",
  ];
  for (const name of SECRETS) {
    test(`the log never contains the ${name}`, () => {
      assert.ok(secrets[name], name);
      assert.ok(!leaks(log.text, secrets[name]!), `${name} leaked into the log`);
    });
  }

  test("the log never contains the OTP code", () => {
    // Six digits can occur inside a timestamp or duration by chance: look for them standing alone.
    assert.doesNotMatch(log.text, new RegExp(`(?<![0-9])${secrets.otp}(?![0-9])`));
  });

  const MASKED: [string, string][] = [
    ["/e?page=2&access_token=T&per_page=5", "/e?page=2&access_token=[REDACTED]&per_page=5"],
    ["/e?access%5Ftoken=T", "/e?access%5Ftoken=[REDACTED]"],
    ["/e?ACCESS_TOKEN=T", "/e?ACCESS_TOKEN=[REDACTED]"],
    ["/e?access_token[]=T", "/e?access_token[]=[REDACTED]"],
    ["/e#access_token=T", "/e#access_token=[REDACTED]"],
    ["/e?q=%zz&client_id=C&client_secret=S", "/e?q=%zz&client_id=C&client_secret=[REDACTED]"],
    ["/e?page=2&per_page=5", "/e?page=2&per_page=5"],
    ["/app-manifests/0123abcd/conversions", "/app-manifests/[REDACTED]/conversions"],
    ["/api/v3/app-manifests/0123abcd/conversions?x=1", "/api/v3/app-manifests/[REDACTED]/conversions?x=1"],
  ];
  test("URLs are masked by the parameter name as the query parser reads it", () => {
    for (const [url, logged] of MASKED) assert.equal(redactUrl(url), logged);
  });
});
