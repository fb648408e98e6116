/**
 * A GitHub route feedgate does not serve answers GitHub's 404 with GitHub's body shape, but its message and a header
 * say the route is what is missing, so that a test failing against feedgate points at the cause; the 404 of a real
 * route's missing resource stays GitHub's own, byte for byte. Over a real socket.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { shownPath } from "../../src/server/plugins/error-handler.js";

const DOCS = "https://developer.github.com/v3";

describe("routes feedgate does not implement", () => {
  let t: TestApp;
  let url: string;
  before(async () => {
    t = await startTestApp({ rateLimitAnonymous: 10_000 });
    url = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  after(() => t.close());

  /** An unimplemented route's answer: status, body and headers as a test failing on it would see them. */
  async function unimplemented(method: string, path: string, shown: string) {
    const res = await fetch(`${url}${path}`, { method });
    assert.equal(res.status, 404, `${method} ${path}`);
    assert.equal(res.headers.get("x-feedgate-unimplemented"), "true", `${method} ${path}`);
    assert.ok(res.headers.get("x-ratelimit-limit"), "rate-limited as any API request");
    assert.match(res.headers.get("content-type")!, /^application\/json/);
    assert.deepEqual(await res.json(), {
      message: `Not Found: feedgate does not implement ${method} ${shown}`,
      documentation_url: DOCS,
    });
  }

  test("answer 404 in GitHub's shape, saying feedgate does not implement the method and path, with a header", async () => {
    await unimplemented("GET", "/repos/octocat/hello/deployments", "/repos/octocat/hello/deployments");
    await unimplemented("GET", "/user/keys", "/user/keys");
    await unimplemented("POST", "/user/keys", "/user/keys");
    await unimplemented("DELETE", "/events", "/events");
  });

  test("under /api/v3 the message names the route without the prefix; what is not under it keeps its path", async () => {
    await unimplemented("GET", "/api/v3/repos/octocat/hello/deployments?ref=main", "/repos/octocat/hello/deployments");
    await unimplemented("GET", "/api/v3/healthz", "/api/v3/healthz");
    await unimplemented("GET", "/api/v3x/events", "/api/v3x/events");
  });

  test("GitHub's routes that share a prefix with an id-based path (/user/orgs next to /user/:id) are unimplemented too", async () => {
    await unimplemented("GET", "/user/orgs", "/user/orgs");
    await unimplemented("GET", "/user/abc/events", "/user/abc/events");
    await unimplemented("GET", "/repositories/octocat/events", "/repositories/octocat/events");
    await unimplemented("GET", "/organizations/-1", "/organizations/-1");
  });

  test("the path is repeated without its query and cut to 100 characters; bytes outside printable ASCII are escaped", async () => {
    await unimplemented("GET", "/user/keys?per_page=1&token=not-repeated", "/user/keys");
    const long = `/repos/a/b/${"x".repeat(5000)}`;
    await unimplemented("GET", long, `${long.slice(0, 100)}...`);
    // What Node's parser lets through of a raw request line; fetch would percent-encode it first.
    assert.equal(shownPath("/caf\u00e9/\u0001\u007f?q=\u00ff"), "/caf%E9/%01%7F");
    assert.equal(shownPath("/a b"), "/a%20b");
  });

  test("a real route's missing resource keeps GitHub's plain 404, without the header", async () => {
    for (const path of [
      "/repos/nobody/nothing/events",
      "/api/v3/users/nobody/events",
      "/orgs/nobody/events",
      "/user/999999999",
      "/repositories/999999999/events",
      "/user/1234567890123456789/events",
    ]) {
      const res = await fetch(`${url}${path}`);
      assert.equal(res.status, 404, path);
      assert.equal(res.headers.get("x-feedgate-unimplemented"), null, path);
      assert.deepEqual(await res.json(), { message: "Not Found", documentation_url: DOCS }, path);
    }
  });

  test("the console's own 404 page is unchanged: HTML, without the header", async () => {
    const res = await fetch(`${url}/console/no-such-page`);
    assert.equal(res.status, 404);
    assert.equal(res.headers.get("x-feedgate-unimplemented"), null);
    assert.match(res.headers.get("content-type")!, /^text\/html/);
    assert.match(await res.text(), /<h1>Not Found<\/h1>/);
  });
});
