/**
 * A bot's main loop against feedgate/testing: a person opens an issue through the in-process fetch, the bot's
 * receiver gets the signed `issues.opened` webhook, the bot labels and closes the issue through Octokit, and the
 * state, the feeds, the issue events and the next webhooks agree; a reset puts the world back as it was.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Octokit } from "octokit-rest-latest";
import { startFeedgate, type Feedgate } from "../../src/testing/index.js";

const WORLD = {
  users: [{ login: "octocat" }, { login: "reporter" }],
  repos: [{ full_name: "octocat/hello" }],
};

describe("feedgate/testing: a bot acting on the webhooks it receives", () => {
  let fg: Feedgate;
  before(async () => {
    fg = await startFeedgate({ world: WORLD, now: "2026-03-01T09:00:00Z" });
  });
  after(() => fg.close());

  it("opened -> webhook -> label and close -> events, issue events and webhooks; reset forgets them", async () => {
    const inbox = await fg.receiver({ secret: "bot" });
    const bot = new Octokit({ baseUrl: fg.url, auth: await fg.token("octocat"), request: { fetch: fg.fetch } });
    await bot.rest.repos.createWebhook({
      owner: "octocat",
      repo: "hello",
      config: { url: inbox.url, content_type: "json", secret: "bot" },
      events: ["issues"],
    });
    const person = new Octokit({ baseUrl: fg.url, auth: await fg.token("reporter"), request: { fetch: fg.fetch } });
    await person.rest.issues.create({ owner: "octocat", repo: "hello", title: "It crashes" });

    const opened = await inbox.next({ event: "issues" });
    assert.equal(opened.verified, true);
    const { issue } = opened.body as { issue: { number: number; author_association: string } };
    assert.equal(issue.author_association, "NONE");
    fg.clock.advance("5m");
    await bot.rest.issues.update({
      owner: "octocat",
      repo: "hello",
      issue_number: issue.number,
      labels: ["triaged"],
      state: "closed",
    });
    const closed = await inbox.next({ event: "issues", action: "closed" });
    assert.equal((closed.body as { issue: { closed_at: string } }).issue.closed_at, "2026-03-01T09:05:00Z");
    const labeled = await inbox.next({ event: "issues", action: "labeled" });
    assert.equal((labeled.body as { label: { name: string } }).label.name, "triaged");
    assert.deepEqual(
      inbox.received.filter((d) => d.event === "issues").map((d) => (d.body as { action: string }).action),
      ["opened", "closed", "labeled"],
    );

    const events = await bot.rest.issues.listEvents({ owner: "octocat", repo: "hello", issue_number: issue.number });
    assert.deepEqual(
      events.data.map((e) => [e.event, e.actor?.login]),
      [
        ["closed", "octocat"],
        ["labeled", "octocat"],
      ],
    );
    const feed = await bot.rest.activity.listRepoEvents({ owner: "octocat", repo: "hello" });
    assert.deepEqual(
      feed.data.map((e) => [e.type, e.actor.login, e.created_at]),
      [
        ["IssuesEvent", "octocat", "2026-03-01T09:05:00Z"],
        ["IssuesEvent", "reporter", "2026-03-01T09:00:00Z"],
      ],
    );

    await fg.reset();
    assert.equal((await fg.fetch(`${fg.url}/repos/octocat/hello/issues/${issue.number}`)).status, 404);
    assert.deepEqual(await (await fg.fetch(`${fg.url}/repos/octocat/hello/events`)).json(), []);
  });
});
