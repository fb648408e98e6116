/**
 * The GitHub CLI 2.23 (Debian's gh), unmodified, against a live `feedgate serve` with native TLS. gh talks to any host
 * but github.com as GitHub Enterprise Server: `https://HOST/api/v3/<path>`, with GH_ENTERPRISE_TOKEN. The server's
 * throw-away certificate is trusted through SSL_CERT_FILE, as a user would trust their own. Covered: the feeds
 * with `--paginate` (which follows Link, so the URLs must keep /api/v3), a private feed with the token, `GET /user`,
 * GraphQL at `/api/graphql`, and the authorizations API, which refuses tokens as GitHub does.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { feedgate, runCli, waitForOutput, type CliRun } from "../helpers/cli.js";
import { ALICE_TOKEN, HELLO_IDS, PRIVATE, WORLD } from "../helpers/client-world.js";
import { FEEDS } from "./feeds.js";
import { runScript, skipUnlessClient } from "./debian-clients.js";
import { selfSigned, skipUnlessOpenssl } from "../helpers/certificate.js";

const skip = skipUnlessClient("gh") || skipUnlessOpenssl();

describe("gh 2.23 against feedgate's Enterprise layout over TLS", { skip }, () => {
  let dir: string;
  let server: CliRun;
  let host: string;
  let env: Record<string, string>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "feedgate-gh-"));
    const { cert, key } = selfSigned(dir, "server");
    const db = join(dir, "feedgate.db");
    writeFileSync(join(dir, "world.json"), JSON.stringify(WORLD));
    const seeded = await runCli(["seed", join(dir, "world.json"), "--db", db]);
    assert.equal(seeded.code, 0, seeded.stderr);
    server = feedgate([
      "serve",
      "--port",
      "0",
      "--db",
      db,
      "--tls-cert",
      cert,
      "--tls-key",
      key,
      "--rate-limit-anonymous",
      "100000",
    ]);
    const [, url] = await waitForOutput(server, /Server listening at (https:\/\/127\.0\.0\.1:\d+)/);
    host = new URL(url!).host;
    env = {
      GH_HOST: host,
      GH_ENTERPRISE_TOKEN: ALICE_TOKEN,
      GH_CONFIG_DIR: join(dir, "gh"),
      SSL_CERT_FILE: cert,
      GH_NO_UPDATE_NOTIFIER: "1",
      GH_PROMPT_DISABLED: "1",
      NO_COLOR: "1",
    };
  });

  after(async () => {
    server?.child.kill("SIGTERM");
    await server?.done;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** `gh api <args>`, its stdout split in lines; a failure shows what gh said. */
  async function gh(...args: string[]): Promise<string[]> {
    const run = await runScript("gh", ["api", ...args], env);
    assert.equal(run.code, 0, `gh api ${args.join(" ")}:\n${run.stderr}${run.stdout}`);
    return run.stdout.split("\n").filter(Boolean);
  }

  test("is the pinned version", () => {
    assert.match(spawnSync("gh", ["--version"], { encoding: "utf8" }).stdout, /^gh version 2\.23\.0 /);
  });

  test("--paginate follows Link through every page under /api/v3", async () => {
    assert.deepEqual(await gh("repos/alice/hello/events?per_page=10", "--paginate", "--jq", ".[].id"), HELLO_IDS);
  });

  test("every feed's first page, the private ones with the token", async () => {
    for (const feed of FEEDS) {
      const { user = "", repo = "", org = "" } = feed.params;
      const path = {
        get: "events",
        getFromRepo: `repos/${user}/${repo}/events`,
        getFromRepoIssues: `repos/${user}/${repo}/issues/events`,
        getFromRepoNetwork: `networks/${user}/${repo}/events`,
        getFromOrg: `orgs/${org}/events`,
        getReceived: `users/${user}/received_events`,
        getReceivedPublic: `users/${user}/received_events/public`,
        getFromUser: `users/${user}/events`,
        getFromUserPublic: `users/${user}/events/public`,
        getFromUserOrg: `users/${user}/events/orgs/${org}`,
      }[feed.operation];
      assert.deepEqual(await gh(path, "--jq", ".[].id | tostring"), feed.ids, feed.operation);
    }
    assert.equal((await gh("users/alice/events", "--jq", ".[0].id"))[0], PRIVATE.id);
    assert.equal((await gh("repos/alice/hello/events", "--jq", ".[0].payload.forkee.full_name"))[0], "bob/hello");
  });

  test("gh api user: the token's account", async () => {
    assert.deepEqual(await gh("user", "--jq", ".login"), ["alice"]);
  });

  test("gh api graphql: GitHub Enterprise's /api/graphql answers the viewer, and a field GitHub lacks as GitHub does", async () => {
    assert.deepEqual(
      await gh("graphql", "-f", "query=query UserCurrent{viewer{login}}", "--jq", ".data.viewer.login"),
      ["alice"],
    );
    const run = await runScript("gh", ["api", "graphql", "-f", "query={viewer{login nope}}"], env);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /Field 'nope' doesn't exist on type 'User'/);
  });

  test("the authorizations API refuses a token with 403, as GitHub does, and gh says so", async () => {
    const run = await runScript("gh", ["api", "authorizations"], env);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /This API can only be accessed with username and password Basic Auth \(HTTP 403\)/);
  });
});
