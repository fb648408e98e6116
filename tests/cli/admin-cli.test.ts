/**
 * The administrators' commands (user list|delete|disable|enable|otp, token list|revoke) against the database of a
 * running app, and what the app then answers over HTTP: a revoked or deleted user's token is refused at once.
 * SQLite by default; FEEDGATE_TEST_STORE=postgres runs the same on PostgreSQL (the drivers' SQL differs).
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { runCli } from "../helpers/cli.js";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";
import { event } from "../helpers/events.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { currentOtp } from "../../src/server/services/credentials.js";

const BAD_CREDENTIALS = { message: "Bad credentials", documentation_url: "https://developer.github.com/v3" };
const SUSPENDED = {
  message: "Sorry. Your account was suspended.",
  documentation_url: "https://developer.github.com/v3",
};

describe("feedgate admin commands", () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const cli = (...args: string[]) => runCli([...args, "--db", t.dbPath]);
  const withToken = (token: string) =>
    t.app.inject({ method: "GET", url: "/nowhere", headers: { authorization: `token ${token}` } });
  const withPassword = (login: string, password: string, otp?: string) =>
    t.app.inject({
      method: "GET",
      url: "/authorizations",
      headers: { authorization: basic(login, password), ...(otp ? { "X-GitHub-OTP": otp } : {}) },
    });
  const publicEvents = async (login: string) =>
    (await t.app.inject({ method: "GET", url: `/users/${login}/events/public` })).json() as { id: string }[];
  /** An operator's mistake: status 1 and one line that says what to do. */
  const assertRefused = (result: { code: number; stdout: string; stderr: string }, pattern: RegExp) => {
    assert.equal(result.code, 1, result.stdout);
    assert.ok(
      result.stderr.endsWith("\n") && result.stderr.indexOf("\n") === result.stderr.length - 1,
      `one line: ${result.stderr}`,
    );
    assert.match(result.stderr.trimEnd(), pattern);
  };

  before(async () => {
    t = await startTestApp({ rateLimitAnonymous: 10_000 });
    const ann = await t.createUser("ann", "ann-password", { siteAdmin: true });
    const ben = await t.createUser("ben", "ben-password");
    await t.createUser("cal", "cal-password", { otpSecret: "JBSWY3DPEHPK3PXPJBSWY3DP" });
    const dee = await t.createUser("dee", "dee-password");
    tokens.ann = (await t.createToken(ann, ["repo", "user"], "ci")).token;
    tokens.ben = (await t.createToken(ben, [], "laptop")).token;
    tokens.ben2 = (await t.createToken(ben, ["gist"], "second")).token;
    tokens.dee = (await t.createToken(dee, ["read:org"], "dee's")).token;
    // History: dee acts in a public event; ben follows dee.
    await new IngestService(t.store, t.clock.now).seedWorld(
      {
        users: [{ login: "ben", following: ["dee"] }],
        events: [event("9101", "PushEvent", "dee", "ann/tools", { public: true })],
      },
      { baseDir: undefined },
    );
  });
  after(() => t.close());

  test("user list is a header and aligned columns: id, login, type, site admin, two-factor, tokens, disabled, created", async () => {
    const list = await cli("user", "list");
    assert.equal(list.code, 0, list.stderr);
    const lines = list.stdout.trimEnd().split("\n");
    assert.match(lines[0]!, /^ID +LOGIN +TYPE +SITE ADMIN +TWO-FACTOR +TOKENS +DISABLED +CREATED$/);
    assert.deepEqual(
      lines.slice(1).map((line) => line.split(/ {2,}/).slice(1, 7)),
      [
        ["ann", "User", "yes", "no", "1", "no"],
        ["ben", "User", "no", "no", "2", "no"],
        ["cal", "User", "no", "yes", "0", "no"],
        ["dee", "User", "no", "no", "1", "no"],
      ],
    );
    // Aligned: every column starts where its header does.
    for (const header of ["LOGIN", "TYPE", "TOKENS", "CREATED"]) {
      const at = lines[0]!.indexOf(header);
      for (const line of lines.slice(1)) assert.match(line.slice(at - 1, at + 1), /^ \S$/, `${header} in ${line}`);
    }
    assert.match(lines[1]!, / {2}\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  test("user list --json prints one object per line, without secrets", async () => {
    const list = await cli("user", "list", "--json");
    const users = list.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(
      users.map((u) => [u.login, u.type, u.site_admin, u.two_factor, u.tokens, u.disabled, u.suspended_at]),
      [
        ["ann", "User", true, false, 1, false, null],
        ["ben", "User", false, false, 2, false, null],
        ["cal", "User", false, true, 0, false, null],
        ["dee", "User", false, false, 1, false, null],
      ],
    );
    assert.ok(users.every((u) => typeof u.id === "number" && !Number.isNaN(Date.parse(String(u.created_at)))));
    assert.doesNotMatch(list.stdout, /scrypt|JBSWY3DP|password|secret/i);
  });

  test("token list shows every token's id, login, kind, scopes, note, last eight, creation and expiry, never the token or its hash", async () => {
    const list = await cli("token", "list");
    assert.equal(list.code, 0, list.stderr);
    const lines = list.stdout.trimEnd().split("\n");
    assert.match(lines[0]!, /^ID +LOGIN +KIND +SCOPES OR PERMISSIONS +NOTE +LAST EIGHT +CREATED +EXPIRES$/);
    assert.ok(
      lines.slice(1).every((line) => line.endsWith("  never")),
      "tokens made without an expiry never expire",
    );
    assert.deepEqual(
      lines.slice(1).map((line) => line.split(/ {2,}/).slice(1, 6)),
      [
        ["ann", "classic", "repo,user", "ci", tokens.ann!.slice(-8)],
        ["ben", "classic", "-", "laptop", tokens.ben!.slice(-8)],
        ["ben", "classic", "gist", "second", tokens.ben2!.slice(-8)],
        ["dee", "classic", "read:org", "dee's", tokens.dee!.slice(-8)],
      ],
    );
    const { createHash } = await import("node:crypto");
    for (const token of Object.values(tokens)) {
      assert.ok(!list.stdout.includes(token.slice(0, -8)), "no token");
      assert.ok(!list.stdout.includes(createHash("sha256").update(token).digest("hex")), "no hash");
    }
  });

  test("token list <login> shows one user's tokens; --json one object per line", async () => {
    const list = await cli("token", "list", "BEN", "--json");
    const rows = list.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(
      rows.map((r) => [r.login, r.scopes, r.note, r.token_last_eight]),
      [
        ["ben", [], "laptop", tokens.ben!.slice(-8)],
        ["ben", ["gist"], "second", tokens.ben2!.slice(-8)],
      ],
    );
    assert.deepEqual(Object.keys(rows[0]!), [
      "id",
      "login",
      "kind",
      "scopes",
      "note",
      "token_last_eight",
      "created_at",
      "expires_at",
    ]);
    assert.equal(rows[0]!.expires_at, null);
    assertRefused(
      await cli("token", "list", "nobody"),
      /^feedgate: no user "nobody": `feedgate user list` shows the users$/,
    );
  });

  test("token revoke <id> deletes the token: the next request with it is 401 Bad credentials", async () => {
    assert.equal((await withToken(tokens.ben2!)).statusCode, 404);
    const [, second] = (await cli("token", "list", "ben", "--json")).stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: number });
    const revoked = await cli("token", "revoke", String(second!.id));
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal(revoked.stdout, `revoked token ${second!.id} (...${tokens.ben2!.slice(-8)}) of ben\n`);
    const refused = await withToken(tokens.ben2!);
    assert.equal(refused.statusCode, 401);
    assert.deepEqual(refused.json(), BAD_CREDENTIALS);
    assert.equal((await withToken(tokens.ben!)).statusCode, 404, "the user's other token still works");
    assertRefused(
      await cli("token", "revoke", String(second!.id)),
      /^feedgate: no token with id \d+: `feedgate token list` shows the ids$/,
    );
    for (const id of ["abc", "0", "-1", "1.5", "99999999999999999999"]) {
      assertRefused(await cli("token", "revoke", id), /is not a token id: use the ID column of `feedgate token list`/);
    }
  });

  test("user disable refuses the user's password and tokens with GitHub's 403; the events stay in the feeds", async () => {
    const disabled = await cli("user", "disable", "dee");
    assert.equal(disabled.code, 0, disabled.stderr);
    assert.match(
      disabled.stdout,
      /^disabled dee: its password and tokens are refused until `feedgate user enable dee`\n$/,
    );
    for (const res of [await withToken(tokens.dee!), await withPassword("dee", "dee-password")]) {
      assert.equal(res.statusCode, 403);
      assert.deepEqual(res.json(), SUSPENDED);
    }
    assert.deepEqual(
      (await publicEvents("dee")).map((e) => e.id),
      ["9101"],
    );
    assert.match((await cli("user", "list")).stdout, /\n\d+ +dee +User +no +no +1 +yes +/);
    assert.match((await cli("user", "disable", "dee")).stdout, /^dee is already disabled \(since .*Z\)\n$/);
  });

  test("user enable lets the same password and tokens in again", async () => {
    const enabled = await cli("user", "enable", "dee");
    assert.equal(enabled.stdout, "enabled dee\n");
    assert.equal((await withToken(tokens.dee!)).statusCode, 404);
    assert.equal((await withPassword("dee", "dee-password")).statusCode, 200);
    assert.equal((await cli("user", "enable", "dee")).stdout, "dee is not disabled\n");
  });

  test("user otp prints a new otpauth URI and a QR code; its secret then authenticates Basic with a code, not without", async () => {
    assert.equal((await withPassword("ben", "ben-password")).statusCode, 200);
    const otp = await cli("user", "otp", "ben");
    assert.equal(otp.code, 0, otp.stderr);
    const [uriLine, ...qr] = otp.stdout.split("\n");
    const uri = new URL(uriLine!);
    assert.equal(uri.protocol, "otpauth:");
    assert.equal(uri.host, "totp");
    assert.equal(decodeURIComponent(uri.pathname), "/feedgate:ben");
    assert.equal(uri.searchParams.get("issuer"), "feedgate");
    const secret = uri.searchParams.get("secret")!;
    assert.match(secret, /^[A-Z2-7]{32}$/);
    assert.ok(qr.join("\n").includes("▄") && qr.length > 10, "a QR code drawn in half blocks");

    const challenged = await withPassword("ben", "ben-password");
    assert.equal(challenged.statusCode, 401);
    assert.equal(challenged.headers["x-github-otp"], "required; app");
    assert.equal((await withPassword("ben", "ben-password", currentOtp(secret, t.clock.now()))).statusCode, 200);
    // A second run replaces the secret: the first one's codes stop working.
    const again = new URL((await cli("user", "otp", "ben")).stdout.split("\n")[0]!).searchParams.get("secret")!;
    assert.notEqual(again, secret);
    assert.equal((await withPassword("ben", "ben-password", currentOtp(again, t.clock.now()))).statusCode, 200);
  });

  test("user otp --remove turns two-factor off: the password alone authenticates again", async () => {
    const removed = await cli("user", "otp", "ben", "--remove");
    assert.equal(removed.stdout, "two-factor authentication is off for ben\n");
    assert.doesNotMatch(removed.stdout, /otpauth/);
    assert.equal((await withPassword("ben", "ben-password")).statusCode, 200);
  });

  test("user delete needs --yes; then the user's tokens and password are refused at once, its events stay", async () => {
    assertRefused(
      await cli("user", "delete", "dee"),
      /^feedgate: deleting dee cannot be undone: add --yes to delete it$/,
    );
    assert.equal((await withToken(tokens.dee!)).statusCode, 404, "nothing was deleted without --yes");
    const receivedBy = async (login: string) =>
      (
        await t.app.inject({
          method: "GET",
          url: `/users/${login}/received_events`,
          headers: { authorization: `token ${tokens[login]}` },
        })
      )
        .json()
        .map((e: { id: string }) => e.id);
    assert.deepEqual(await receivedBy("ben"), ["9101"], "ben follows dee, and sees its event before the delete");

    const deleted = await cli("user", "delete", "dee", "--yes");
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(
      deleted.stdout,
      "deleted user dee: 1 token revoked; its events and repositories stay, under an account that cannot log in\n",
    );
    assert.deepEqual((await withToken(tokens.dee!)).json(), BAD_CREDENTIALS);
    assert.equal((await withPassword("dee", "dee-password")).statusCode, 401);
    assert.doesNotMatch((await cli("user", "list")).stdout, /dee/);
    assert.deepEqual(
      (await publicEvents("dee")).map((e) => e.id),
      ["9101"],
    );
    // ben no longer follows an account that cannot log in.
    assert.deepEqual(await receivedBy("ben"), []);
  });

  test("user delete of a user history does not name removes it entirely", async () => {
    const deleted = await cli("user", "delete", "cal", "--yes");
    assert.equal(deleted.stdout, "deleted user cal: 0 tokens revoked\n");
    assertRefused(await cli("user", "disable", "cal"), /^feedgate: no user "cal"/);
  });

  test("unknown logins and organizations are one line naming the fix, for every command", async () => {
    for (const args of [
      ["delete", "nobody", "--yes"],
      ["disable", "nobody"],
      ["enable", "nobody"],
      ["otp", "nobody"],
      ["otp", "nobody", "--remove"],
      ["passwd", "nobody", "--password", "x"],
    ]) {
      assertRefused(await cli("user", ...args), /^feedgate: no user "nobody": `feedgate user list` shows the users$/);
    }
    await new IngestService(t.store, t.clock.now).seedWorld({ orgs: [{ login: "acme" }] }, { baseDir: undefined });
    assertRefused(await cli("user", "disable", "acme"), /^feedgate: "acme" is an organization, not a user$/);
  });

  test("org member <org> <login> --role owner|member sets the role the hooks API then follows; refusals change nothing", async () => {
    await t.createUser("eve", "eve-password");
    await new IngestService(t.store, t.clock.now).seedWorld(
      { orgs: [{ login: "umbrella", members: ["eve"] }] },
      { baseDir: undefined },
    );
    const orgHooks = () =>
      t.app.inject({
        method: "GET",
        url: "/orgs/umbrella/hooks",
        headers: { authorization: basic("eve", "eve-password") },
      });
    assert.equal((await orgHooks()).statusCode, 404, "a member does not manage the organization's hooks");
    const promoted = await cli("org", "member", "umbrella", "eve", "--role", "owner");
    assert.equal(promoted.code, 0, promoted.stderr);
    assert.equal(promoted.stdout, "eve is an owner of umbrella\n");
    assert.equal((await orgHooks()).statusCode, 200, "an owner does");
    const demoted = await cli("org", "member", "umbrella", "eve", "--role", "member");
    assert.equal(demoted.stdout, "eve is a member of umbrella\n");
    assert.equal((await orgHooks()).statusCode, 404);
    assertRefused(
      await cli("org", "member", "umbrella", "eve", "--role", "admin"),
      /--role must be owner or member, got "admin"/,
    );
    assertRefused(await cli("org", "member", "eve", "ben"), /eve is a user, not an organization/);
    assertRefused(await cli("org", "member", "umbrella", "nobody"), /no user "nobody"/);
    assertRefused(await cli("org", "member", "umbrella", "umbrella"), /"umbrella" is an organization, not a user/);
    assertRefused(await cli("org", "member", "nowhere", "eve"), /no organization "nowhere"/);
    const org = (await t.store.users.findByLogin("umbrella"))!;
    assert.equal(
      await t.store.directory.orgRole(org.id, (await t.store.users.findByLogin("ben"))!.id),
      null,
      "nobody was added",
    );
  });

  // Last: the fine-grained token they add would change what the listings above show.
  test("token add --fine-grained makes a feedgate_pat_ token limited to its owner, repositories and permissions", async () => {
    await new IngestService(t.store, t.clock.now).seedWorld(
      {
        orgs: [{ login: "initech", owners: ["ben"] }],
        repos: [
          { full_name: "initech/app", private: true },
          { full_name: "initech/lab", private: true },
        ],
      },
      { baseDir: undefined },
    );
    const added = await cli(
      "token",
      "create",
      "ben",
      "--fine-grained",
      "--owner",
      "initech",
      "--repo",
      "initech/app",
      "--permission",
      "webhooks:write",
      "--permission",
      "organization_events:read",
      "--note",
      "deploy",
      "--expires",
      "30d",
    );
    assert.equal(added.code, 0, added.stderr);
    const token = added.stdout.trim();
    assert.match(token, /^feedgate_pat_[0-9A-Za-z]{22}_[0-9A-Za-z]{59}$/);
    const as = (url: string, method: "GET" | "POST" = "GET") =>
      t.app.inject({
        method,
        url,
        headers: { authorization: `token ${token}` },
        ...(method === "POST" ? { payload: { config: { url: "https://receiver.example/" }, active: false } } : {}),
      });
    const hooks = await as("/repos/initech/app/hooks");
    assert.equal(hooks.statusCode, 200);
    assert.equal(hooks.headers["x-accepted-github-permissions"], "repository_hooks=read");
    assert.equal((await as("/repos/initech/app/hooks", "POST")).statusCode, 201);
    assert.equal((await as("/repos/initech/lab/hooks")).statusCode, 404, "not selected");
    assert.equal((await as("/orgs/initech/hooks")).statusCode, 403, "no organization Webhooks permission");

    const list = await cli("token", "list", "ben", "--json");
    const row = list.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((r) => r.note === "deploy")!;
    assert.equal(row.kind, "fine-grained");
    assert.equal(row.repository_selection, "subset");
    assert.deepEqual(row.permissions, { metadata: "read", repository_hooks: "write", organization_events: "read" });
    assert.ok(!list.stdout.includes(token.slice(0, -8)), "never the token");
    const table = await cli("token", "list", "ben");
    assert.match(
      table.stdout,
      /fine-grained +metadata=read,repository_hooks=write,organization_events=read \(repositories: subset\) +deploy/,
    );
  });

  test("token add --fine-grained refuses what the API refuses, in one line, storing nothing", async () => {
    const before = (await t.store.authorizations.listAll()).length;
    for (const [args, pattern] of [
      [["--permission", "secrets:read"], /unknown permission; use one of metadata, .*webhooks/],
      [["--permission", "webhooks"], /say the level, e\.g\. webhooks:read/],
      [["--permission", "webhooks:admin"], /must be read or write, got "admin"/],
      [["--permission", "webhooks:write"], /public repositories only/],
      [["--owner", "initech", "--repo", "ben/none"], /initech has no repository "ben\/none"/],
      [["--owner", "nobody"], /resource_owner must be you or an organization you belong to/],
      [
        ["--all-repos", "--repo", "initech/app", "--owner", "initech"],
        /--all-repos and --repo cannot be used together/,
      ],
      [["--scopes", "repo"], /--scopes belongs to classic tokens/],
      [["--token", "fgp_notfinegrained"], /fine-grained token in feedgate's form/],
    ] as [string[], RegExp][]) {
      assertRefused(await cli("token", "add", "ben", "--fine-grained", ...args), pattern);
    }
    assert.equal((await t.store.authorizations.listAll()).length, before);
  });
});
