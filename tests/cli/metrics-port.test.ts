import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { feedgate, waitForOutput } from "../helpers/cli.js";

describe("feedgate serve --metrics-port", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "feedgate-cli-metrics-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("serves /metrics on its own port only, and closes it on SIGTERM", async () => {
    const server = feedgate(["serve", "--port", "0", "--metrics-port", "0", "--db", join(dir, "feedgate.db")]);
    // The API port is bound first, then the metrics port.
    const [, api, metrics] = await waitForOutput(
      server,
      /Server listening at (http:\/\/127\.0\.0\.1:\d+)[\s\S]*Server listening at (http:\/\/127\.0\.0\.1:\d+)/,
    );
    assert.notEqual(api, metrics);

    assert.equal((await fetch(`${api}/metrics`)).status, 404);
    const res = await fetch(`${metrics}/metrics`);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /^# TYPE feedgate_db_pool_connections gauge$/m);

    server.child.kill("SIGTERM");
    const exit = await server.done;
    assert.equal(exit.code, 0, exit.stderr);
    await assert.rejects(fetch(`${metrics}/metrics`));
  });
});
