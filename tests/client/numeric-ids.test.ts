/**
 * feedgate/client and the CLI against a server started with `--numeric-ids`: the server sends authorization and
 * issue-event ids as integers, the SDK hands them on as strings (its types say string: src/client/ids.ts), on
 * every page, and the ids it returns are the ones its operations take.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client } from "../../src/client/index.js";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { ALICE } from "../helpers/client-world.js";
import { feedgate, runCli, waitForOutput } from "../helpers/cli.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const HELLO = { user: "alice", repo: "hello" };

describe("a --numeric-ids server", () => {
  let t: ListeningApp;
  let alice: Client;
  before(async () => {
    t = await startListeningApp({ numericIds: true });
    alice = new Client({
      baseUrl: t.url,
      version: "3.0.0",
      auth: { type: "basic", username: ALICE.login, password: ALICE.password },
    });
  });
  after(() => t.close());

  test("sends integers on the wire", async () => {
    const auth = `Basic ${Buffer.from(`${ALICE.login}:${ALICE.password}`).toString("base64")}`;
    const [authorization] = await (await fetch(`${t.url}/authorizations`, { headers: { authorization: auth } })).json();
    assert.equal(typeof authorization.id, "number");
    const [issueEvent] = await (await fetch(`${t.url}/repos/alice/hello/issues/events`)).json();
    assert.equal(typeof issueEvent.id, "number");
  });

  test("the SDK returns authorization ids as strings, which get, update and delete take", async () => {
    const created = await alice.authorization.create({ note: "numeric" });
    assert.equal(typeof created.data.id, "string");
    assert.equal(created.meta.location, `${t.url}/authorizations/${created.data.id}`);
    const got = await alice.authorization.get({ id: created.data.id });
    assert.equal(got.data.id, created.data.id);
    assert.equal((await alice.authorization.update({ id: created.data.id, note: "renamed" })).data.id, created.data.id);
    for await (const page of alice.paginate(alice.authorization.getAll, { per_page: 1 })) {
      for (const item of page.data) assert.equal(typeof item.id, "string");
    }
    assert.equal((await alice.authorization.delete({ id: created.data.id })).status, 204);
  });

  test("issue-event ids are strings on every page, paginate and getNextPage alike; event ids too", async () => {
    const ids: unknown[] = [];
    for await (const page of alice.paginate(alice.events.getFromRepoIssues, { ...HELLO, per_page: 1 }))
      ids.push(...page.data.map((e) => e.id));
    assert.deepEqual(ids, ["13", "12", "11"]);
    const first = await alice.events.getFromRepoIssues({ ...HELLO, per_page: 2 });
    assert.deepEqual(
      (await alice.getNextPage(first)).data.map((e) => e.id),
      ["11"],
    );
    const [event] = (await alice.events.getFromRepo({ ...HELLO, per_page: 1 })).data;
    assert.equal(typeof event!.id, "string");
  });

  test("feedgate auth list and feedgate events print them", async () => {
    const env = { FEEDGATE_URL: t.url, FEEDGATE_USER: ALICE.login, FEEDGATE_PASSWORD: ALICE.password };
    const created = await alice.authorization.create({ note: "cli" });
    const list = await runCli(["auth", "list"], { env });
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, new RegExp(`^${created.data.id}\\t-\\tcli\\t`, "m"));
    const update = await runCli(["auth", "update", created.data.id, "--note", "cli2", "--json"], { env });
    assert.equal(update.code, 0, update.stderr);
    assert.equal(JSON.parse(update.stdout).note, "cli2");
    const events = await runCli(["events", "getFromRepoIssues", "alice/hello", "--url", t.url, "--all"]);
    assert.equal(events.code, 0, events.stderr);
    assert.deepEqual(
      events.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).id),
      ["13", "12", "11"],
    );
  });
});

test("feedgate serve --numeric-ids sends integer ids; FEEDGATE_NUMERIC_IDS=0 leaves them strings", async () => {
  const dir = mkdtempSync(join(tmpdir(), "feedgate-numeric-"));
  try {
    for (const [args, env, type] of [
      [["--numeric-ids"], {}, "number"],
      [[], { FEEDGATE_NUMERIC_IDS: "0" }, "string"],
    ] as const) {
      const server = feedgate(["serve", "--port", "0", "--db", join(dir, `${type}.db`), "--demo", ...args], { env });
      try {
        const [, url] = await waitForOutput(server, /Server listening at (http:\/\/127\.0\.0\.1:\d+)/);
        const [, login, password] = await waitForOutput(server, /login: +(\S+)\n +password: +(\S+)/, 20_000, "stderr");
        const authorization = `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}`;
        const [first] = await (await fetch(`${url}/authorizations`, { headers: { authorization } })).json();
        assert.equal(typeof first.id, type);
      } finally {
        server.child.kill("SIGTERM");
        await server.done;
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
