/**
 * Starring, watching and following as actions: a star writes the star, GitHub's WatchEvent and the `star.created` and
 * `watch.started` webhooks in one transaction; an unstar `star.deleted`; a subscription or a follow only its state,
 * with the counts and received feeds that follow from it. A refused write writes nothing. Answers are checked against
 * GitHub's published schemas (../shared/data/openapi/).
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";
import { ALICE_PUBLIC_TOKEN, ALICE_TOKEN, BOB_TOKEN, WORLD } from "../helpers/client-world.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { isoSeconds } from "../../src/server/convert/time.js";
import { assertSchema } from "../compat/schemas.js";
import { hookedReceiver, type Receiver } from "../helpers/webhook-receiver.js";
import { SHARED_DATA } from "../helpers/recorded.js";
import { readFileSync } from "node:fs";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read as asserted
type Json = Record<string, any>;

const STAR_JSON = "application/vnd.github.star+json";

describe("stars, subscriptions and follows", () => {
  let t: TestApp;
  let hook: Receiver;
  /** The deliveries the hook received, once there are `count` of them. */
  const delivered = async (count: number) => {
    await hook.until(count);
    return hook.received.map((r) => {
      const body = JSON.parse(r.body) as Json;
      return { event: r.headers["x-github-event"], action: body.action, body };
    });
  };
  const send = (method: "GET" | "PUT" | "DELETE", url: string, token: string | null = BOB_TOKEN, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: token === null ? {} : { authorization: `token ${token}` },
      ...(payload ? { payload } : {}),
    });
  // Alice's token by default: anonymous callers have GitHub's 60 requests an hour, which this file would spend.
  const get = async (url: string, token: string | null = ALICE_TOKEN, accept?: string) =>
    (
      await t.app.inject({
        method: "GET",
        url,
        headers: { ...(token === null ? {} : { authorization: `token ${token}` }), ...(accept ? { accept } : {}) },
      })
    ).json() as Json;
  /** What a write can leave behind: the relations' counts, the feeds, and the deliveries received. */
  const written = async () => {
    const [hello, alice, bob, feed, received] = await Promise.all([
      get("/repos/alice/hello"),
      get("/users/alice"),
      get("/users/bob"),
      get("/repos/alice/hello/events?per_page=100"),
      get("/users/alice/received_events?per_page=100", ALICE_TOKEN),
    ]);
    return JSON.stringify([
      [hello.stargazers_count, hello.subscribers_count],
      [alice.followers, alice.following, bob.followers, bob.following],
      (feed as unknown as Json[]).length,
      (received as unknown as Json[]).length,
      hook.received.length,
    ]);
  };

  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
    hook = await hookedReceiver(t, "alice/hello");
  });
  after(async () => {
    await t.close();
    await hook.close();
  });

  test("starring answers 204 and makes WatchEvent started and the star.created and watch.started webhooks", async () => {
    assert.equal((await get("/repos/alice/hello")).stargazers_count, 0);
    assert.equal((await send("GET", "/user/starred/alice/hello")).statusCode, 404, "not starred yet");
    const res = await send("PUT", "/user/starred/alice/hello");
    assert.equal(res.statusCode, 204, res.body);
    assert.equal(res.body, "");
    assert.equal(res.headers["x-accepted-oauth-scopes"], "public_repo, repo");
    assert.equal((await send("GET", "/user/starred/alice/hello")).statusCode, 204);

    const feed = (await get("/repos/alice/hello/events")) as unknown as Json[];
    assert.deepEqual(
      [feed[0]!.type, feed[0]!.actor.login, feed[0]!.payload],
      ["WatchEvent", "bob", { action: "started" }],
    );
    assertSchema("event", feed[0]);
    const bobs = (await get("/users/bob/events")) as unknown as Json[];
    assert.equal(bobs[0]!.id, feed[0]!.id, "in the starrer's own feed");
    // alice follows bob: his star is in her received feed.
    const received = (await get("/users/alice/received_events", ALICE_TOKEN)) as unknown as Json[];
    assert.equal(received[0]!.id, feed[0]!.id, "in the received feed of the starrer's followers");

    const deliveries = await delivered(2);
    assert.deepEqual(
      deliveries.map((d) => [d.event, d.action]),
      [
        ["star", "created"],
        ["watch", "started"],
      ],
    );
    assert.equal(deliveries[0]!.body.starred_at, isoSeconds(t.clock.now()));
    assert.equal(deliveries[0]!.body.repository.full_name, "alice/hello");
    assert.deepEqual(
      deliveries.map((d) => d.body.repository.stargazers_count),
      [1, 1],
      "counting the new star, as GitHub's example star.created does",
    );
    assert.equal(deliveries[0]!.body.sender.login, "bob");
    // The keys of GitHub's own example deliveries (../shared/data/webhooks/examples/), in its order.
    for (const [i, event] of [
      [0, "star"],
      [1, "watch"],
    ] as const) {
      const [example] = JSON.parse(
        readFileSync(new URL(`webhooks/examples/${event}.json`, SHARED_DATA), "utf8"),
      ) as Json[];
      assert.deepEqual(Object.keys(deliveries[i]!.body), Object.keys(example!), event);
    }

    const hello = await get("/repos/alice/hello");
    assertSchema("full-repository", hello);
    assert.deepEqual([hello.stargazers_count, hello.watchers_count, hello.subscribers_count], [1, 1, 0]);
  });

  test("starring a starred repository answers 204 and makes nothing", async () => {
    const before = await written();
    assert.equal((await send("PUT", "/user/starred/alice/hello")).statusCode, 204);
    assert.equal(await written(), before);
  });

  test("stargazers are simple users, and with star+json each with its starred_at", async () => {
    const plain = await get("/repos/alice/hello/stargazers");
    assertSchema("simple-user", plain);
    assert.deepEqual(
      (plain as unknown as Json[]).map((u) => u.login),
      ["bob"],
    );
    const timed = await get("/repos/alice/hello/stargazers", null, STAR_JSON);
    assertSchema("stargazer", timed);
    assert.equal((timed as unknown as Json[])[0]!.starred_at, isoSeconds(t.clock.now()));
    // A star from the world (history): the time of its WatchEvent if stored, else the epoch; the schema holds.
    assertSchema("stargazer", await get("/repos/bob/tools/stargazers", null, STAR_JSON));
  });

  test("starred lists: repositories, with star+json their times; sort and direction are checked", async () => {
    const bobs = await get("/users/bob/starred");
    assertSchema("minimal-repository", bobs);
    assert.deepEqual(
      (bobs as unknown as Json[]).map((r) => r.full_name),
      ["alice/hello"],
    );
    const own = (await get("/user/starred", ALICE_TOKEN, STAR_JSON)) as unknown as Json[];
    assert.deepEqual(
      own.map((s) => s.repo.full_name),
      ["bob/tools"],
    );
    assertSchema("minimal-repository", own[0]!.repo);
    assert.match(own[0]!.starred_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const byUpdate = await send("GET", "/users/alice/starred?sort=updated&direction=asc");
    assert.equal(byUpdate.statusCode, 200, byUpdate.body);
    assertSchema("minimal-repository", byUpdate.json());
    const bad = await send("GET", "/user/starred?sort=stars");
    assert.equal(bad.statusCode, 422, bad.body);
    assert.equal((await send("GET", "/user/starred", null)).statusCode, 401);
    assert.equal((await send("GET", "/users/nobody-at-all/starred", null)).statusCode, 404);
  });

  test("unstarring answers 204, makes star.deleted with starred_at null and no event", async () => {
    const events = ((await get("/repos/alice/hello/events")) as unknown as Json[]).length;
    const res = await send("DELETE", "/user/starred/alice/hello");
    assert.equal(res.statusCode, 204, res.body);
    const deliveries = await delivered(3);
    assert.deepEqual([deliveries[2]!.event, deliveries[2]!.action], ["star", "deleted"]);
    assert.equal(deliveries[2]!.body.starred_at, null);
    assert.equal(((await get("/repos/alice/hello/events")) as unknown as Json[]).length, events, "no event");
    assert.equal((await send("GET", "/user/starred/alice/hello")).statusCode, 404);
    assert.equal((await get("/repos/alice/hello")).stargazers_count, 0);
    assert.equal((await send("DELETE", "/user/starred/alice/hello")).statusCode, 204, "again: nothing to remove");
  });

  test("watching: PUT answers the subscription, GET 404 until then, DELETE 204; no event, no webhook", async () => {
    await delivered(3);
    const before = await written();
    assert.equal((await send("GET", "/repos/alice/hello/subscription")).statusCode, 404);
    const put = await send("PUT", "/repos/alice/hello/subscription", BOB_TOKEN, { subscribed: true });
    assert.equal(put.statusCode, 200, put.body);
    const subscription = put.json() as Json;
    assert.deepEqual(subscription, {
      subscribed: true,
      ignored: false,
      reason: null,
      created_at: isoSeconds(t.clock.now()),
      url: "http://localhost:80/repos/alice/hello/subscription",
      repository_url: "http://localhost:80/repos/alice/hello",
    });
    assert.deepEqual((await send("GET", "/repos/alice/hello/subscription")).json(), subscription);
    assert.equal((await get("/repos/alice/hello")).subscribers_count, 1);
    assert.equal((await get("/repos/alice/hello")).stargazers_count, 0, "watching is not starring");
    const watchers = await get("/repos/alice/hello/subscribers");
    assertSchema("simple-user", watchers);
    assert.deepEqual(
      (watchers as unknown as Json[]).map((u) => u.login),
      ["bob"],
    );
    const watched = await get("/users/bob/subscriptions");
    assertSchema("minimal-repository", watched);
    assert.deepEqual(
      (watched as unknown as Json[]).map((r) => r.full_name),
      ["alice/hello"],
    );
    assert.deepEqual(
      ((await get("/user/subscriptions", BOB_TOKEN)) as unknown as Json[]).map((r) => r.full_name),
      ["alice/hello"],
    );
    const ignoring = await send("PUT", "/repos/alice/hello/subscription", BOB_TOKEN, {
      subscribed: false,
      ignored: true,
    });
    assert.deepEqual(
      [ignoring.json().subscribed, ignoring.json().ignored, ignoring.json().created_at],
      [false, true, subscription.created_at],
    );
    assert.equal((await get("/repos/alice/hello")).subscribers_count, 0, "ignoring is not watching");
    assert.equal((await send("DELETE", "/repos/alice/hello/subscription")).statusCode, 204);
    assert.equal((await send("GET", "/repos/alice/hello/subscription")).statusCode, 404);
    assert.equal(await written(), before, "nothing else moved: no event, no webhook");
  });

  test("following: 204, the counts and the received feed follow; no event, no webhook", async () => {
    const received = async () =>
      ((await get("/users/alice/received_events?per_page=100", ALICE_TOKEN)) as unknown as Json[]).map((e) => e.id);
    assert.equal((await received()).includes("4001"), false, "olga's push, before alice follows her");
    const events = ((await get("/users/alice/events")) as unknown as Json[]).length;
    const res = await send("PUT", "/user/following/olga", ALICE_TOKEN);
    assert.equal(res.statusCode, 204, res.body);
    assert.equal(res.headers["x-accepted-oauth-scopes"], "user, user:follow");
    assert.equal((await send("GET", "/user/following/olga", ALICE_TOKEN)).statusCode, 204);
    assert.equal((await send("GET", "/users/alice/following/olga", null)).statusCode, 204);
    assert.equal((await send("GET", "/users/olga/following/alice", null)).statusCode, 404);
    assert.ok((await received()).includes("4001"), "olga's events are in alice's received feed at once");
    const followers = await get("/users/olga/followers");
    assertSchema("simple-user", followers);
    assert.deepEqual(
      (followers as unknown as Json[]).map((u) => u.login),
      ["alice"],
    );
    assert.deepEqual(((await get("/user/following", ALICE_TOKEN)) as unknown as Json[]).map((u) => u.login).sort(), [
      "bob",
      "olga",
    ]);
    assert.deepEqual(
      ((await get("/user/followers", BOB_TOKEN)) as unknown as Json[]).map((u) => u.login),
      ["alice"],
    );
    const [olga, alice] = [await get("/users/olga"), await get("/user", ALICE_TOKEN)];
    assertSchema("public-user", olga);
    assert.deepEqual([olga.followers, alice.following], [1, 2]);
    assert.equal(((await get("/users/alice/events")) as unknown as Json[]).length, events, "no FollowEvent since 2012");

    const self = await written();
    assert.equal((await send("PUT", "/user/following/alice", ALICE_TOKEN)).statusCode, 204, "GitHub's answer");
    assert.equal(await written(), self, "following yourself follows no one");

    assert.equal((await send("DELETE", "/user/following/olga", ALICE_TOKEN)).statusCode, 204);
    assert.equal((await send("GET", "/user/following/olga", ALICE_TOKEN)).statusCode, 404);
    assert.equal((await get("/users/olga")).followers, 0);
    assert.equal((await received()).includes("4001"), false, "and out of it again");
  });

  test("lists page with Link", async () => {
    await send("PUT", "/user/following/olga", ALICE_TOKEN);
    const res = await t.app.inject({ method: "GET", url: "/users/alice/following?per_page=1" });
    assert.equal((res.json() as Json[]).length, 1);
    assert.match(String(res.headers.link), /page=2>; rel="next"/);
  });

  test("fine-grained tokens need the account's starring, watching or followers permission: 403 without", async () => {
    const pat = async (permissions: Record<string, string>) => {
      const res = await t.app.inject({
        method: "POST",
        url: "/user/personal-access-tokens",
        headers: { authorization: basic("bob", "bob-password") },
        payload: { name: "activity", permissions: { other: permissions } },
      });
      assert.equal(res.statusCode, 201, res.body);
      const token = res.json() as Json;
      assert.deepEqual(token.permissions.other, permissions, "the account's own group, as GitHub's grants call it");
      return token.token as string;
    };
    const reader = await pat({ starring: "read" });
    const before = await written();
    const refused = await send("PUT", "/user/starred/alice/hello", reader);
    assert.equal(refused.statusCode, 403, refused.body);
    assert.equal(refused.headers["x-accepted-github-permissions"], "starring=write");
    assert.equal((await send("PUT", "/user/following/alice", reader)).statusCode, 403);
    assert.equal(await written(), before, "nothing written");
    assert.equal((await send("GET", "/user/starred", reader)).statusCode, 200);

    const writer = await pat({ starring: "write", followers: "write" });
    assert.equal((await send("PUT", "/user/starred/alice/hello", writer)).statusCode, 204);
    assert.equal((await get("/repos/alice/hello")).stargazers_count, 1);
    assert.equal((await send("DELETE", "/user/starred/alice/hello", writer)).statusCode, 204);
    assert.equal((await send("PUT", "/repos/alice/hello/subscription", writer, {})).statusCode, 403, "no watching");
    await delivered(5); // the star's two and its removal's one
  });

  test("who may: anonymous 401, a token without the scope 404, a private repository not seen 404; nothing written", async () => {
    await delivered(6);
    const before = await written();
    const refused: [method: "PUT" | "DELETE", url: string, token: string | null, status: number][] = [
      ["PUT", "/user/starred/alice/hello", null, 401],
      ["PUT", "/user/starred/alice/hello", ALICE_PUBLIC_TOKEN, 404],
      ["PUT", "/user/starred/alice/secret", BOB_TOKEN, 404],
      ["PUT", "/user/starred/alice/nothing-here", BOB_TOKEN, 404],
      ["PUT", "/repos/alice/hello/subscription", ALICE_PUBLIC_TOKEN, 404],
      ["PUT", "/user/following/olga", BOB_TOKEN, 404],
      ["PUT", "/user/following/nobody-at-all", ALICE_TOKEN, 404],
      ["DELETE", "/user/following/bob", null, 401],
    ];
    for (const [method, url, token, status] of refused) {
      const res = await send(method, url, token, method === "PUT" && url.endsWith("subscription") ? {} : undefined);
      assert.equal(res.statusCode, status, `${method} ${url}: ${res.body}`);
    }
    assert.equal(await written(), before);
    assert.equal((await send("GET", "/repos/alice/secret/stargazers")).statusCode, 404);
  });
});
