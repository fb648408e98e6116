/**
 * Releases and their assets over real HTTP, on each driver: a published release making its tag through a push
 * (CreateEvent, `create`, `push`), its ReleaseEvent and `release` webhooks (`created`, `published`, `released`), a
 * draft unseen by readers without push access and then published, `edited` with its `changes`, the latest release as
 * `make_latest` and pre-releases decide it, GitHub's refusals with nothing written, and an asset uploaded as raw
 * bytes, downloaded byte for byte (counted), renamed and deleted. Then the latest @octokit/rest, unmodified, making a
 * release, reading the latest, uploading to its `upload_url` and downloading the asset. Bodies are checked against
 * GitHub's published schemas, webhooks against its payload schemas.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { Octokit } from "octokit-rest-latest";
import { ALICE_TOKEN, BOB_TOKEN } from "../helpers/client-world.js";
import { assertSchema, compileSchemas } from "../compat/schemas.js";
import { assertWebhook } from "../helpers/webhook-schemas.js";
import { issueScene, ZOE_TOKEN, type IssueScene, type Json } from "../helpers/issue-scene.js";

const REPO = "/repos/alice/hello";

describe("releases and release assets over real HTTP", () => {
  let s: IssueScene;
  let url = "";
  let main = "";

  /** A request on the socket; `body` as JSON unless it is bytes. */
  const send = (
    method: string,
    path: string,
    { token = ALICE_TOKEN, body, headers = {} }: { token?: string | null; body?: unknown; headers?: Json } = {},
  ) =>
    fetch(`${url}${path}`, {
      method,
      headers: {
        ...(token === null ? {} : { authorization: `token ${token}` }),
        ...(body === undefined || Buffer.isBuffer(body) ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: Buffer.isBuffer(body) ? new Uint8Array(body) : JSON.stringify(body) }),
    });
  const json = async (res: Response, status: number): Promise<Json> => {
    const text = await res.text();
    assert.equal(res.status, status, text);
    return JSON.parse(text) as Json;
  };
  const call = async (method: string, path: string, body?: unknown, status = 200) =>
    json(await send(method, `${REPO}${path}`, { body }), status);
  const latestEvents = async (n: number) => (await call("GET", `/events?per_page=${n}`)) as unknown as Json[];
  /** The deliveries after the first `seen`, as event.action. */
  const deliveredSince = async (seen: number, count: number) => (await s.delivered(seen + count)).slice(seen);
  /** What a refused write could leave: the scene's state and the repository's releases (drafts too). */
  const written = async () => {
    const repo = (await s.t.store.directory.findRepo("alice", "hello"))!;
    const releases = await s.t.store.releases.page(repo.id, true, { limit: 100, offset: 0 });
    const assets = await s.t.store.releases.assetsOf(releases.rows.map((r) => r.id));
    return JSON.stringify([await s.written(), releases, [...assets]]);
  };

  before(async () => {
    compileSchemas("release", "release-asset");
    s = await issueScene();
    url = await s.t.app.listen({ port: 0, host: "127.0.0.1" });
    const readme = { message: "Start", content: Buffer.from("# hello\n").toString("base64") };
    main = (await call("PUT", "/contents/README.md", readme, 201)).commit.sha;
    await s.delivered(2); // the branch made: create and push
  });
  after(async () => s.close());

  let first: Json = {};
  test("a published release makes its tag by a push, ReleaseEvent, and created, published, released", async () => {
    const seen = s.deliveries();
    const res = await send("POST", `${REPO}/releases`, { body: { tag_name: "v1.0", name: "One", body: "Notes" } });
    first = await json(res, 201);
    assertSchema("release", first);
    assert.equal(res.headers.get("location"), first.url);
    assert.deepEqual(
      [first.tag_name, first.target_commitish, first.name, first.body, first.draft, first.prerelease],
      ["v1.0", "main", "One", "Notes", false, false],
    );
    assert.equal(first.upload_url, `${url}${REPO}/releases/${first.id}/assets{?name,label}`);
    assert.equal(first.published_at, first.created_at);
    assert.equal(first.author.login, "alice");
    assert.equal((await call("GET", "/git/ref/tags/v1.0")).object.sha, main, "the tag is made at the default branch");

    const [release, create] = await latestEvents(2);
    assert.deepEqual(
      [release!.type, release!.payload.action, release!.payload.release.id],
      ["ReleaseEvent", "published", first.id],
    );
    assert.deepEqual([create!.type, create!.payload.ref, create!.payload.ref_type], ["CreateEvent", "v1.0", "tag"]);

    const deliveries = await deliveredSince(seen, 5);
    assert.deepEqual(
      deliveries.map((d) => `${d.event}.${d.action ?? ""}`),
      ["create.", "push.", "release.created", "release.published", "release.released"],
    );
    for (const d of deliveries.slice(2)) {
      assertWebhook("release", d.action!, d.body);
      assert.equal(d.body.release.id, first.id);
    }
    assert.deepEqual(await call("GET", `/releases/${first.id}`), first);
    assert.deepEqual(await call("GET", "/releases/tags/v1.0"), first);
    assert.deepEqual(await call("GET", "/releases/latest"), first);
  });

  test("refusals: a tag a release has (already_exists), no push access, no credentials; nothing written", async () => {
    const before = await written();
    const duplicate = await json(await send("POST", `${REPO}/releases`, { body: { tag_name: "v1.0" } }), 422);
    assert.deepEqual(duplicate.errors, [{ resource: "Release", code: "already_exists", field: "tag_name" }]);
    await json(await send("POST", `${REPO}/releases`, { body: { tag_name: "v9", target_commitish: "nowhere" } }), 422);
    await json(await send("POST", `${REPO}/releases`, { body: { tag_name: "v9", make_latest: "maybe" } }), 422);
    const missing = await json(await send("POST", `${REPO}/releases`, { body: { name: "No tag" } }), 422);
    assert.match(String(missing.message), /tag_name/);
    await json(await send("POST", `${REPO}/releases`, { token: BOB_TOKEN, body: { tag_name: "v9" } }), 403);
    await json(await send("POST", `${REPO}/releases`, { token: null, body: { tag_name: "v9" } }), 401);
    await json(await send("DELETE", `${REPO}/releases/${first.id}`, { token: BOB_TOKEN }), 403);
    const upload = `${REPO}/releases/${first.id}/assets?name=x.bin`;
    await json(await send("POST", upload, { token: BOB_TOKEN, body: Buffer.from("x") }), 403);
    await json(await send("GET", `${REPO}/releases/999999`), 404);
    assert.equal(await written(), before);
  });

  let draft: Json = {};
  test("a draft makes no tag nor event, is seen only with push access, and is published later", async () => {
    const seen = s.deliveries();
    const events = (await latestEvents(1))[0]!.id;
    draft = await call("POST", "/releases", { tag_name: "v2.0", draft: true, name: "Two" }, 201);
    assertSchema("release", draft);
    assert.deepEqual([draft.draft, draft.published_at], [true, null]);
    await json(await send("GET", `${REPO}/git/ref/tags/v2.0`), 404);
    assert.equal((await latestEvents(1))[0]!.id, events, "no event for a draft");
    const [created] = await deliveredSince(seen, 1);
    assert.deepEqual([created!.event, created!.action], ["release", "created"]);
    assertWebhook("release", "created", created!.body);

    // Readers without push access do not see it: not listed, 404 by id; a collaborator sees it.
    for (const token of [BOB_TOKEN, null]) {
      const listed = await json(await send("GET", `${REPO}/releases`, { token }), 200);
      assert.deepEqual(
        (listed as unknown as Json[]).map((r) => r.tag_name),
        ["v1.0"],
      );
      await json(await send("GET", `${REPO}/releases/${draft.id}`, { token }), 404);
    }
    const byZoe = await json(await send("GET", `${REPO}/releases`, { token: ZOE_TOKEN }), 200);
    assert.deepEqual(
      (byZoe as unknown as Json[]).map((r) => r.tag_name),
      ["v2.0", "v1.0"],
      "newest first",
    );
    await json(await send("GET", `${REPO}/releases/tags/v2.0`), 404); // a published release by tag only

    const atPublish = s.deliveries();
    const published = await call("PATCH", `/releases/${draft.id}`, { draft: false, name: "Two, final" });
    assertSchema("release", published);
    assert.deepEqual([published.draft, published.name, typeof published.published_at], [false, "Two, final", "string"]);
    assert.equal((await call("GET", "/git/ref/tags/v2.0")).object.sha, main);
    const [release] = await latestEvents(1);
    assert.deepEqual(
      [release!.type, release!.payload.action, release!.payload.release.id],
      ["ReleaseEvent", "published", draft.id],
    );
    const deliveries = await deliveredSince(atPublish, 5);
    assert.deepEqual(
      deliveries.map((d) => `${d.event}.${d.action ?? ""}`),
      ["create.", "push.", "release.edited", "release.published", "release.released"],
    );
    assert.deepEqual(deliveries[2]!.body.changes, { name: { from: "Two" } });
    for (const d of deliveries.slice(2)) assertWebhook("release", d.action!, d.body);
    assert.equal((await call("GET", "/releases/latest")).id, draft.id, "published last, made latest");
    const listed = await json(await send("GET", `${REPO}/releases?per_page=1`, { token: BOB_TOKEN }), 200);
    assert.equal((listed as unknown as Json[]).length, 1);
  });

  test("the latest release: not a pre-release, not one kept from it; make_latest makes an older one latest", async () => {
    const atCreate = s.deliveries();
    const pre = await call("POST", "/releases", { tag_name: "v3.0-rc", prerelease: true }, 201);
    const kept = await call("POST", "/releases", { tag_name: "v2.1", make_latest: "false" }, 201);
    assert.equal((await call("GET", "/releases/latest")).id, draft.id);
    const made = await deliveredSince(atCreate, 10);
    assert.deepEqual(
      made.filter((d) => d.event === "release").map((d) => `${d.action}:${d.body.release.tag_name}`),
      [
        "created:v3.0-rc",
        "published:v3.0-rc",
        "prereleased:v3.0-rc",
        "created:v2.1",
        "published:v2.1",
        "released:v2.1",
      ],
    );
    assertWebhook("release", "prereleased", made[4]!.body);
    const seen = s.deliveries();
    s.t.clock.advance("1m"); // the latest is the one made latest most recently
    await call("PATCH", `/releases/${first.id}`, { make_latest: "true" });
    assert.equal((await call("GET", "/releases/latest")).id, first.id);
    const [edited] = await deliveredSince(seen, 1);
    assert.deepEqual([edited!.action, edited!.body.changes], ["edited", { make_latest: { to: true } }]);
    assertWebhook("release", "edited", edited!.body);
    // A pre-release made a full release is released, and the latest.
    const atRelease = s.deliveries();
    s.t.clock.advance("1m");
    await call("PATCH", `/releases/${pre.id}`, { prerelease: false });
    const [released] = await deliveredSince(atRelease, 1);
    assert.deepEqual([released!.event, released!.action], ["release", "released"]);
    assert.equal((await call("GET", "/releases/latest")).id, pre.id);
    assert.notEqual((await call("GET", "/releases/latest")).id, kept.id);
  });

  test("an asset: uploaded as raw bytes, downloaded byte for byte and counted, renamed, refused twice, deleted", async () => {
    const bytes = Buffer.concat([Buffer.from([0, 255, 0, 13, 10]), randomBytes(200_000)]);
    const before = await written();
    const upload = `${REPO}/releases/${first.id}/assets?name=${encodeURIComponent("my tool.tar.gz")}&label=Tool`;
    const res = await send("POST", upload, { body: bytes, headers: { "content-type": "application/gzip" } });
    const asset = await json(res, 201);
    assertSchema("release-asset", asset);
    assert.deepEqual(
      [asset.name, asset.label, asset.content_type, asset.size, asset.state, asset.download_count],
      ["my.tool.tar.gz", "Tool", "application/gzip", bytes.length, "uploaded", 0],
    );
    assert.equal(asset.uploader.login, "alice");
    assert.match(asset.digest, /^sha256:[0-9a-f]{64}$/);
    assert.notEqual(await written(), before);

    const afterUpload = await written();
    const again = await send("POST", upload, { body: bytes, headers: { "content-type": "application/gzip" } });
    assert.deepEqual((await json(again, 422)).errors, [
      { resource: "ReleaseAsset", code: "already_exists", field: "name" },
    ]);
    assert.equal(await written(), afterUpload, "a refused upload writes nothing");

    const download = await send("GET", `${REPO}/releases/assets/${asset.id}`, {
      headers: { accept: "application/octet-stream" },
    });
    assert.equal(download.status, 200);
    assert.equal(download.headers.get("content-type"), "application/octet-stream");
    assert.ok(Buffer.from(await download.arrayBuffer()).equals(bytes), "the bytes uploaded");
    const read = await call("GET", `/releases/assets/${asset.id}`);
    assertSchema("release-asset", read);
    assert.equal(read.download_count, 1);
    const web = await send("GET", new URL(read.browser_download_url).pathname, { token: null });
    assert.ok(Buffer.from(await web.arrayBuffer()).equals(bytes), "the browser download too");

    const release = await call("GET", `/releases/${first.id}`);
    assert.deepEqual(
      release.assets.map((a: Json) => [a.id, a.download_count]),
      [[asset.id, 2]],
    );
    const listed = (await call("GET", `/releases/${first.id}/assets`)) as unknown as Json[];
    assert.deepEqual(
      listed.map((a) => a.name),
      ["my.tool.tar.gz"],
    );
    const renamed = await call("PATCH", `/releases/assets/${asset.id}`, { name: "tool.tgz", label: "The tool" });
    assert.deepEqual([renamed.name, renamed.label], ["tool.tgz", "The tool"]);

    // Assets of a draft are a draft's: unseen without push access.
    const hidden = await call("POST", "/releases", { tag_name: "v4.0", draft: true }, 201);
    const secret = await json(
      await send("POST", `${REPO}/releases/${hidden.id}/assets?name=secret.txt`, { body: Buffer.from("secret") }),
      201,
    );
    await json(await send("GET", `${REPO}/releases/assets/${secret.id}`, { token: BOB_TOKEN }), 404);

    assert.equal((await send("DELETE", `${REPO}/releases/assets/${asset.id}`)).status, 204);
    await json(await send("GET", `${REPO}/releases/assets/${asset.id}`), 404);
  });

  test("deleting a release: 204, release.deleted, its tag kept", async () => {
    const seen = s.deliveries();
    const doomed = await call("POST", "/releases", { tag_name: "v5.0" }, 201);
    await deliveredSince(seen, 5);
    const atDelete = s.deliveries();
    assert.equal((await send("DELETE", `${REPO}/releases/${doomed.id}`)).status, 204);
    const [deleted] = await deliveredSince(atDelete, 1);
    assert.deepEqual([deleted!.event, deleted!.action, deleted!.body.release.id], ["release", "deleted", doomed.id]);
    assertWebhook("release", "deleted", deleted!.body);
    await json(await send("GET", `${REPO}/releases/${doomed.id}`), 404);
    assert.equal((await call("GET", "/git/ref/tags/v5.0")).object.sha, main);
  });

  test("@octokit/rest, unmodified: createRelease, getLatestRelease, uploadReleaseAsset, the asset downloaded", async () => {
    const octokit = new Octokit({ baseUrl: url, auth: ALICE_TOKEN });
    const repo = { owner: "alice", repo: "hello" };
    const made = await octokit.repos.createRelease({ ...repo, tag_name: "v10.0", name: "Ten", body: "By Octokit" });
    assert.equal(made.status, 201);
    const latest = await octokit.repos.getLatestRelease(repo);
    assert.equal(latest.data.id, made.data.id);

    const bytes = randomBytes(4096);
    // As a user would: the release's upload_url (Octokit expands its template), or the API's base URL.
    const byUrl = await octokit.repos.uploadReleaseAsset({
      ...repo,
      release_id: made.data.id,
      url: made.data.upload_url,
      name: "ten.bin",
      label: "Ten",
      data: bytes as unknown as string,
      headers: { "content-type": "application/octet-stream", "content-length": bytes.length },
    });
    assert.equal(byUrl.status, 201);
    assert.deepEqual([byUrl.data.name, byUrl.data.label, byUrl.data.size], ["ten.bin", "Ten", bytes.length]);
    const byBase = await octokit.repos.uploadReleaseAsset({
      ...repo,
      release_id: made.data.id,
      baseUrl: url,
      name: "notes.txt",
      data: "Ten's notes\n",
      headers: { "content-type": "text/plain" },
    });
    assert.equal(byBase.data.content_type, "text/plain");

    const download = await octokit.repos.getReleaseAsset({
      ...repo,
      asset_id: byUrl.data.id,
      headers: { accept: "application/octet-stream" },
    });
    assert.ok(Buffer.from(download.data as unknown as ArrayBuffer).equals(bytes), "Octokit reads back the bytes");
    const assets = await octokit.repos.listReleaseAssets({ ...repo, release_id: made.data.id });
    assert.deepEqual(
      assets.data.map((a) => [a.name, a.download_count]),
      [
        ["ten.bin", 1],
        ["notes.txt", 0],
      ],
    );
  });
});
