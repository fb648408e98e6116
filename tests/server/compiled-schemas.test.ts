import { test, after } from "node:test";
import assert from "node:assert/strict";
import { compilePendingSchemas } from "../../src/server/compiled-schemas.js";
import { startTestApp, type TestApp } from "../helpers/test-app.js";

const apps: TestApp[] = [];
after(async () => {
  for (const started of apps) await started.close();
});

// First in the file: the route's validator is still the stand-in that compiles on this request.
test("a body refused on a route's first request gets Ajv's errors, as a compiled validator gives them", async () => {
  const started = await startTestApp();
  apps.push(started);
  const user = await started.createUser("octocat", "password-1");
  const { token } = await started.createToken(user, ["repo"]);
  const refused = () =>
    started.app.inject({
      method: "POST",
      url: "/user/repos",
      headers: { authorization: `token ${token}`, "content-type": "application/json" },
      payload: JSON.stringify({ name: 5 }),
    });
  const first = await refused();
  assert.equal(first.statusCode, 422);
  assert.deepEqual(first.json(), {
    message: "Validation Failed",
    documentation_url: "https://docs.github.com/rest/repos/repos#create-a-repository-for-the-authenticated-user",
    errors: [{ resource: "Repository", field: "name", code: "invalid", message: "name must be string, got 5" }],
  });
  assert.equal((await refused()).body, first.body);
});

// Schemas compile on first use: one that Ajv or fast-json-stringify refuses would fail a request, not the start.
test("every route's request and response schemas compile, in each form of the document", async () => {
  for (const config of [{}, { numericIds: true }, { testControls: true }]) {
    const started = await startTestApp(config);
    apps.push(started);
    await started.app.ready();
    assert.doesNotThrow(compilePendingSchemas);
  }
});
