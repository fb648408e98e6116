/**
 * `feedgate keys rotate`, in process, against the database of a listening feedgate that delivers meanwhile: every
 * delivery before, during and after the rotation is signed with its hook's secret (checked at the receiver), none
 * fails, and afterwards the secrets are sealed under the new key only. On the driver this run tests (SQLite, or
 * PostgreSQL in the driver matrix run).
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHmac, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers/cli.js";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { ALICE_TOKEN, minute } from "../helpers/client-world.js";
import { event } from "../helpers/events.js";
import { TestClock } from "../helpers/test-app.js";
import { receiver, type Receiver } from "../helpers/webhook-receiver.js";
import { eventually } from "../helpers/wait.js";
import { keyIdOf, SecretBox } from "../../src/server/webhooks/secret-box.js";

const HOOKS = 12;
let nextId = 950_000;
const push = () => event(String(nextId++), "PushEvent", "alice", "alice/hello", { created_at: minute(90) });
const signed = (secret: string, body: string) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

describe("feedgate keys rotate", () => {
  let dir: string;
  let keyFile: string;
  let t: ListeningApp;
  let hooks: Receiver;
  let url: string;
  /** Each hook's secret, by hook id, as its creator gave it. */
  const secrets = new Map<string, string>();

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "feedgate-rotate-"));
    keyFile = join(dir, "webhook.key");
    t = await startListeningApp({ webhookKeyFile: keyFile, webhookMaxBackoff: "50ms" }, new TestClock(undefined, true));
    hooks = receiver();
    url = await hooks.listen();
  });
  after(async () => {
    await t.close();
    await hooks.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function createHook(secret: string): Promise<string> {
    const answer = await fetch(`${t.url}/repos/alice/hello/hooks`, {
      method: "POST",
      headers: { Authorization: `token ${ALICE_TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ events: ["push"], config: { url, content_type: "json", secret } }),
    });
    assert.equal(answer.status, 201, await answer.clone().text());
    const id = String(((await answer.json()) as { id: number }).id);
    secrets.set(id, secret);
    return id;
  }

  /** Every request the receiver got is signed with the secret of the hook it names. */
  function assertAllSigned(): void {
    for (const request of hooks.received) {
      const id = String(request.headers["x-github-hook-id"]);
      assert.equal(
        request.headers["x-hub-signature-256"],
        signed(secrets.get(id)!, request.body),
        `hook ${id}, ${request.headers["x-github-event"]}`,
      );
    }
  }

  const sealedNow = async () => {
    const rows = await t.store.hooks.sealedSecrets(0, 1000);
    return new Map(rows.map((r) => [String(r.hookId), r.sealed]));
  };
  const keyFileText = () => readFileSync(keyFile, "utf8");

  test("without a new key, or with a bad one, it says so in one line and changes nothing", async () => {
    await createHook("before-anything");
    await hooks.until(1);
    const [file, sealed] = [keyFileText(), await sealedNow()];
    const db = ["--db", t.dbPath, "--webhook-key-file", keyFile];
    const refusals: [string[], RegExp, Record<string, string>?, string?][] = [
      [
        [],
        /^feedgate: keys rotate needs the new key \(64 hex digits, e\.g\. from `openssl rand -hex 32`\): --new-key-stdin, --new-key-file FILE or --new-key-env NAME; nothing was changed\n$/,
      ],
      [["--new-key-env", "NEW_KEY"], /^feedgate: the new key must be 64 hex digits/, { NEW_KEY: "not-a-key" }],
      [
        ["--new-key-env", "NEW_KEY"],
        /^feedgate: --new-key-env NEW_KEY: the environment has no NEW_KEY; nothing was sent or changed\n$/,
      ],
      [["--new-key-stdin"], /^feedgate: no new key: standard input is not a terminal and gave none/, {}, ""],
      [
        ["--new-key-stdin", "--new-key-file", keyFile],
        /^feedgate: give the new key one way, not --new-key-stdin and --new-key-file/,
      ],
    ];
    for (const [args, message, env, input] of refusals) {
      const run = await runCli(["keys", "rotate", ...db, ...args], { env, input });
      assert.equal(run.code, 1, args.join(" "));
      assert.match(run.stderr, message, args.join(" "));
      assert.equal(run.stdout, "");
    }
    const elsewhere = await runCli(
      ["keys", "rotate", "--db", t.dbPath, "--webhook-key-file", join(dir, "nope.key"), "--new-key-env", "K"],
      { env: { K: randomBytes(32).toString("hex") } },
    );
    assert.equal(elsewhere.code, 1);
    assert.match(
      elsewhere.stderr,
      /^feedgate: no webhook key file at .*nope\.key: name the one the server uses .*; nothing was changed\n$/,
    );
    assert.equal(keyFileText(), file);
    assert.deepEqual(await sealedNow(), sealed);
  });

  test("deliveries are signed with each hook's secret before, during and after the rotation, and none fails", async () => {
    for (let i = 0; i < HOOKS; i++) await createHook(`secret-${i}-${randomBytes(4).toString("hex")}`);
    const oldKey = Buffer.from(keyFileText().trim(), "hex");
    // Before: pings and a push to every hook (the first test's included).
    const all = HOOKS + 1;
    await t.ingest.ingestEvents([push()]);
    let expected = all + all;
    await hooks.until(expected);
    assertAllSigned();

    // During: pushes keep coming while the key is rotated; the new key comes from a file, as an operator's would.
    const newKey = randomBytes(32);
    const newKeyFile = join(dir, "new.key");
    writeFileSync(newKeyFile, `${newKey.toString("hex")}\n`, { mode: 0o600 });
    let rotating = true;
    let during = 0;
    const load = (async () => {
      while (rotating) {
        await t.ingest.ingestEvents([push()]);
        during++;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const rotated = await runCli([
      "keys",
      "rotate",
      "--db",
      t.dbPath,
      "--webhook-key-file",
      keyFile,
      "--new-key-file",
      newKeyFile,
    ]);
    rotating = false;
    await load;
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.equal(
      rotated.stdout,
      `resealed ${all} webhook secrets under key ${keyIdOf(newKey)} (was ${keyIdOf(oldKey)}); ${keyFile} holds it alone\n`,
    );
    assert.ok(during > 0);

    // After: a push to every hook, and a hook created now, sealed under the new key by the running server.
    await t.ingest.ingestEvents([push()]);
    const late = await createHook("created-after");
    expected += (during + 1) * all + 1;
    await hooks.until(expected);
    assertAllSigned();
    assert.equal(hooks.received.length, expected, "each delivery once");
    for (const id of secrets.keys()) {
      const attempts = await t.store.hooks.deliveries(Number(id), 1000, null);
      assert.deepEqual(
        attempts.filter((a) => a.statusCode !== 200).map((a) => a.status),
        [],
        `hook ${id}`,
      );
    }

    // The key file holds the new key alone; every secret is sealed under it, and the old key opens none.
    assert.equal(keyFileText(), `${newKey.toString("hex")}\n`);
    const sealed = await sealedNow();
    assert.equal(sealed.size, all + 1);
    for (const [id, value] of sealed) {
      assert.equal(SecretBox.keyIdIn(value), keyIdOf(newKey), `hook ${id}`);
      assert.equal(SecretBox.withKeys([newKey]).open(value), secrets.get(id));
      assert.throws(() => SecretBox.withKeys([oldKey]).open(value));
    }
    assert.ok(sealed.has(late));
    await eventually(
      async () => hooks.received.length,
      (n) => n === expected,
      { ms: 300 },
    );
    const seen = hooks.received.map(
      (r) => `${r.headers["x-github-hook-id"]} ${r.headers["x-github-delivery"]} ${r.headers["x-github-event"]}`,
    );
    assert.deepEqual(
      seen.filter((k, i) => seen.indexOf(k) !== i),
      [],
    );
    assert.equal(hooks.received.length, expected);
  });

  test("--keep-old leaves the old key after the new one; rotating to the same key again then drops it", async () => {
    const oldKey = Buffer.from(keyFileText().trim(), "hex");
    const newKey = randomBytes(32).toString("hex");
    const db = ["--db", t.dbPath, "--webhook-key-file", keyFile];
    const kept = await runCli(["keys", "rotate", ...db, "--new-key-stdin", "--keep-old"], { input: `${newKey}\n` });
    assert.equal(kept.code, 0, kept.stderr);
    assert.match(
      kept.stdout,
      new RegExp(
        `under key ${keyIdOf(Buffer.from(newKey, "hex"))} \\(was ${keyIdOf(oldKey)}\\); .* keeps the old keys after it\n$`,
      ),
    );
    assert.equal(keyFileText(), `${newKey}\n${oldKey.toString("hex")}\n`);
    for (const value of (await sealedNow()).values())
      assert.equal(SecretBox.keyIdIn(value), keyIdOf(Buffer.from(newKey, "hex")));

    const again = await runCli(["keys", "rotate", ...db, "--new-key-env", "KEY"], { env: { KEY: newKey } });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^resealed 0 webhook secrets under key \w+ \(was \w+\); .* holds it alone\n$/);
    assert.equal(keyFileText(), `${newKey}\n`);
    // Deliveries still signed: a push to every hook after both.
    const before = hooks.received.length;
    await t.ingest.ingestEvents([push()]);
    await hooks.until(before + secrets.size);
    assertAllSigned();
  });
});
