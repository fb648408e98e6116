/**
 * The CLI's client commands, `feedgate auth ...` and `feedgate events ...`, against a real listening feedgate:
 * they talk HTTP through the SDK, take secrets from the environment or stdin, and report failures in one line.
 * They run in this process; `--follow`, which runs until it is stopped, as a process, watched through a proxy
 * that shortens X-Poll-Interval to one second and records the conditional requests.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { feedgate as spawnCli, runCli } from "../helpers/cli.js";
import { until } from "../helpers/wait.js";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { once } from "node:events";
import { currentOtp } from "../../src/server/services/credentials.js";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { ALICE, ALICE_TOKEN, HELLO_IDS, OLGA, OTP_SECRET, PRIVATE, minute } from "../helpers/client-world.js";
import { event } from "../helpers/events.js";

/** Runs `feedgate <args>` with only the FEEDGATE_* variables given. */
const feedgate = (args: string[], env: Record<string, string> = {}, input?: string) => runCli(args, { env, input });

const lines = (text: string) => text.split("\n").filter(Boolean);
const eventIds = (text: string) => lines(text).map((line) => (JSON.parse(line) as { id: string }).id);

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, "close");
  return port;
}

describe("feedgate auth and events against a listening server", () => {
  let t: ListeningApp;
  let asAlice: Record<string, string>;
  before(async () => {
    t = await startListeningApp();
    asAlice = { FEEDGATE_URL: t.url, FEEDGATE_USER: ALICE.login, FEEDGATE_PASSWORD: ALICE.password };
  });
  after(() => t.close());

  describe("auth", () => {
    let id: string;

    test("create prints the new token only; --json prints the whole authorization", async () => {
      const created = await feedgate(
        [
          "auth",
          "create",
          "--url",
          t.url,
          "--user",
          "alice",
          "--scopes",
          "repo,gist",
          "--note",
          "cli",
          "--note-url",
          "https://cli.example",
        ],
        { FEEDGATE_PASSWORD: ALICE.password },
      );
      assert.equal(created.code, 0, created.stderr);
      assert.match(created.stdout, /^fgp_[0-9A-Za-z]{36}\n$/);

      const json = await feedgate(["auth", "create", "--note", "cli json", "--json"], asAlice);
      assert.equal(json.code, 0, json.stderr);
      const body = JSON.parse(json.stdout) as { id: string; note: string; token: string };
      assert.equal(body.note, "cli json");
      assert.match(body.token, /^fgp_/);
    });

    test("list prints one line per authorization: id, scopes, note, note URL, created", async () => {
      const list = await feedgate(["auth", "list"], asAlice);
      assert.equal(list.code, 0, list.stderr);
      const cli = lines(list.stdout)
        .map((l) => l.split("\t"))
        .find((fields) => fields[2] === "cli");
      assert.ok(cli, list.stdout);
      assert.deepEqual(cli.slice(1, 4), ["repo,gist", "cli", "https://cli.example"]);
      id = cli[0]!;
      assert.ok(lines(list.stdout).some((l) => l.includes("\talice full\t")));
    });

    test("update changes scopes and note, keeping the note URL", async () => {
      const updated = await feedgate(
        ["auth", "update", id, "--remove-scopes", "gist", "--note", "cli renamed"],
        asAlice,
      );
      assert.equal(updated.code, 0, updated.stderr);
      assert.deepEqual(updated.stdout.split("\t").slice(0, 4), [id, "repo", "cli renamed", "https://cli.example"]);
      const json = await feedgate(["auth", "update", id, "--add-scopes", "user", "--json"], asAlice);
      assert.deepEqual((JSON.parse(json.stdout) as { scopes: string[] }).scopes, ["repo", "user"]);
    });

    test("delete removes it from the list; deleting it again is a one-line 404", async () => {
      const deleted = await feedgate(["auth", "delete", id], asAlice);
      assert.equal(deleted.code, 0, deleted.stderr);
      assert.equal(deleted.stdout, `deleted authorization ${id}\n`);
      assert.ok(
        !lines((await feedgate(["auth", "list", "--json"], asAlice)).stdout).some((l) => l.includes(`"id":"${id}"`)),
      );
      const again = await feedgate(["auth", "delete", id], asAlice);
      assert.equal(again.code, 1);
      assert.equal(again.stderr, "feedgate: 404 Not Found\n");
    });

    test("the password is read from stdin when it is not a terminal and FEEDGATE_PASSWORD is unset", async () => {
      const list = await feedgate(["auth", "list", "--url", t.url, "--user", "alice"], {}, `${ALICE.password}\n`);
      assert.equal(list.code, 0, list.stderr);
      assert.ok(lines(list.stdout).length >= 2);
    });

    test("a two-factor account answers the server's challenge with FEEDGATE_OTP", async () => {
      const env = { FEEDGATE_URL: t.url, FEEDGATE_USER: OLGA.login, FEEDGATE_PASSWORD: OLGA.password };
      const [ok, wrong] = await Promise.all([
        feedgate(["auth", "create", "--note", "olga cli"], {
          ...env,
          FEEDGATE_OTP: currentOtp(OTP_SECRET, t.clock.now()),
        }),
        feedgate(["auth", "list"], { ...env, FEEDGATE_OTP: "000000" }),
      ]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.match(ok.stdout, /^fgp_/);
      assert.equal(wrong.code, 1);
      assert.equal(wrong.stderr, "feedgate: 401 Must specify two-factor authentication OTP code.\n");
    });

    test("failures are one line: bad password, invalid scopes, missing --url, unreachable server", async () => {
      const closed = await closedPort();
      const [bad, scopes, noUrl, down] = await Promise.all([
        feedgate(["auth", "list"], { ...asAlice, FEEDGATE_PASSWORD: "wrong" }),
        feedgate(["auth", "create", "--scopes", "repo,nope", "--note", "x"], asAlice),
        feedgate(["auth", "list", "--user", "alice"], { FEEDGATE_PASSWORD: "x" }),
        feedgate(["auth", "list", "--url", `http://127.0.0.1:${closed}`], asAlice),
      ]);
      assert.deepEqual([bad.code, bad.stderr], [1, "feedgate: 401 Bad credentials\n"]);
      assert.deepEqual(
        [scopes.code, scopes.stderr],
        [1, "feedgate: 422 Validation Failed: scopes are invalid: nope\n"],
      );
      assert.deepEqual([noUrl.code, noUrl.stderr], [1, "feedgate: --url (or FEEDGATE_URL) is required\n"]);
      assert.equal(down.code, 1);
      assert.equal(
        down.stderr,
        `feedgate: GET http://127.0.0.1:${closed}/authorizations?per_page=100 failed: connect ECONNREFUSED 127.0.0.1:${closed}\n`,
      );
    });
  });

  describe("events", () => {
    test("prints one JSON line per event, newest first, with --per-page and --page", async () => {
      const [first, third] = await Promise.all([
        feedgate(["events", "getFromRepo", "alice", "hello", "--url", t.url, "--per-page", "5"]),
        feedgate(["events", "getFromRepo", "alice/hello", "--per-page", "5", "--page", "3"], { FEEDGATE_URL: t.url }),
      ]);
      assert.equal(first.code, 0, first.stderr);
      assert.deepEqual(eventIds(first.stdout), HELLO_IDS.slice(0, 5));
      assert.deepEqual(eventIds(third.stdout), HELLO_IDS.slice(10, 15));
    });

    test("--all follows every page", async () => {
      const all = await feedgate(["events", "getFromRepo", "alice/hello", "--url", t.url, "--per-page", "7", "--all"]);
      assert.equal(all.code, 0, all.stderr);
      assert.deepEqual(eventIds(all.stdout), HELLO_IDS);
    });

    test("--token (or FEEDGATE_TOKEN) shows the private events it may read", async () => {
      const [anonymous, withToken, fromEnv] = await Promise.all([
        feedgate(["events", "getFromUser", "alice", "--url", t.url, "--per-page", "100"]),
        feedgate(["events", "getFromUser", "alice", "--url", t.url, "--token", ALICE_TOKEN, "--per-page", "1"]),
        feedgate(["events", "getFromUser", "alice", "--url", t.url, "--per-page", "1"], {
          FEEDGATE_TOKEN: ALICE_TOKEN,
        }),
      ]);
      assert.ok(!eventIds(anonymous.stdout).includes(PRIVATE.id));
      assert.deepEqual(eventIds(withToken.stdout), [PRIVATE.id]);
      assert.deepEqual(eventIds(fromEnv.stdout), [PRIVATE.id]);
    });

    test("refuses unknown feeds, wrong arguments and bad paging in one line, naming the problem", async () => {
      const [unknown, args, perPage, own, forbidden] = await Promise.all([
        feedgate(["events", "getEverything", "--url", t.url]),
        feedgate(["events", "getFromOrg", "--url", t.url]),
        feedgate(["events", "get", "--url", t.url, "--per-page", "500"]),
        feedgate(["events", "getFromUserOrg", "alice", "acme", "--url", t.url, "--token", ALICE_TOKEN]),
        feedgate(["events", "getFromUserOrg", "olga", "acme", "--url", t.url, "--token", ALICE_TOKEN]),
      ]);
      assert.equal(unknown.code, 1);
      assert.match(
        unknown.stderr,
        /^feedgate: unknown feed "getEverything"; feeds:\n {2}get\n {2}getFromRepo <user> <repo>\n/,
      );
      assert.deepEqual([args.code, args.stderr], [1, "feedgate: usage: feedgate events getFromOrg <org>\n"]);
      assert.deepEqual(
        [perPage.code, perPage.stderr],
        [1, "feedgate: events.get: per_page must be at most 100, got 500\n"],
      );
      assert.deepEqual(eventIds(own.stdout), ["4001"]);
      assert.deepEqual([forbidden.code, forbidden.stderr], [1, "feedgate: 404 Not Found\n"]);
    });

    describe("--follow", () => {
      let proxy: Server;
      let proxyUrl: string;
      const seen: { ifNoneMatch: string | undefined; status: number; url: string }[] = [];
      /** Set to make the proxy answer the next request itself with a 502, as a failing gateway would. */
      let failNext = false;
      before(async () => {
        // Passes requests to feedgate and answers with its response: X-Poll-Interval shortened to 1 s, and Link
        // URLs pointed back at the proxy so that every page goes through it.
        proxy = createServer(async (request, response) => {
          if (failNext) {
            failNext = false;
            response.writeHead(502, { "content-type": "text/plain" });
            return void response.end("upstream down");
          }
          // A gateway that passes no streams: a live-stream request gets the feed's page, as from a server without
          // streams, and is not a poll. --follow must then poll.
          const streamRequest = request.headers.accept === "text/event-stream";
          const forwarded = Object.entries(request.headers)
            .filter(([name]) => !["host", "connection"].includes(name))
            .map(([name, value]) => (name === "accept" && streamRequest ? [name, "application/json"] : [name, value]));
          const upstream = await fetch(`${t.url}${request.url}`, {
            headers: Object.fromEntries(forwarded) as Record<string, string>,
          });
          const body = Buffer.from(await upstream.arrayBuffer());
          if (!streamRequest)
            seen.push({ ifNoneMatch: request.headers["if-none-match"], status: upstream.status, url: request.url! });
          const headers = Object.fromEntries(
            [...upstream.headers].filter(
              ([name]) =>
                !["content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive"].includes(name),
            ),
          );
          if (headers.link) headers.link = headers.link.replaceAll(t.url, proxyUrl);
          response.writeHead(upstream.status, { ...headers, "x-poll-interval": "1" });
          response.end(body);
        });
        proxy.listen(0, "127.0.0.1");
        await once(proxy, "listening");
        proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      });
      after(() => {
        proxy.closeAllConnections();
        proxy.close();
      });

      test("tails a feed with If-None-Match, obeying X-Poll-Interval, each new event once, oldest first", async () => {
        const follow = spawnCli([
          "events",
          "getFromRepo",
          "alice",
          "hello",
          "--url",
          proxyUrl,
          "--per-page",
          "5",
          "--follow",
        ]);
        try {
          // At the start: the newest page, printed oldest first.
          await until(() => lines(follow.stdout).length >= 5, "the first page");
          assert.deepEqual(eventIds(follow.stdout), HELLO_IDS.slice(0, 5).reverse());

          // Then conditional polls, a second apart, answered 304 while nothing changes.
          await until(() => seen.filter((s) => s.status === 304).length >= 2, "two 304 polls");
          const [firstPoll, ...polls] = seen;
          assert.equal(firstPoll!.ifNoneMatch, undefined);
          assert.ok(
            polls.every((p) => p.ifNoneMatch?.startsWith('"')),
            JSON.stringify(polls),
          );

          // Two new events arrive: printed once each, the older one first.
          await t.ingest.ingestEvents([
            event("7002", "PushEvent", "alice", "alice/hello", { created_at: minute(202) }),
            event("7001", "PushEvent", "alice", "alice/hello", { created_at: minute(201) }),
          ]);
          await until(() => lines(follow.stdout).length >= 7, "two new events");

          // A burst larger than a page: the older pages are read until a known event, nothing is lost.
          const burst = Array.from({ length: 8 }, (_, i) =>
            event(7101 + i, "PushEvent", "alice", "alice/hello", { created_at: minute(300 + i) }),
          );
          await t.ingest.ingestEvents(burst);
          await until(() => lines(follow.stdout).length >= 15, "the burst");
          await until(() => seen.filter((s) => s.status === 304).length >= 4, "quiet polls after the burst");
          assert.deepEqual(eventIds(follow.stdout), [
            ...HELLO_IDS.slice(0, 5).reverse(),
            "7001",
            "7002",
            ...burst.map((e) => e.id),
          ]);
          assert.ok(
            seen.some((s) => s.url.includes("page=2")),
            "the burst was read across pages",
          );
          assert.equal(follow.stderr, "");

          // A failing gateway is reported and polling goes on; the next event still arrives once.
          failNext = true;
          await until(() => follow.stderr !== "", "the warning");
          assert.equal(follow.stderr, "feedgate: 502 upstream down; trying again in 1 s\n");
          await t.ingest.ingestEvents([
            event("7201", "PushEvent", "alice", "alice/hello", { created_at: minute(400) }),
          ]);
          await until(() => lines(follow.stdout).length >= 16, "the event after the failure");
          assert.deepEqual(eventIds(follow.stdout).slice(15), ["7201"]);
        } finally {
          follow.child.kill("SIGTERM");
          await follow.done;
        }
      });

      test("uses the server's live stream when it offers one: the newest page, then each new event as it is stored", async () => {
        const follow = spawnCli([
          "events",
          "getFromRepo",
          "alice",
          "hello",
          "--url",
          t.url,
          "--per-page",
          "3",
          "--follow",
        ]);
        try {
          await until(() => lines(follow.stdout).length >= 3, "the first page");
          const printed = eventIds(follow.stdout);
          // Stored before the stream opens or after: either way it arrives once (Last-Event-ID is the page's newest).
          await t.ingest.ingestEvents([
            event("7301", "PushEvent", "alice", "alice/hello", { created_at: minute(500) }),
          ]);
          await until(() => lines(follow.stdout).length >= 4, "the streamed event");
          assert.deepEqual(eventIds(follow.stdout), [...printed, "7301"]);
          assert.equal(follow.stderr, "");
        } finally {
          follow.child.kill("SIGTERM");
          await follow.done;
        }
      });

      test("--follow ends with one line on a failure that retrying cannot fix", async () => {
        const result = await feedgate(["events", "getFromRepo", "alice/nope", "--url", proxyUrl, "--follow"]);
        assert.deepEqual([result.code, result.stderr], [1, "feedgate: 404 Not Found\n"]);
      });

      test("--follow refuses --page and --all", async () => {
        const result = await feedgate(["events", "get", "--url", t.url, "--follow", "--all"]);
        assert.equal(result.code, 1);
        assert.match(result.stderr, /does not combine with --page or --all/);
      });
    });
  });
});
