/**
 * The GraphQL that code clients ask (octokit-plugin-create-pull-request, bots that open pull requests): a repository's
 * ids, default branch, one ref by name and its refs page by page, the pull requests whose head a ref is (by state),
 * pull requests' fields, and objects by the global ids REST's `node_id` gives; each as REST shows the same object,
 * with REST's visibility and token rights (GitHub's NOT_FOUND and FORBIDDEN), and GitHub's refusals of a connection
 * asked wrongly. Over the app's routes, on the driver FEEDGATE_TEST_STORE names.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";
import { ALICE_PUBLIC_TOKEN, ALICE_TOKEN, BOB_TOKEN, WORLD } from "../helpers/client-world.js";
import { IngestService } from "../../src/server/services/ingest.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read as asserted
type Json = Record<string, any>;

const b64 = (text: string) => Buffer.from(text).toString("base64");
const decoded = (id: string) => Buffer.from(id, "base64").toString();

/** The plugin's own query (octokit-plugin-create-pull-request 6.0.1, compose-create-pull-request.js), verbatim. */
const PLUGIN_QUERY = `
    query getPullRequestsForBranch($owner: String!, $repo: String!, $head: String!) {
      repository(name: $repo, owner: $owner) {
        ref(qualifiedName: $head) {
          associatedPullRequests(first: 1, states: OPEN) {
            edges {
              node {
                id
                number
                url
              }
            }
          }
        }
      }
    }`;

describe("GraphQL for code clients: refs, pull requests, global ids", () => {
  let t: TestApp;
  const rest = async (method: string, path: string, body?: unknown, status = 200, token = ALICE_TOKEN) => {
    const res = await t.app.inject({
      method: method as "GET",
      url: path,
      headers: { authorization: `token ${token}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    assert.equal(res.statusCode, status, `${method} ${path}: ${res.body}`);
    return (res.body ? res.json() : null) as Json;
  };
  const ask = async (query: string, variables: Json = {}, token = ALICE_TOKEN) => {
    const res = await t.app.inject({
      method: "POST",
      url: "/graphql",
      headers: { authorization: `token ${token}` },
      payload: { query, variables },
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Json;
  };
  const data = async (query: string, variables: Json = {}, token = ALICE_TOKEN) => {
    const body = await ask(query, variables, token);
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data as Json;
  };
  const put = (repo: string, path: string, text: string, branch: string) =>
    rest("PUT", `/repos/${repo}/contents/${path}`, { message: `Write ${path}`, content: b64(text), branch }, 201);
  const sha = async (repo: string, branch: string) =>
    (await rest("GET", `/repos/${repo}/git/ref/heads/${branch}`)).object.sha as string;
  const branch = async (repo: string, name: string) =>
    rest("POST", `/repos/${repo}/git/refs`, { ref: `refs/heads/${name}`, sha: await sha(repo, "main") }, 201);

  let pull: Json;
  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
    await rest("POST", "/user/repos", { name: "code", auto_init: true }, 201);
    await branch("alice/code", "feature");
    await put("alice/code", "a.txt", "A\n", "feature");
    await rest(
      "POST",
      "/repos/alice/code/git/refs",
      { ref: "refs/tags/v1", sha: await sha("alice/code", "main") },
      201,
    );
    pull = await rest("POST", "/repos/alice/code/pulls", { title: "Add a", head: "feature", base: "main" }, 201);
    await rest("POST", "/user/repos", { name: "vault", private: true, auto_init: true }, 201);
    await branch("alice/vault", "hidden");
    await put("alice/vault", "h.txt", "H\n", "hidden");
    await rest("POST", "/repos/alice/vault/pulls", { title: "Hidden", head: "hidden", base: "main" }, 201);
  });
  after(() => t.close());

  test("a repository's ids and fields as REST shows them, its default branch and the commit it points at", async () => {
    const repo = await rest("GET", "/repos/alice/code");
    const { repository } = await data(`{ repository(owner: "alice", name: "code") {
      id name owner { login } nameWithOwner url isPrivate
      defaultBranchRef { name prefix target { __typename ... on Commit { oid abbreviatedOid messageHeadline } } }
    } }`);
    const main = await sha("alice/code", "main");
    assert.deepEqual(repository, {
      id: repo.node_id,
      name: "code",
      owner: { login: "alice" },
      nameWithOwner: "alice/code",
      url: repo.html_url,
      isPrivate: false,
      defaultBranchRef: {
        name: "main",
        prefix: "refs/heads/",
        target: {
          __typename: "Commit",
          oid: main,
          abbreviatedOid: main.slice(0, 7),
          messageHeadline: "Initial commit",
        },
      },
    });
    assert.equal(decoded(repo.node_id), `010:Repository${repo.id}`, "GitHub's legacy global id");
  });

  test("ref(qualifiedName:) by a branch's short and full name, a tag's, and null without an error for none", async () => {
    const query = `query($name: String!) { repository(owner: "alice", name: "code") {
      ref(qualifiedName: $name) { id name prefix target { oid } } } }`;
    const feature = await sha("alice/code", "feature");
    const repo = await rest("GET", "/repos/alice/code");
    for (const name of ["feature", "refs/heads/feature"]) {
      const { ref } = (await data(query, { name })).repository;
      assert.deepEqual(ref, { id: ref.id, name: "feature", prefix: "refs/heads/", target: { oid: feature } });
      assert.equal(decoded(ref.id), `03:Ref${repo.id}:refs/heads/feature`);
    }
    const tag = (await data(query, { name: "v1" })).repository.ref;
    assert.deepEqual([tag.name, tag.prefix, tag.target.oid], ["v1", "refs/tags/", await sha("alice/code", "main")]);
    assert.deepEqual(await ask(query, { name: "no-such-branch" }), { data: { repository: { ref: null } } });
  });

  test("the plugin's query: the branch's open pull request, its id, number and url those REST shows", async () => {
    const body = await ask(PLUGIN_QUERY, { owner: "alice", repo: "code", head: "feature" });
    assert.deepEqual(body, {
      data: {
        repository: {
          ref: {
            associatedPullRequests: {
              edges: [{ node: { id: pull.node_id, number: pull.number, url: pull.html_url } }],
            },
          },
        },
      },
    });
    assert.equal(decoded(pull.node_id), `011:PullRequest${pull.id}`);
    // A branch without a pull request, and none at all: the plugin tells them apart by `ref`.
    await branch("alice/code", "lonely");
    const lonely = await ask(PLUGIN_QUERY, { owner: "alice", repo: "code", head: "lonely" });
    assert.deepEqual(lonely.data.repository.ref.associatedPullRequests.edges, []);
    const none = await ask(PLUGIN_QUERY, { owner: "alice", repo: "code", head: "gone" });
    assert.deepEqual(none, { data: { repository: { ref: null } } });
  });

  test("a pull request's fields, and its states: closed is CLOSED, merged is MERGED, each filtered by `states`", async () => {
    const query = `query($states: [PullRequestState!]) { repository(owner: "alice", name: "code") {
      ref(qualifiedName: "feature") { associatedPullRequests(first: 10, states: $states) {
        totalCount nodes { title state closed merged isDraft headRefName baseRefName headRefOid
          author { login } repository { nameWithOwner } headRepository { nameWithOwner } baseRef { name } } } } } }`;
    const pulls = async (states: string[] | null) =>
      (await data(query, { states })).repository.ref.associatedPullRequests;
    const open = {
      title: "Add a",
      state: "OPEN",
      closed: false,
      merged: false,
      isDraft: false,
      headRefName: "feature",
      baseRefName: "main",
      headRefOid: pull.head.sha,
      author: { login: "alice" },
      repository: { nameWithOwner: "alice/code" },
      headRepository: { nameWithOwner: "alice/code" },
      baseRef: { name: "main" },
    };
    assert.deepEqual(await pulls(["OPEN"]), { totalCount: 1, nodes: [open] });
    await rest("PATCH", `/repos/alice/code/pulls/${pull.number}`, { state: "closed" });
    assert.deepEqual(await pulls(["OPEN"]), { totalCount: 0, nodes: [] });
    assert.deepEqual(await pulls(["CLOSED", "MERGED"]), {
      totalCount: 1,
      nodes: [{ ...open, state: "CLOSED", closed: true }],
    });
    await rest("PATCH", `/repos/alice/code/pulls/${pull.number}`, { state: "open" });
    await rest("PUT", `/repos/alice/code/pulls/${pull.number}/merge`, {});
    assert.deepEqual(await pulls(["CLOSED"]), { totalCount: 0, nodes: [] });
    const merged = await pulls(null);
    assert.deepEqual(
      merged.nodes.map((p: Json) => [p.state, p.closed, p.merged]),
      [["MERGED", true, true]],
    );
  });

  test("refs(refPrefix:) pages forwards and backwards with GitHub's cursors, names after the prefix", async () => {
    const query = `query($first: Int, $after: String, $last: Int, $before: String) {
      repository(owner: "alice", name: "code") {
        refs(refPrefix: "refs/heads/", first: $first, after: $after, last: $last, before: $before) {
          totalCount edges { cursor node { name prefix } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;
    const page = async (variables: Json) => (await data(query, variables)).repository.refs;
    const names = (refs: Json) => refs.edges.map((e: Json) => e.node.name);
    const first = await page({ first: 2 });
    assert.equal(first.totalCount, 3);
    assert.deepEqual(names(first), ["feature", "lonely"]);
    assert.equal(first.edges[0].node.prefix, "refs/heads/");
    assert.deepEqual(
      first.edges.map((e: Json) => decoded(e.cursor)),
      ["cursor:1", "cursor:2"],
    );
    assert.deepEqual(first.pageInfo, {
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: first.edges[0].cursor,
      endCursor: first.edges[1].cursor,
    });
    const second = await page({ first: 2, after: first.pageInfo.endCursor });
    assert.deepEqual(
      [names(second), second.pageInfo.hasNextPage, second.pageInfo.hasPreviousPage],
      [["main"], false, true],
    );
    const back = await page({ last: 1, before: second.edges[0].cursor });
    assert.deepEqual(names(back), ["lonely"]);
    const all = (
      await data(`{ repository(owner: "alice", name: "code") { refs(refPrefix: "refs/", first: 10) {
      nodes { name prefix } } } }`)
    ).repository.refs.nodes;
    assert.deepEqual(all, [
      { name: "heads/feature", prefix: "refs/" },
      { name: "heads/lonely", prefix: "refs/" },
      { name: "heads/main", prefix: "refs/" },
      { name: "tags/v1", prefix: "refs/" },
    ]);
  });

  test("node(id:) finds what REST's node_id and GraphQL's id name; nodes(ids:) answers each id on its own", async () => {
    const repo = await rest("GET", "/repos/alice/code");
    const user = await rest("GET", "/user");
    const org = await rest("GET", "/orgs/acme");
    const { ref } = (await data(`{ repository(owner: "alice", name: "code") { ref(qualifiedName: "main") { id } } }`))
      .repository;
    const query = `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id
      ... on Repository { nameWithOwner } ... on PullRequest { number }
      ... on User { login } ... on Organization { login } ... on Ref { name } } }`;
    const bad = b64("011:PullRequest999999");
    const body = await ask(query, { ids: [repo.node_id, pull.node_id, user.node_id, org.node_id, ref.id, bad] });
    assert.deepEqual(body.data.nodes, [
      { __typename: "Repository", id: repo.node_id, nameWithOwner: "alice/code" },
      { __typename: "PullRequest", id: pull.node_id, number: pull.number },
      { __typename: "User", id: user.node_id, login: "alice" },
      { __typename: "Organization", id: org.node_id, login: "acme" },
      { __typename: "Ref", id: ref.id, name: "main" },
      null,
    ]);
    assert.deepEqual(
      body.errors.map((e: Json) => [e.type, e.path, e.message]),
      [["NOT_FOUND", ["nodes", 5], `Could not resolve to a node with the global id of '${bad}'.`]],
    );
    const one = await ask(`{ node(id: "not-an-id") { id } }`);
    assert.deepEqual(one, {
      data: { node: null },
      errors: [
        {
          type: "NOT_FOUND",
          path: ["node"],
          locations: [{ line: 1, column: 3 }],
          message: "Could not resolve to a node with the global id of 'not-an-id'.",
        },
      ],
    });
  });

  test("a private repository is NOT_FOUND to a caller REST answers 404, by name and by id, its pull requests too", async () => {
    const query = `{ repository(owner: "alice", name: "vault") { id ref(qualifiedName: "hidden") { name } } }`;
    const { repository } = await data(query);
    assert.deepEqual(repository.ref, { name: "hidden" });
    const hidden = (await rest("GET", "/repos/alice/vault/pulls/1")).node_id as string;
    for (const token of [BOB_TOKEN, ALICE_PUBLIC_TOKEN]) {
      await rest("GET", "/repos/alice/vault", undefined, 404, token);
      assert.deepEqual(await ask(query, {}, token), {
        data: { repository: null },
        errors: [
          {
            type: "NOT_FOUND",
            path: ["repository"],
            locations: [{ line: 1, column: 3 }],
            message: "Could not resolve to a Repository with the name 'alice/vault'.",
          },
        ],
      });
      for (const id of [repository.id, hidden]) {
        const byId = await ask(`query($id: ID!) { node(id: $id) { id } }`, { id }, token);
        assert.deepEqual([byId.data, byId.errors[0].type], [{ node: null }, "NOT_FOUND"]);
      }
    }
  });

  test("a fine-grained token: a private repository with Metadata, its refs with Contents, its pull requests with Pull requests", async () => {
    const pat = async (permissions: Record<string, string>) => {
      const res = await t.app.inject({
        method: "POST",
        url: "/user/personal-access-tokens",
        headers: { authorization: basic("alice", "alice-password") },
        payload: {
          name: `t${Object.keys(permissions).join()}`,
          resource_owner: "alice",
          repository_selection: "all",
          permissions: { repository: permissions },
        },
      });
      assert.equal(res.statusCode, 201, res.body);
      return (res.json() as { token: string }).token;
    };
    const query = `{ repository(owner: "alice", name: "vault") { name ref(qualifiedName: "hidden") {
      name associatedPullRequests(first: 5) { totalCount } } } }`;
    const metadata = await ask(query, {}, await pat({ metadata: "read" }));
    assert.deepEqual(metadata.data, { repository: { name: "vault", ref: null } });
    assert.deepEqual(
      metadata.errors.map((e: Json) => [e.type, e.path, e.message]),
      [["FORBIDDEN", ["repository", "ref"], "Resource not accessible by personal access token"]],
    );
    const contents = await data(query, {}, await pat({ metadata: "read", contents: "read" }));
    assert.deepEqual(contents.repository.ref, { name: "hidden", associatedPullRequests: { totalCount: 0 } });
    const pulls = await data(query, {}, await pat({ metadata: "read", contents: "read", pull_requests: "read" }));
    assert.deepEqual(pulls.repository.ref, { name: "hidden", associatedPullRequests: { totalCount: 1 } });
  });

  test("a connection asked wrongly: GitHub's refusal at its path, and an argument it does not take", async () => {
    const refs = (args: string) =>
      `{ repository(owner: "alice", name: "code") { name refs(refPrefix: "refs/heads/"${args}) { totalCount } } }`;
    const refused = async (args: string) => {
      const body = await ask(refs(args));
      assert.deepEqual(body.data, { repository: { name: "code", refs: null } });
      assert.equal(body.errors.length, 1);
      assert.deepEqual(body.errors[0].path, ["repository", "refs"]);
      return [body.errors[0].type, body.errors[0].message];
    };
    assert.deepEqual(await refused(""), [
      "MISSING_PAGINATION_BOUNDARIES",
      "You must provide a `first` or `last` value to properly paginate the `refs` connection.",
    ]);
    assert.deepEqual(await refused(", first: 101"), [
      "EXCESSIVE_PAGINATION",
      "Requesting 101 records on the `refs` connection exceeds the `first` limit of 100 records.",
    ]);
    assert.deepEqual(await refused(', first: 1, after: "bm9wZQ=="'), [
      "INVALID_CURSOR_ARGUMENTS",
      "`bm9wZQ==` does not appear to be a valid cursor.",
    ]);
    const query = `query Tags { repository(owner: "alice", name: "code") { refs(refPrefix: "refs/tags/", first: 5, orderBy: {field: ALPHABETICAL, direction: ASC}) { totalCount } } }`;
    assert.deepEqual(await ask(query), {
      errors: [
        {
          path: ["query Tags", "repository", "refs", "orderBy"],
          extensions: { code: "argumentNotAccepted", name: "refs", typeName: "Field", argumentName: "orderBy" },
          locations: [{ line: 1, column: query.indexOf("orderBy") + 1 }],
          message: "Field 'refs' doesn't accept argument 'orderBy'",
        },
      ],
    });
  });

  test("a renamed repository is found by its old name, unless followRenames is false", async () => {
    await rest("POST", "/user/repos", { name: "before", auto_init: true }, 201);
    await rest("PATCH", "/repos/alice/before", { name: "after" });
    const query = `query($follow: Boolean!) { repository(owner: "alice", name: "before", followRenames: $follow) { nameWithOwner } }`;
    assert.deepEqual(await data(query, { follow: true }), { repository: { nameWithOwner: "alice/after" } });
    const refused = await ask(query, { follow: false });
    assert.deepEqual(refused.data, { repository: null });
    assert.equal(refused.errors[0].message, "Could not resolve to a Repository with the name 'alice/before'.");
  });
});
