/** `feedgate app create` and `feedgate app install`: an app registered on the database, its key written to a file. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers/cli.js";
import { startTestApp } from "../helpers/test-app.js";
import { WORLD } from "../helpers/client-world.js";
import { IngestService } from "../../src/server/services/ingest.js";

test("app create prints the id, slug and client id and writes the private key; app install installs it", async () => {
  const t = await startTestApp();
  const dir = await mkdtemp(join(tmpdir(), "feedgate-app-"));
  try {
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
    const keyFile = join(dir, "bot.pem");
    const cli = (...args: string[]) => runCli([...args, "--db", t.dbPath]);
    const created = await cli(
      "app",
      "create",
      "Issue Bot",
      "--owner",
      "alice",
      "--private-key-file",
      keyFile,
      "--permission",
      "issues=write",
      "--event",
      "issues",
    );
    assert.equal(created.code, 0, created.stderr);
    const [, id] = /^id (\d+)$/m.exec(created.stdout)!;
    assert.match(created.stdout, /^slug issue-bot$/m);
    assert.match(created.stdout, /^client id Iv23li\w+$/m);
    assert.match(await readFile(keyFile, "utf8"), /^-----BEGIN PRIVATE KEY-----/);
    assert.equal((await stat(keyFile)).mode & 0o777, 0o600);
    const installed = await cli("app", "install", id!, "alice", "--repository", "hello");
    assert.equal(installed.code, 0, installed.stderr);
    const [installation] = await t.store.apps.installations(Number(id));
    assert.equal(installation!.repositorySelection, "selected");
    const refused = await cli("app", "create", "X", "--owner", "nobody", "--private-key-file", join(dir, "x.pem"));
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /no account "nobody"/);
  } finally {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  }
});
