/**
 * The help of every setting is made from its row in the settings table, so it names the environment variable and
 * the default of each flag; these tests iterate the rows, so a new setting is covered without a line here.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { Writable, Readable } from "node:stream";
import { buildProgram } from "../../src/cli/program.js";
import { SETTINGS } from "../../src/server/config.js";
import { rowsOf } from "../../src/server/settings/read.js";
import { inputKey, type AnySetting } from "../../src/server/settings/setting.js";
import { runCli } from "../helpers/cli.js";

/** Each option's help as one line, by flag: commander wraps a long help over several indented lines. */
function optionHelps(help: string): Map<string, string> {
  const helps = new Map<string, string>();
  for (const block of help.split(/\n(?= {2}-)/)) {
    const flag = /^ {2}(?:-\w, )?(--[a-z-]+)/.exec(block)?.[1];
    if (flag) helps.set(flag, block.replace(/\s+/g, " ").trim());
  }
  return helps;
}

function assertNamesEnvAndDefault(helps: Map<string, string>, row: AnySetting, command: string): void {
  const help = helps.get(row.flag);
  assert.ok(help, `${command} --help lists ${row.flag}`);
  assert.ok(help.endsWith(`(env ${row.env}, default ${row.shownDefault})`), `${command} ${row.flag}: ${help}`);
}

describe("the settings' help", () => {
  test("feedgate serve --help names every setting's flag, environment variable and default", async () => {
    const { code, stdout } = await runCli(["serve", "--help"]);
    assert.equal(code, 0);
    const helps = optionHelps(stdout);
    assert.ok(
      helps.get("--rate-limit-window")?.includes("env FEEDGATE_RATE_LIMIT_WINDOW"),
      "the variables the help once left out",
    );
    assert.match(helps.get("--request-timeout")!, /; 0: none \(env/, "what 0 means, where it means none");
    for (const row of rowsOf(SETTINGS)) assertNamesEnvAndDefault(helps, row, "serve");
  });

  test("the commands that share a setting with serve say the same of it", async () => {
    for (const [args, rows] of [
      [["migrate"], [SETTINGS.db]],
      [
        ["user", "add"],
        [SETTINGS.db, SETTINGS.passwordCost],
      ],
      [["seed"], [SETTINGS.db, SETTINGS.passwordCost]],
      [["import"], [SETTINGS.db, SETTINGS.webhooks.maxQueue]],
      [["replay"], [SETTINGS.db, SETTINGS.webhooks.maxQueue]],
      [
        ["keys", "rotate"],
        [SETTINGS.db, SETTINGS.webhooks.keyFile],
      ],
    ] as const) {
      const { code, stdout } = await runCli([...args, "--help"]);
      assert.equal(code, 0);
      for (const row of rows) assertNamesEnvAndDefault(optionHelps(stdout), row, args.join(" "));
    }
  });

  test("each flag of serve gives its value under the name the configuration reads it by", () => {
    const nowhere = new Writable({ write: (_chunk, _encoding, done) => done() });
    const program = buildProgram({ stdin: Readable.from([]), stdout: nowhere, stderr: nowhere, env: {} });
    const serve = program.commands.find((command) => command.name() === "serve")!;
    for (const row of rowsOf(SETTINGS)) {
      const option = serve.options.find((o) => o.long === row.flag);
      assert.equal(option?.attributeName(), inputKey(row), row.flag);
      assert.equal(option?.required, row.arg !== undefined, `${row.flag} takes a value unless a switch`);
    }
  });

  test("a shared setting's flag wins over its variable", async () => {
    const given = (env: Record<string, string>, ...args: string[]) =>
      runCli(["import", "-", ...args, "--db", ":memory:"], { env, input: "" });
    const refused = await given({ FEEDGATE_WEBHOOK_MAX_QUEUE: "none" });
    assert.match(refused.stderr, /^feedgate: webhook max queue must be a non-negative integer, got "none"$/m);
    assert.equal((await given({ FEEDGATE_WEBHOOK_MAX_QUEUE: "none" }, "--webhook-max-queue", "5")).code, 0);
  });
});
