import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { validate, dereference } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { OpenAPIV3_1 } from "openapi-types";
import type { FastifyInstance } from "fastify";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { startTestApp, basic, type TestApp } from "../helpers/test-app.js";
import { ALICE, ALICE_TOKEN, BOB_TOKEN } from "../helpers/client-world.js";
import { createHook, recordAttempt } from "../helpers/hook-fixtures.js";
import { oauthHelpers } from "../../src/testing/oauth.js";
import { registerApp } from "../helpers/github-app.js";
import { endpoints, type Endpoint } from "../../src/api/endpoints.js";

type Document = OpenAPIV3_1.Document;
type Operation = OpenAPIV3_1.OperationObject;
type Response = OpenAPIV3_1.ResponseObject;

const METHODS = ["get", "post", "patch", "delete"] as const;
const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";
/** Headers of HTTP itself, CORS and content negotiation, which the document leaves to those standards. */
const GENERIC_HEADERS =
  /^(content-type|content-length|date|connection|keep-alive|transfer-encoding|vary|x-content-type-options|access-control-.*)$/;

const openapiPath = (url: string) => url.replace(/:(\w+)/g, "{$1}");

/**
 * Every route the app registers, read from `printRoutes()` (its tree: a line's depth is its indentation, its path
 * the segments of the lines above it), without the HEAD routes Fastify adds, CORS's OPTIONS and /docs' own files.
 */
function registeredRoutes(app: FastifyInstance): { method: string; url: string }[] {
  const segments: string[] = [];
  const routes: { method: string; url: string }[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split("\n")) {
    const start = line.indexOf("── ") + 3;
    if (start < 3) continue;
    const depth = (start - 4) / 4;
    const [, segment = "", methods = ""] = /^(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line.slice(start))!;
    segments.length = depth;
    segments.push(segment);
    const url = segments.join("");
    for (const method of methods.split(", ").filter(Boolean)) {
      if (!["GET", "POST", "PATCH", "DELETE"].includes(method) || url === "/docs" || url.startsWith("/docs/")) continue;
      if (url === "/console" || url.startsWith("/console/")) continue; // web pages, not API (tests/server/console-*.test.ts)
      if (url.startsWith("/login/")) continue; // OAuth's host-root endpoints, not REST (tests/server/oauth-*.test.ts)
      if (url.endsWith("/settings/apps/new")) continue; // the manifest flow's page (tests/testing/app-manifest.test.ts)
      // printRoutes() draws a wildcard's node without the static part before its `*`: those come from the table.
      if (!url.includes("*")) routes.push({ method, url });
    }
  }
  // As the document names them: the wildcard by the name GitHub gives it (`/git/ref/{ref}`, `/contents/{path}`).
  // A PATCH row is served under POST too (GitHub's alias); a row of a family with `/repositories/{id}/` forms has
  // its wildcard there too (compare's, of `repos`).
  for (const row of Object.values(endpoints).flatMap((family) => Object.values(family) as Endpoint[]))
    for (const method of row.method === "PATCH" ? ["PATCH", "POST"] : [row.method])
      for (const path of new Set([row.path, row.path.replace("/repos/:user/:repo/", "/repositories/:id/")]))
        if (row.wildcard && method !== "PUT" && app.hasRoute({ method, url: path }))
          routes.push({ method, url: path.replace(/\*$/, `:${row.wildcard}`) });
  return routes;
}

function operations(document: Document): { path: string; method: (typeof METHODS)[number]; operation: Operation }[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((method) => item?.[method]).map((method) => ({ path, method, operation: item![method]! })),
  );
}

describe("the OpenAPI description", () => {
  let t: ListeningApp;
  let document: Document;
  /** The same document with every `$ref` replaced by what it names. */
  let resolved: Document;
  before(async () => {
    t = await startListeningApp();
    const res = await fetch(`${t.url}/openapi.json`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    document = (await res.json()) as Document;
    resolved = (await dereference(structuredClone(document))) as Document;
    // Alice's token expires, so every answer to it carries GitHub-Authentication-Token-Expiration, which must be documented.
    const password = { authorization: basic(ALICE.login, ALICE.password), "content-type": "application/json" };
    const tokens = (await (await fetch(`${t.url}/authorizations`, { headers: password })).json()) as {
      id: string;
      token_last_eight: string;
    }[];
    const own = tokens.find((a) => a.token_last_eight === ALICE_TOKEN.slice(-8))!;
    const patched = await fetch(`${t.url}/authorizations/${own.id}`, {
      method: "PATCH",
      headers: password,
      body: JSON.stringify({ expires_at: new Date(t.clock.now().getTime() + 30 * 86_400_000).toISOString() }),
    });
    assert.equal(patched.status, 200);
  });
  after(() => t.close());

  test("is a valid OpenAPI 3.1 document", async () => {
    assert.equal(document.openapi, "3.1.0");
    const result = await validate(structuredClone(document));
    assert.ok(result.valid, JSON.stringify(result, null, 2));
    assert.deepEqual(result.warnings, []);
  });

  test("describes expires_at in the create and update bodies and the authorization, and the expiration header", () => {
    for (const method of ["post", "patch"] as const) {
      const path = method === "post" ? "/authorizations" : "/authorizations/{id}";
      const body = (resolved.paths![path]![method]!.requestBody as OpenAPIV3_1.RequestBodyObject).content[
        "application/json"
      ]!.schema as { properties: Record<string, { description?: string; anyOf?: unknown[] }> };
      assert.match(body.properties.expires_at?.description ?? "", /ISO 8601 .*null for never/s, method);
      assert.deepEqual(
        body.properties.expires_at?.anyOf?.map((t) => (t as { type: string }).type),
        ["string", "null"],
        method,
      );
    }
    const served = resolved.paths!["/authorizations/{id}"]!.get!.responses!["200"] as OpenAPIV3_1.ResponseObject;
    const schema = served.content!["application/json"]!.schema as {
      properties: Record<string, { description?: string }>;
      required: string[];
    };
    assert.ok(schema.required.includes("expires_at"));
    assert.match(schema.properties.expires_at?.description ?? "", /null: never/);
    assert.match(
      (served.headers!["GitHub-Authentication-Token-Expiration"] as OpenAPIV3_1.HeaderObject).description ?? "",
      /2026-01-15 10:00:00 UTC/,
    );
  });

  test("names its server by the base URL the request used", () => {
    assert.deepEqual(document.servers, [{ url: t.url }]);
  });

  test("lists every route the server registers, with its method, and nothing else", () => {
    const routes = registeredRoutes(t.app);
    assert.ok(routes.length >= 29, `only ${routes.length} routes read from printRoutes()`);
    for (const { method, url } of routes) {
      const operation = document.paths?.[openapiPath(url)]?.[method.toLowerCase() as (typeof METHODS)[number]];
      assert.ok(operation, `${method} ${url} is missing from the document`);
      assert.ok(
        operation.operationId && operation.summary,
        `${method} ${url} has no operationId or summary: give its row a summary (src/api/endpoints.ts), or its route a RouteDoc (src/server/openapi/route-doc.ts)`,
      );
    }
    const listed = operations(document)
      .map(({ path, method }) => `${method.toUpperCase()} ${path}`)
      .sort();
    assert.deepEqual(listed, routes.map(({ method, url }) => `${method} ${openapiPath(url)}`).sort());
  });

  test("names table operations by the endpoint table and requires what its rows require", () => {
    const get = document.paths?.["/repos/{user}/{repo}/events"]?.get;
    assert.equal(get?.operationId, "events.getFromRepo");
    assert.ok(
      get?.security?.some((requirement) => Object.keys(requirement).length === 0),
      "anonymous callers are served",
    );
    const create = document.paths?.["/authorizations"]?.post;
    assert.equal(create?.operationId, "authorization.create");
    assert.ok(
      create?.security?.every((requirement) => "basicAuth" in requirement),
      "a password only",
    );
    assert.ok(create?.requestBody, "the body is described");
    assert.equal(document.paths?.["/repositories/{id}/events"]?.get?.operationId, "events.getFromRepoById");
    // The ways a caller authenticates: Basic (with either one-time-password header) and tokens, as the issue names them.
    const schemes = document.components?.securitySchemes as Record<string, OpenAPIV3_1.SecuritySchemeObject>;
    assert.deepEqual(schemes.basicAuth, { ...schemes.basicAuth, type: "http", scheme: "basic" });
    for (const [scheme, header] of [
      ["githubOtp", "X-GitHub-OTP"],
      ["serviceOtp", "X-Service-OTP"],
      ["tokenAuth", "Authorization"],
    ]) {
      assert.deepEqual(schemes[scheme!], { ...schemes[scheme!], type: "apiKey", in: "header", name: header }, scheme);
    }
    assert.ok(
      create?.security?.some((requirement) => "basicAuth" in requirement && "serviceOtp" in requirement),
      "a two-factor code may come with the password on create",
    );
    const perPage = (get!.parameters as OpenAPIV3_1.ParameterObject[]).find((p) => p.name === "per_page");
    assert.deepEqual([perPage?.in, (perPage!.schema as { pattern?: string }).pattern], ["query", "^[0-9]+$"]);
  });

  /**
   * One Ajv for the file, each schema compiled once: a new Ajv compiles its meta-schema and formats again, and the
   * document's schemas are the same objects answer after answer (hundreds of answers, a few dozen schemas).
   */
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats.default(ajv);
  const validators = new WeakMap<object, ReturnType<typeof ajv.compile>>();
  const validatorOf = (schema: object) => {
    let check = validators.get(schema);
    if (!check) validators.set(schema, (check = ajv.compile(schema)));
    return check;
  };

  /** Asserts an answer is one the document gives for the operation: status, body schema and headers. */
  async function assertDocumented(operation: Operation, label: string, res: globalThis.Response): Promise<unknown> {
    const documented = operation.responses?.[String(res.status)] as Response | undefined;
    const text = await res.text();
    assert.ok(documented, `${label}: status ${res.status} is not documented (${text.slice(0, 200)})`);
    const headers = (documented.headers as Record<string, OpenAPIV3_1.HeaderObject> | undefined) ?? {};
    const names = new Map(Object.keys(headers).map((name) => [name.toLowerCase(), name]));
    for (const [name, value] of res.headers) {
      if (GENERIC_HEADERS.test(name)) continue;
      const documentedName = names.get(name);
      assert.ok(documentedName, `${label} ${res.status}: header ${name} is not documented`);
      if ((headers[documentedName]!.schema as { type?: string } | undefined)?.type === "integer") {
        assert.match(value, /^\d+$/, `${label}: ${name}`);
      }
    }
    const content = documented.content ?? {};
    if (res.status === 204 || res.status === 302 || res.status === 304) {
      assert.equal(text, "", `${label}: ${res.status} has a body`);
      assert.deepEqual(Object.keys(content), [], `${label}: ${res.status} is documented with a body`);
      return undefined;
    }
    const type = (res.headers.get("content-type") ?? "").split(";")[0]!.trim();
    const media = content[type];
    assert.ok(media?.schema, `${label} ${res.status}: content type ${type} is not documented`);
    const body = type === "application/json" ? JSON.parse(text) : text;
    const check = validatorOf(media.schema as object);
    assert.ok(check(body), `${label} ${res.status}: ${ajv.errorsText(check.errors)}\n${text.slice(0, 500)}`);
    return body;
  }

  test("is true: every GET it lists answers a seeded server's requests as documented, 200 and 304", async () => {
    // Values for the path parameters, read from the seeded world's own answers.
    const anEvent = async (url: string) =>
      ((await (await fetch(`${t.url}${url}`)).json()) as Record<string, { id: number }>[])[0]!;
    const repoEvent = await anEvent("/repos/alice/hello/events");
    const orgEvent = await anEvent("/orgs/acme/events");
    const aliceEvent = await anEvent("/users/alice/events/public");
    const list = await fetch(`${t.url}/authorizations`, {
      headers: { authorization: basic(ALICE.login, ALICE.password) },
    });
    const pat = await fetch(`${t.url}/user/personal-access-tokens`, {
      method: "POST",
      headers: { authorization: basic(ALICE.login, ALICE.password), "content-type": "application/json" },
      body: JSON.stringify({ name: "documented", repository_selection: "all" }),
    });
    const ids: Record<string, string> = {
      authorizations: ((await list.json()) as { id: string }[])[0]!.id,
      "personal-access-tokens": String(((await pat.json()) as { id: number }).id),
      repositories: String(repoEvent.repo!.id),
      organizations: String(orgEvent.org!.id),
      user: String(aliceEvent.actor!.id),
    };
    // A hook of each kind, with an attempt recorded: what the hooks routes show.
    const repoHook = await createHook(t.store, {
      kind: "repo",
      repoId: (await t.store.directory.findRepo("alice", "hello"))!.id,
    });
    const orgHook = await createHook(t.store, { kind: "org", orgId: (await t.store.users.findByLogin("acme"))!.id });
    for (const hook of [repoHook, orgHook]) await recordAttempt(t.store, hook);
    const [delivery] = await t.store.hooks.deliveries(repoHook.id, 1, null);
    const [orgDelivery] = await t.store.hooks.deliveries(orgHook.id, 1, null);
    // A star, a subscription and a follow each way, for the activity routes to show.
    const as = (authorization: string) => ({ method: "PUT", headers: { authorization } });
    for (const [url, authorization] of [
      ["/user/starred/alice/hello", `token ${ALICE_TOKEN}`],
      ["/repos/alice/hello/subscription", `token ${ALICE_TOKEN}`],
      ["/user/following/alice", basic("bob", "bob-password")],
    ] as const)
      assert.ok((await fetch(`${t.url}${url}`, as(authorization))).ok, url);
    // An issue opened through the API, labelled, assigned and in a milestone (which makes its first issue events).
    await fetch(`${t.url}/repos/alice/hello/milestones`, {
      method: "POST",
      headers: { authorization: `token ${ALICE_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "v1.0" }),
    });
    const opened = await fetch(`${t.url}/repos/alice/hello/issues`, {
      method: "POST",
      headers: { authorization: `token ${ALICE_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "Documented", labels: ["docs"], assignees: ["alice"], milestone: 1 }),
    });
    const issue = (await opened.json()) as { number: number };
    const write = (path: string, body: object) =>
      fetch(`${t.url}${path}`, {
        method: "POST",
        headers: { authorization: `token ${ALICE_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then((res) => res.json() as Promise<{ id: number }>);
    const comment = await write(`/repos/alice/hello/issues/${issue.number}/comments`, { body: "Documented too" });
    // And one in an organization's repository, for the organization's issue list.
    await write("/repos/acme/site/issues", { title: "Documented for acme", assignees: ["alice"] });
    await write(`/repos/alice/hello/issues/${issue.number}/reactions`, { content: "+1" });
    await write(`/repos/alice/hello/issues/comments/${comment.id}/reactions`, { content: "heart" });
    // bob a collaborator of alice/hello (invited, then accepting), olga invited there, and alice invited to bob/tools.
    const put = (path: string, token: string) =>
      fetch(`${t.url}${path}`, { method: "PUT", headers: { authorization: `token ${token}` } }).then(
        (res) => res.json() as Promise<{ id: number }>,
      );
    const invitation = await put("/repos/alice/hello/collaborators/bob", ALICE_TOKEN);
    const accepted = await fetch(`${t.url}/user/repository_invitations/${invitation.id}`, {
      method: "PATCH",
      headers: { authorization: `token ${BOB_TOKEN}` },
    });
    assert.equal(accepted.status, 204);
    await put("/repos/alice/hello/collaborators/olga", ALICE_TOKEN);
    await put("/repos/bob/tools/collaborators/alice", BOB_TOKEN);
    // Code in alice/hello: a README committed through the contents API, and an annotated tag of that commit.
    const committed = (await fetch(`${t.url}/repos/alice/hello/contents/README.md`, {
      method: "PUT",
      headers: { authorization: `token ${ALICE_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ message: "Documented", content: Buffer.from("# hello\n").toString("base64") }),
    }).then((res) => res.json())) as { content: { sha: string }; commit: { sha: string; tree: { sha: string } } };
    // What CI reported of that commit: a status.
    await write(`/repos/alice/hello/statuses/${committed.commit.sha}`, { state: "success", context: "ci" });
    const tag = (await write("/repos/alice/hello/git/tags", {
      tag: "v1.0",
      message: "Documented",
      object: committed.commit.sha,
      type: "commit",
    })) as unknown as { sha: string };
    // Two pull requests: one reviewed by bob and merged into `release` (what the merge check and a review show; main
    // stays where the statuses and checks above name it), one open into main.
    const send = (method: string, path: string, body: object, token = ALICE_TOKEN) =>
      fetch(`${t.url}${path}`, {
        method,
        headers: { authorization: `token ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then(async (res) => {
        assert.ok(res.ok, `${method} ${path}: ${res.status}`);
        return res.json() as Promise<{ number: number; id: number }>;
      });
    const pulls: { number: number; id: number }[] = [];
    await send("POST", "/repos/alice/hello/git/refs", { ref: "refs/heads/release", sha: committed.commit.sha });
    for (const [branch, base] of [
      ["documented", "release"],
      ["open", "main"],
    ]) {
      await send("POST", "/repos/alice/hello/git/refs", { ref: `refs/heads/${branch}`, sha: committed.commit.sha });
      const file = { message: branch, content: Buffer.from(branch!).toString("base64"), branch };
      await send("PUT", `/repos/alice/hello/contents/${branch}.md`, file);
      pulls.push(await send("POST", "/repos/alice/hello/pulls", { title: branch, head: branch, base }));
    }
    // A directory's README on a branch of its own: what `readme/{dir}` reads.
    await send("POST", "/repos/alice/hello/git/refs", { ref: "refs/heads/docs", sha: committed.commit.sha });
    await send("PUT", "/repos/alice/hello/contents/docs/README.md", {
      message: "Docs",
      content: Buffer.from("# docs\n").toString("base64"),
      branch: "docs",
    });
    const review = await send(
      "POST",
      `/repos/alice/hello/pulls/${pulls[0]!.number}/reviews`,
      { event: "APPROVE" },
      BOB_TOKEN,
    );
    // A review comment on the merged one's new file; its id is the issue comment's (two sequences, both from 1), which
    // the `comment_id` of both kinds of comment route then names.
    const note = await send("POST", `/repos/alice/hello/pulls/${pulls[0]!.number}/comments`, {
      body: "Documented",
      path: "documented.md",
      line: 1,
    });
    assert.equal(note.id, comment.id, "the review comment shares the issue comment's id");
    await send("PUT", `/repos/alice/hello/pulls/${pulls[0]!.number}/merge`, {});
    await send("POST", `/repos/alice/hello/pulls/${pulls[1]!.number}/requested_reviewers`, { reviewers: ["bob"] });
    // A comment on the README's commit, main's head; its id is the issue comment's too (each sequence from 1).
    const onCommit = await send("POST", `/repos/alice/hello/commits/${committed.commit.sha}/comments`, {
      body: "Documented",
    });
    assert.equal(onCommit.id, comment.id, "the commit comment shares the issue comment's id");
    await write(`/repos/alice/hello/comments/${onCommit.id}/reactions`, { content: "rocket" });
    // main protected, with required checks and reviews: what the protection routes and the branches read.
    await send("PUT", "/repos/alice/hello/branches/main/protection", {
      required_status_checks: { strict: false, contexts: ["ci"] },
      enforce_admins: false,
      required_pull_request_reviews: { required_approving_review_count: 1 },
      restrictions: null,
    });
    // A release of the README's commit with an asset named as the labels' `{name}` is: what the release routes read.
    const release = await send("POST", "/repos/alice/hello/releases", { tag_name: "v2.0", name: "Documented" });
    const asset = (await fetch(`${t.url}/repos/alice/hello/releases/${release.id}/assets?name=docs`, {
      method: "POST",
      headers: { authorization: `token ${ALICE_TOKEN}`, "content-type": "text/plain" },
      body: "Documented\n",
    }).then((res) => res.json())) as { id: number };
    // A GitHub App installed on alice's repositories: its JWT for the app's routes, a token for the installation's.
    const bot = await registerApp(t, {
      owner: "alice",
      webhookUrl: "https://bot.example/hook",
      callbackUrls: ["http://127.0.0.1:9/callback"],
      clientSecret: "documented-secret",
      permissions: { issues: "write", checks: "write" },
    });
    const [appHook] = (await t.store.hooks.list({ kind: "app", appId: bot.app.id }, { limit: 1, offset: 0 })).rows;
    await recordAttempt(t.store, appHook!);
    const [appDelivery] = await t.store.hooks.deliveries(appHook!.id, 1, null);
    const installation = await bot.install("alice");
    await bot.install("acme");
    const minted = await fetch(`${t.url}/app/installations/${installation.id}/access_tokens`, {
      method: "POST",
      headers: { authorization: `Bearer ${await bot.jwt()}` },
    });
    const installationToken = ((await minted.json()) as { token: string }).token;
    // The app's check run of the README's commit, with an annotation, in the suite it makes.
    const checkRun = (await fetch(`${t.url}/repos/alice/hello/check-runs`, {
      method: "POST",
      headers: { authorization: `token ${installationToken}`, "content-type": "application/json" },
      body: JSON.stringify({
        name: "documented",
        head_sha: committed.commit.sha,
        conclusion: "success",
        output: {
          title: "Documented",
          summary: "One note",
          annotations: [{ path: "README.md", start_line: 1, end_line: 1, annotation_level: "notice", message: "ok" }],
        },
      }),
    }).then((res) => res.json())) as { id: number; check_suite: { id: number } };
    // And a user token of the app, alice's, for what a user token reads of the app's installations.
    const back = await oauthHelpers(t.store, t.clock.now).authorize(
      `${t.url}/login/oauth/authorize?client_id=${bot.app.clientId}`,
      "alice",
    );
    const exchanged = await fetch(`${t.url}/login/oauth/access_token`, {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/json" },
      body: JSON.stringify({
        client_id: bot.app.clientId,
        client_secret: "documented-secret",
        code: new URL(back).searchParams.get("code"),
      }),
    });
    const userToken = ((await exchanged.json()) as { access_token: string }).access_token;
    const values: Record<string, string> = {
      username: "bob",
      installation_id: String(installation.id),
      user: "alice",
      repo: "hello",
      org: "acme",
      issue_number: String(issue.number),
      pull_number: String(pulls[0]!.number),
      review_id: String(review.id),
      comment_id: String(comment.id),
      target: "bob",
      name: "docs",
      milestone_number: "1",
      assignee: "alice",
      file_sha: committed.content.sha,
      tree_sha: committed.commit.tree.sha,
      commit_sha: committed.commit.sha,
      tag_sha: tag.sha,
      // The legacy list of a ref's statuses names its ref `sha`, as the create does.
      sha: "main",
      check_run_id: String(checkRun.id),
      release_id: String(release.id),
      asset_id: String(asset.id),
      tag: "v2.0",
      check_suite_id: String(checkRun.check_suite.id),
      ref: "heads/main",
      path: "README.md",
      branch: "main",
      basehead: "main...open",
      dir: "docs",
    };
    /** The query a GET needs to answer 200 (its required parameters). */
    const queries: Record<string, string> = {
      "/search/issues": "?q=documented",
      "/{user}/{repo}/info/refs": "?service=git-upload-pack",
      "/repos/{user}/{repo}/readme/{dir}": "?ref=docs",
    };
    const hookValues = (path: string): Record<string, string> =>
      path.startsWith("/orgs/")
        ? { hook_id: String(orgHook.id), delivery_id: String(orgDelivery!.id) }
        : path.startsWith("/app/")
          ? { delivery_id: String(appDelivery!.id) }
          : { hook_id: String(repoHook.id), delivery_id: String(delivery!.id) };

    const gets = operations(resolved).filter(({ method }) => method === "get");
    assert.ok(gets.length >= 23, `${gets.length} GET operations`);
    for (const { path, operation } of gets) {
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => {
        // The family an `{id}` belongs to: the path's first segment, or its second under `/user/`.
        const family = path.startsWith("/user/personal-access-tokens") ? "personal-access-tokens" : path.split("/")[1]!;
        // Whom alice follows: not herself.
        const followed = path.startsWith("/user/following/") ? "bob" : undefined;
        // A git ref's name is `heads/main` under `/git/`; elsewhere a ref is a branch's name.
        // The pull requests of a commit: the open one's head, which is its commit.
        const ref = name === "ref" && !path.includes("/git/") ? (path.endsWith("/pulls") ? "open" : "main") : undefined;
        const value = name === "id" ? ids[family] : (followed ?? ref ?? values[name] ?? hookValues(path)[name]);
        assert.ok(value, `${path}: no example value for {${name}}; add one to this test`);
        return value;
      });
      // A password where only a password will do; otherwise alice's token, so private events are shown too.
      const passwordOnly = !operation.security?.some(
        (requirement) => Object.keys(requirement).length === 0 || "tokenAuth" in requirement,
      );
      // Hooks with the password too: organization hooks need `admin:org_hook`, which alice's token lacks.
      const appOnly = operation.security?.some((requirement) => "appJwt" in requirement);
      const authorization = appOnly
        ? `Bearer ${await bot.jwt()}`
        : path.startsWith("/installation/")
          ? `token ${installationToken}`
          : path.startsWith("/user/installations")
            ? `token ${userToken}`
            : passwordOnly || operation.tags?.includes("hooks")
              ? basic(ALICE.login, ALICE.password)
              : `token ${ALICE_TOKEN}`;
      const query = queries[path] ?? "";
      // A redirect (an archive's link) is checked as it is answered, not followed.
      const redirects = Boolean(operation.responses?.["302"]);
      const res = await fetch(`${t.url}${url}${query}`, { headers: { authorization }, redirect: "manual" });
      // A check answers 204 where it holds (`GET /user/starred/{owner}/{repo}`, `.../assignees/{assignee}`).
      assert.equal(res.status, redirects ? 302 : operation.responses?.["200"] ? 200 : 204, `GET ${url}`);
      if (redirects) {
        assert.match(res.headers.get("location") ?? "", /\/_codeload\//, `GET ${url}`);
        await assertDocumented(operation, `GET ${url}`, res);
        continue; // no body, nothing to cache
      }
      if (res.status === 204) continue; // no body, nothing to cache
      if (authorization.startsWith("token "))
        assert.ok(res.headers.get("github-authentication-token-expiration"), `GET ${url}`);
      const etag = res.headers.get("etag");
      const body = await assertDocumented(operation, `GET ${url}`, res);
      if (Array.isArray(body)) assert.ok(body.length > 0, `GET ${url} shows nothing: the seeded world should fill it`);

      assert.ok(etag, `GET ${url} has no ETag`);
      if (!operation.responses?.["304"]) continue;
      const again = await fetch(`${t.url}${url}${query}`, { headers: { authorization, "if-none-match": etag } });
      assert.equal(again.status, 304, `GET ${url} with If-None-Match`);
      await assertDocumented(operation, `GET ${url} (conditional)`, again);
    }
  });

  test("is true about errors: unknown resources, missing credentials and bad paging answer as documented", async () => {
    const byPath = (path: string, method: (typeof METHODS)[number] = "get") => resolved.paths![path]![method]!;
    const cases: [Operation, string, RequestInit?][] = [
      [byPath("/repos/{user}/{repo}/events"), "/repos/nobody/nothing/events"],
      [byPath("/repositories/{id}/events"), "/repositories/987654321/events"],
      [
        byPath("/authorizations/{id}"),
        "/authorizations/987654321",
        { headers: { authorization: basic(ALICE.login, ALICE.password) } },
      ],
      [byPath("/authorizations"), "/authorizations"],
      [byPath("/authorizations"), "/authorizations", { headers: { authorization: `token ${ALICE_TOKEN}` } }],
      [byPath("/events"), "/events?per_page=ten"],
      [byPath("/events"), "/events", { headers: { accept: "application/vnd.github.v4+json" } }],
      [byPath("/healthz"), "/healthz", { headers: { authorization: "token not-a-token" } }],
      [
        byPath("/admin/events", "post"),
        "/admin/events",
        { method: "POST", body: "[]", headers: { authorization: `token ${ALICE_TOKEN}` } },
      ],
    ];
    for (const [operation, url, init] of cases) {
      const res = await fetch(`${t.url}${url}`, init);
      assert.ok(res.status >= 400, `${url}: ${res.status}`);
      await assertDocumented(operation, `${init?.method ?? "GET"} ${url}`, res);
    }
  });

  test("is true about writes: create, update (PATCH and POST) and delete answer as documented", async () => {
    const authorization = basic(ALICE.login, ALICE.password);
    const json = { authorization, "content-type": "application/json" };
    const create = resolved.paths!["/authorizations"]!.post!;
    const created = (await assertDocumented(
      create,
      "POST /authorizations",
      await fetch(`${t.url}/authorizations`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ scopes: ["gist"], note: "openapi" }),
      }),
    )) as { id: string };
    const item = resolved.paths!["/authorizations/{id}"]!;
    const url = `${t.url}/authorizations/${created.id}`;
    for (const method of ["patch", "post"] as const) {
      const res = await fetch(url, {
        method: method.toUpperCase(),
        headers: json,
        body: JSON.stringify({ note: method }),
      });
      assert.equal(res.status, 200);
      await assertDocumented(item[method]!, `${method} ${url}`, res);
    }
    const deleted = await fetch(url, { method: "DELETE", headers: { authorization } });
    assert.equal(deleted.status, 204);
    await assertDocumented(item.delete!, `DELETE ${url}`, deleted);
  });

  test("is true about credential revocation: anonymous only, 1 to 1000 strings, 202, 403 and 422 as documented", async () => {
    const revoke = resolved.paths!["/credentials/revoke"]!.post!;
    assert.equal(revoke.operationId, "credentials.revoke");
    assert.deepEqual(revoke.security, [{}], "no credential is accepted");
    const body = (revoke.requestBody as OpenAPIV3_1.RequestBodyObject).content["application/json"]!
      .schema as OpenAPIV3_1.SchemaObject;
    assert.deepEqual(body.required, ["credentials"]);
    const list = body.properties!.credentials as OpenAPIV3_1.ArraySchemaObject;
    assert.deepEqual(
      [list.type, list.minItems, list.maxItems, (list.items as OpenAPIV3_1.SchemaObject).type],
      ["array", 1, 1000, "string"],
    );
    const url = `${t.url}/credentials/revoke`;
    const post = (credentials: unknown, headers: Record<string, string> = {}) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ credentials }),
      });
    const cases: [string, globalThis.Response, number][] = [
      ["a token nobody holds", await post(["fgp_000000000000000000000000000000AAAAAA"]), 202],
      ["an empty list", await post([]), 422],
      ["a caller with a token", await post(["x"], { authorization: `token ${ALICE_TOKEN}` }), 403],
    ];
    for (const [label, res, status] of cases) {
      assert.equal(res.status, status, label);
      await assertDocumented(revoke, `POST /credentials/revoke: ${label}`, res);
    }
  });

  test("/docs serves a browsable reference from this server alone", async () => {
    for (const entry of ["/docs", "/docs/"]) {
      const page = await fetch(`${t.url}${entry}`, { headers: { accept: BROWSER_ACCEPT } });
      assert.equal(page.status, 200, entry);
      assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
      assert.match(page.headers.get("content-security-policy") ?? "", /default-src 'self'/);
      const html = await page.text();
      const assets = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      assert.ok(
        assets.some((a) => a.endsWith("swagger-ui-bundle.js")),
        html,
      );
      for (const asset of assets) {
        const assetUrl = new URL(asset, `${t.url}${entry}`);
        assert.equal(assetUrl.origin, t.url, `${entry} loads ${asset} from elsewhere`);
        const res = await fetch(assetUrl, { headers: { accept: "*/*" } });
        assert.equal(res.status, 200, `${assetUrl}`);
        assert.ok((await res.arrayBuffer()).byteLength > 0, `${assetUrl} is empty`);
      }
    }
    // What the page loads the description from: the same document.
    const initializer = await (await fetch(`${t.url}/docs/static/swagger-initializer.js`)).text();
    assert.match(initializer, /resolveUrl\('\.\/json'\)/);
    assert.match(initializer, /validatorUrl: null/, "no call to swagger.io's online validator");
    assert.deepEqual(await (await fetch(`${t.url}/docs/json`)).json(), document);
  });
});

describe("the description's routes", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ rateLimitAnonymous: 1, baseUrl: "https://ghe.example/api/v3" });
  });
  after(() => t.close());

  test("are not rate-limited: /openapi.json and /docs answer far past the anonymous limit, without rate-limit headers", async () => {
    for (let i = 0; i < 3; i++) {
      for (const url of ["/openapi.json", "/docs/", "/docs/static/swagger-ui.css", "/docs/json"]) {
        const res = await t.app.inject({ url, headers: { accept: BROWSER_ACCEPT } });
        assert.equal(res.statusCode, 200, `${url} #${i}`);
        assert.equal(res.headers["x-ratelimit-limit"], undefined, url);
      }
    }
    assert.equal((await t.app.inject({ url: "/events" })).statusCode, 200);
    assert.equal((await t.app.inject({ url: "/events" })).statusCode, 403, "the API itself is still limited");
  });

  test("name the configured base URL as the server", async () => {
    for (const url of ["/openapi.json", "/docs/json"]) {
      assert.deepEqual((await t.app.inject({ url })).json().servers, [{ url: "https://ghe.example/api/v3" }], url);
    }
  });
});
