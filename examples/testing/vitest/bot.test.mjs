// The bot tested with Vitest against feedgate/testing, its Octokit answered in process through fg.fetch.
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { Octokit } from "octokit-rest-latest"; // @octokit/rest 22, installed here under an alias
import { startFeedgate } from "feedgate/testing";
import { RepoBot } from "../bot.mjs";

const SECRET = "it's a secret";
const event = (id, type, actor, payload = {}) => ({
  id,
  type,
  actor: { login: actor },
  repo: { name: "octocat/hello-world" },
  payload,
  created_at: "2026-01-01T10:05:00Z",
});
let fg;
let octokit;
let bot;

beforeAll(async () => {
  fg = await startFeedgate({ world: new URL("../world.json", import.meta.url).pathname, now: "2026-01-01T10:00:00Z" });
});
afterAll(() => fg.close());
beforeEach(async () => {
  await fg.reset(); // every test starts from the world file, in a few milliseconds
  octokit = new Octokit({ baseUrl: fg.url, auth: await fg.token("octocat"), request: { fetch: fg.fetch } });
  bot = new RepoBot({ octokit, owner: "octocat", repo: "hello-world", secret: SECRET });
});

test("notices each new event once, and an unchanged feed costs no rate limit", async () => {
  expect((await bot.poll()).map((e) => e.id)).toEqual(["1"]);
  await fg.ingest([event("2", "PushEvent", "hubot")]);
  expect((await bot.poll()).map((e) => e.id)).toEqual(["2"]);
  const { data: before } = await octokit.rest.rateLimit.get();
  expect(await bot.poll()).toEqual([]); // a 304
  const { data: after } = await octokit.rest.rateLimit.get();
  expect(after.rate.used).toBe(before.rate.used);
  expect(bot.notes).toEqual(["create by octocat", "push by hubot"]);
});

test("rides out GitHub being unavailable, then a secondary rate limit", async () => {
  fg.faults.unavailable({ path: "/repos/:owner/:repo/events", times: 1 });
  expect(await bot.poll()).toEqual([]);
  fg.faults.secondaryRateLimit({ path: "/repos/:owner/:repo/events", times: 1 });
  expect(await bot.poll()).toEqual([]);
  expect((await bot.poll()).map((e) => e.id)).toEqual(["1"]);
  expect(bot.notes).toEqual([
    "GitHub said 502; retrying later",
    "GitHub said 403; retrying later",
    "create by octocat",
  ]);
});

test("thanks a star delivered by webhook, and ignores a forged delivery", async () => {
  const inbox = await fg.receiver({ secret: SECRET });
  await octokit.rest.repos.createWebhook({
    owner: "octocat",
    repo: "hello-world",
    events: ["watch"],
    config: { url: inbox.url, content_type: "json", secret: SECRET },
  });
  await fg.ingest([event("3", "WatchEvent", "hubot", { action: "started" })]);
  const star = await inbox.next({ event: "watch", action: "started" });
  expect(star.verified).toBe(true);
  expect(await bot.receive({ headers: star.headers, body: star.raw })).toBe(true);
  expect(bot.notes).toContain("starred by hubot");
  const forged = { ...star.headers, "x-hub-signature-256": `sha256=${"0".repeat(64)}` };
  expect(await bot.receive({ headers: forged, body: star.raw })).toBe(false);
});
