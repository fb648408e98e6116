/** `feedgate hooks list|create|deliveries|redeliver`, in process, against a listening feedgate. */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers/cli.js";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { ALICE, ALICE_TOKEN } from "../helpers/client-world.js";
import { createHook, recordAttempt } from "../helpers/hook-fixtures.js";
import { receiver, type Receiver } from "../helpers/webhook-receiver.js";

/** GitHub's X-Hub-Signature-256 of `body` under `secret`: what a receiver checks. */
const signed = (secret: string, body: string) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

describe("feedgate hooks", () => {
  let t: ListeningApp;
  let env: Record<string, string>;
  before(async () => {
    t = await startListeningApp();
    env = { FEEDGATE_URL: t.url, FEEDGATE_TOKEN: ALICE_TOKEN };
  });
  after(() => t.close());

  test("create prints the new hook's id; list shows it; deliveries and redeliver work on its attempts", async () => {
    const created = await runCli(
      [
        "hooks",
        "create",
        "alice/hello",
        "--hook-url",
        "https://example.com/cli",
        "--events",
        "push,issues",
        "--secret",
        "s",
        "--content-type",
        "json",
        "--inactive",
      ],
      { env },
    );
    assert.equal(created.code, 0, created.stderr);
    const id = Number(created.stdout.trim());
    assert.ok(id > 0, created.stdout);

    const list = await runCli(["hooks", "list", "alice/hello"], { env });
    assert.equal(list.code, 0, list.stderr);
    assert.equal(list.stdout, `${id}\tinactive\tpush,issues\thttps://example.com/cli\n`);
    const json = await runCli(["hooks", "list", "alice/hello", "--json"], { env });
    assert.equal(JSON.parse(json.stdout).config.secret, "********");

    const hook = (await t.store.hooks.find(
      { kind: "repo", repoId: (await t.store.directory.findRepo("alice", "hello"))!.id },
      id,
    ))!;
    await recordAttempt(t.store, hook, { guid: "cli-guid" });
    const deliveries = await runCli(["hooks", "deliveries", "alice/hello", String(id)], { env });
    assert.equal(deliveries.code, 0, deliveries.stderr);
    const [deliveryId, guid, event, status] = deliveries.stdout.trim().split("\t");
    assert.deepEqual([guid, event, status], ["cli-guid", "push", "200 OK"]);
    const again = await runCli(["hooks", "redeliver", "alice/hello", String(id), deliveryId!], { env });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, `redelivery of ${deliveryId} queued\n`);
  });

  test("an organization's hooks, with a password", async () => {
    const passwordEnv = { FEEDGATE_URL: t.url, FEEDGATE_PASSWORD: ALICE.password };
    const created = await runCli(
      ["hooks", "create", "acme", "--user", "alice", "--hook-url", "https://example.com/org", "--inactive"],
      { env: passwordEnv },
    );
    assert.equal(created.code, 0, created.stderr);
    const list = await runCli(["hooks", "list", "acme", "--user", "alice"], { env: passwordEnv });
    assert.match(list.stdout, new RegExp(`^${created.stdout.trim()}\tinactive\tpush\thttps://example.com/org\n$`));
  });

  test("failures are one line: a token without admin:org_hook gets 404, bad input the server's 422", async () => {
    const refused = await runCli(["hooks", "list", "acme"], { env });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /404 Not Found/);
    const bad = await runCli(
      ["hooks", "create", "alice/hello", "--hook-url", "https://example.com/", "--events", "nonsense"],
      { env },
    );
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /422 Validation Failed: "nonsense" is not a valid event name/);
    const target = await runCli(["hooks", "list", "a/b/c"], { env });
    assert.equal(target.code, 1);
    assert.match(target.stderr, /owner\/repo or an organization's login/);
  });

  describe("the secret off the command line", () => {
    let hooks: Receiver;
    let url: string;
    const dir = mkdtempSync(join(tmpdir(), "feedgate-secret-"));
    before(async () => {
      hooks = receiver();
      url = await hooks.listen();
    });
    after(() => hooks.close());

    /** Creates an active json hook (whose ping the receiver gets) and returns the ping as received. */
    async function createAndPing(args: string[], options: { env?: Record<string, string>; input?: string } = {}) {
      const count = hooks.received.length;
      const created = await runCli(
        ["hooks", "create", "alice/hello", "--hook-url", url, "--content-type", "json", ...args],
        { env: { ...env, ...options.env }, input: options.input },
      );
      assert.equal(created.code, 0, created.stderr);
      await hooks.until(count + 1);
      return hooks.received[count]!;
    }

    test("from stdin, a file or an environment variable, deliveries are signed with it, as with --secret", async () => {
      const file = join(dir, "secret");
      writeFileSync(file, "from-a-file\n");
      const cases: [string, string[], { env?: Record<string, string>; input?: string }][] = [
        ["piped-secret", ["--secret-stdin"], { input: "piped-secret\n" }],
        ["from-a-file", ["--secret-file", file], {}],
        ["from-the-env", ["--secret-env", "HOOK_SECRET"], { env: { HOOK_SECRET: "from-the-env" } }],
        ["on-the-line", ["--secret", "on-the-line"], {}],
      ];
      for (const [secret, args, options] of cases) {
        const ping = await createAndPing(args, options);
        assert.equal(ping.headers["x-hub-signature-256"], signed(secret, ping.body), args.join(" "));
      }
      // Without any, the hook has no secret and deliveries are unsigned, as before.
      const unsigned = await createAndPing([]);
      assert.equal(unsigned.headers["x-hub-signature-256"], undefined);
    });

    test("--secret-stdin with --user reads the password from FEEDGATE_PASSWORD", async () => {
      const ping = await createAndPing(["--user", "alice", "--secret-stdin"], {
        env: { FEEDGATE_PASSWORD: ALICE.password },
        input: "with-a-password",
      });
      assert.equal(ping.headers["x-hub-signature-256"], signed("with-a-password", ping.body));
    });

    test("bad input is one line and creates nothing: two ways, an empty or missing source, stdin wanted twice", async () => {
      const repoId = (await t.store.directory.findRepo("alice", "hello"))!.id;
      const before = (await t.store.hooks.list({ kind: "repo", repoId }, { limit: 1000, offset: 0 })).total;
      const empty = join(dir, "empty");
      writeFileSync(empty, "\n");
      const refusals: [string[], RegExp, { env?: Record<string, string>; input?: string }][] = [
        [
          ["--secret", "a", "--secret-env", "X"],
          /^feedgate: give the webhook secret one way, not --secret and --secret-env; nothing was sent or changed\n$/,
          { env: { X: "x" } },
        ],
        [
          ["--secret-stdin"],
          /^feedgate: no webhook secret: standard input is not a terminal and gave none; pipe it to --secret-stdin/,
          { input: "" },
        ],
        [
          ["--secret-file", join(dir, "missing")],
          /cannot read the webhook secret from .*missing \(--secret-file\): no such file; nothing was sent or changed/,
          {},
        ],
        [
          ["--secret-file", empty],
          /the webhook secret from --secret-file .*empty is empty; nothing was sent or changed/,
          {},
        ],
        [
          ["--secret-env", "NOT_SET"],
          /--secret-env NOT_SET: the environment has no NOT_SET; nothing was sent or changed/,
          {},
        ],
        [["--secret-env", "BLANK"], /the webhook secret from --secret-env BLANK is empty/, { env: { BLANK: "" } }],
        [
          ["--user", "alice", "--secret-stdin"],
          /--secret-stdin and --user would both read standard input: set FEEDGATE_PASSWORD/,
          { input: "s\npw\n" },
        ],
      ];
      for (const [args, message, options] of refusals) {
        const run = await runCli(["hooks", "create", "alice/hello", "--hook-url", url, ...args], {
          env: { ...env, ...options.env },
          input: options.input,
        });
        assert.equal(run.code, 1, args.join(" "));
        assert.match(run.stderr, message, args.join(" "));
        assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
      }
      assert.equal((await t.store.hooks.list({ kind: "repo", repoId }, { limit: 1000, offset: 0 })).total, before);
    });
  });

  test("redeliver --failed --since queues each failed delivery once; an empty window is one line and changes nothing", async () => {
    const hello = { kind: "repo" as const, repoId: (await t.store.directory.findRepo("alice", "hello"))!.id };
    const hook = await createHook(t.store, hello); // inactive: what is queued stays queued
    try {
      await recordAttempt(t.store, hook, { guid: "cli-failed", statusCode: 500, status: "Invalid HTTP Response: 500" });
      const queued = await runCli(["hooks", "redeliver", "--failed", "--since", "1h", "--repo", "alice/hello"], {
        env,
      });
      assert.equal(queued.code, 0, queued.stderr);
      assert.equal(
        queued.stdout,
        "queued 1 failed delivery again, to 1 hook (failed since 2026-01-15T09:00:00.000Z)\n",
      );
      assert.equal(await t.store.hooks.queued(hook.id), 1);

      const again = await runCli(["hooks", "redeliver", "--failed", "--since", "1h", "--repo", "alice/hello"], { env });
      assert.equal(again.code, 1);
      assert.match(
        again.stderr,
        /^feedgate: 422 Validation Failed: no failed delivery to redeliver since 2026-01-15T09:00:00\.000Z: nothing was queued/,
      );
      assert.equal(again.stderr.trim().split("\n").length, 1, "one line");
      assert.equal(await t.store.hooks.queued(hook.id), 1, "nothing changed");

      for (const [args, message] of [
        [["--failed", "--repo", "alice/hello"], /--failed needs --since/],
        [["--failed", "--since", "1h", "--repo", "alice/hello", "--org", "acme"], /--repo or --org, not both/],
        [["--since", "1h"], /go with --failed/],
        [["--failed", "--since", "soon", "--repo", "alice/hello"], /422 Validation Failed: since must be a duration/],
        [["--failed", "--since", "1h"], /404 Not Found/], // every hook's: a site administrator's
      ] as const) {
        const refused = await runCli(["hooks", "redeliver", ...args], { env });
        assert.equal(refused.code, 1, args.join(" "));
        assert.match(refused.stderr, message);
      }
      assert.equal(await t.store.hooks.queued(hook.id), 1);
    } finally {
      await t.store.hooks.delete(hello, hook.id);
    }
  });
});
