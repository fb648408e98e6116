/**
 * Failures below the API (spec section 7 and the SDK's own error classes): a body declared as JSON that
 * does not parse is code 500; timeouts and refused connections have their own classes and codes; a body
 * that is not JSON still gives a message; credentials never reach an error. A small node:http server plays
 * the misbehaving service.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { once } from "node:events";
import { Client, FeedgateError, HttpError, NetworkError, TimeoutError } from "../../src/client/index.js";
import { failure } from "../helpers/failure.js";

describe("transport failures", () => {
  let server: Server;
  let url: string;
  /** Requests the server is holding open, released at the end. */
  const stalled: (() => void)[] = [];

  before(async () => {
    server = createServer((request, response) => {
      const path = new URL(request.url!, "http://x").pathname;
      const reply = (status: number, type: string, body: string, headers: Record<string, string> = {}) => {
        response.writeHead(status, { "content-type": type, "x-ratelimit-remaining": "41", ...headers });
        response.end(body);
      };
      switch (path) {
        case "/events":
          return reply(200, "application/json; charset=utf-8", '[{"id": "1", ');
        case "/orgs/broken/events":
          return reply(404, "application/json", "<html>Not Found</html>");
        case "/orgs/html/events":
          return reply(
            403,
            "text/html",
            "Request forbidden by administrative rules. Please make sure your request has a User-Agent header.",
          );
        case "/orgs/plain/events":
          return reply(502, "text/plain", "");
        case "/orgs/empty/events":
          return reply(200, "application/json", "");
        case "/orgs/nothing/events":
          return reply(204, "application/json", "");
        case "/orgs/text/events":
          return reply(200, "text/plain", "not json, not declared so");
        case "/orgs/private/events":
          return reply(
            401,
            "application/json",
            JSON.stringify({ message: "Bad credentials", documentation_url: "https://x" }),
          );
        case "/orgs/slow/events":
          // Never answers.
          return void stalled.push(() => response.destroy());
        case "/orgs/stall/events":
          // Sends the headers, then stalls in the middle of the body.
          response.writeHead(200, { "content-type": "application/json" });
          response.write("[");
          return void stalled.push(() => response.destroy());
        default:
          return reply(404, "application/json", JSON.stringify({ message: "Not Found" }));
      }
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const release of stalled) release();
    server.closeAllConnections();
    server.close();
  });

  const client = (options: { timeout?: number; token?: string } = {}) =>
    new Client({
      baseUrl: url,
      version: "3.0.0",
      timeout: options.timeout,
      auth: { type: "oauth", token: options.token ?? "s3cret-token" },
    });

  test("a 200 declared as JSON with a malformed body is HttpError code 500, internal server error", async () => {
    const error = await failure(client().events.get());
    assert.ok(error instanceof HttpError);
    assert.equal(error.code, 500);
    assert.equal(error.status, 500);
    assert.match(error.message, /^Internal Server Error: the response was declared as JSON but could not be parsed/);
    assert.equal(error.body, '[{"id": "1", ');
    assert.equal(error.meta["x-ratelimit-remaining"], "41");
    assert.equal(error.request.headers.authorization, "token [REDACTED]");
  });

  test("a failure status with a malformed JSON body is code 500 as well", async () => {
    const error = await failure(client().events.getFromOrg({ org: "broken" }));
    assert.ok(error instanceof HttpError);
    assert.equal(error.code, 500);
  });

  test("an empty body declared as JSON is malformed on 200, and nothing on 204", async () => {
    assert.equal(((await failure(client().events.getFromOrg({ org: "empty" }))) as HttpError).code, 500);
    const nothing = await client().events.getFromOrg({ org: "nothing" });
    assert.deepEqual([nothing.status, nothing.data], [204, undefined]);
  });

  test("a body not declared as JSON is returned as text, and an error's text body is its message", async () => {
    const text = await client().events.getFromOrg({ org: "text" });
    assert.equal(text.data as unknown, "not json, not declared so");
    const html = await failure(client().events.getFromOrg({ org: "html" }));
    assert.ok(html instanceof HttpError);
    assert.equal(html.code, 403);
    assert.match(html.message, /^Request forbidden by administrative rules/);
    const empty = await failure(client().events.getFromOrg({ org: "plain" }));
    assert.ok(empty instanceof HttpError);
    assert.equal(empty.message, "502 Bad Gateway");
  });

  test("no answer within the timeout is TimeoutError, code ETIMEDOUT", async () => {
    const started = Date.now();
    const error = await failure(client({ timeout: 200 }).events.getFromOrg({ org: "slow" }));
    assert.ok(error instanceof TimeoutError);
    assert.ok(error instanceof FeedgateError);
    assert.equal(error.code, "ETIMEDOUT");
    assert.equal(error.timeout, 200);
    assert.match(error.message, /timed out after 200 ms/);
    assert.equal(error.request.url, `${url}/orgs/slow/events`);
    assert.ok(Date.now() - started < 5000);
  });

  test("a body that stalls after the headers times out too", async () => {
    const error = await failure(client({ timeout: 200 }).events.getFromOrg({ org: "stall" }));
    assert.ok(error instanceof TimeoutError);
  });

  test("a refused connection is NetworkError, code ENETWORK, with the reason", async () => {
    const closed = createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, "close");
    const refused = new Client({
      baseUrl: `http://127.0.0.1:${port}`,
      version: "3.0.0",
      auth: { type: "oauth", token: "s3cret-token" },
    });
    const error = await failure(refused.events.get());
    assert.ok(error instanceof NetworkError);
    assert.ok(!(error instanceof HttpError));
    assert.equal(error.code, "ENETWORK");
    assert.match(error.message, /ECONNREFUSED/);
    assert.equal(error.request.headers.authorization, "token [REDACTED]");
  });

  test("an access_token in a followed URL is redacted from the error", async () => {
    const link = `<${url}/orgs/private/events?access_token=s3cret-token&page=2>; rel="next"`;
    const error = await failure(client().getNextPage(link));
    assert.ok(error instanceof HttpError);
    assert.equal(error.code, 401);
    assert.equal(error.message, "Bad credentials");
    assert.equal(error.documentationUrl, "https://x");
    assert.equal(error.request.url, `${url}/orgs/private/events?access_token=[REDACTED]&page=2`);
    assert.ok(!JSON.stringify({ ...error, message: error.message }).includes("s3cret-token"));
  });
});
