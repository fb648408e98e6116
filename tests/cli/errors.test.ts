/**
 * Every failure of a command is one line on stderr that names the cause and the fix, with status 1; the stack
 * only with --verbose or DEBUG. Run in this process (runCli); serve's failed starts, which are about the process
 * ending, are in startup-failures.test.ts.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { once } from "node:events";
import { PassThrough, Writable } from "node:stream";
import { gzipSync } from "node:zlib";
import { runCli } from "../helpers/cli.js";
import { readSecret } from "../../src/cli/prompt.js";
import { POSTGRES_ADMIN_URL, skipUnlessPostgres } from "../helpers/services.js";

const lines = (text: string) => text.split("\n").filter(Boolean);

/** A path whose parent is a file: opening a SQLite database there fails with an error no command expects. */
const UNOPENABLE = "/dev/null/feedgate.db";

describe("failures of feedgate commands", () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), "feedgate-errors-"))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("an unexpected error is one line with its message and how to see more, no stack", async () => {
    const result = await runCli(["migrate", "--db", UNOPENABLE]);
    assert.equal(result.code, 1);
    assert.deepEqual(lines(result.stderr), [
      "feedgate: EEXIST: file already exists, mkdir '/dev/null' (run again with --verbose for details)",
    ]);
  });

  for (const [how, args, env] of [
    ["--verbose after the command", ["migrate", "--db", UNOPENABLE, "--verbose"], {}],
    ["--verbose before the command", ["--verbose", "migrate", "--db", UNOPENABLE], {}],
    ["DEBUG in the environment", ["migrate", "--db", UNOPENABLE], { DEBUG: "1" }],
  ] as const) {
    test(`${how} adds the stack after the line`, async () => {
      const result = await runCli([...args], { env });
      assert.equal(result.code, 1);
      const [first, ...rest] = lines(result.stderr);
      assert.equal(first, "feedgate: EEXIST: file already exists, mkdir '/dev/null'");
      assert.ok(
        rest.some((line) => /^\s+at /.test(line)),
        result.stderr,
      );
    });
  }

  test("an operator's mistake stays one line without the hint, and --verbose adds its stack", async () => {
    const plain = await runCli(["import", "-", "-", "--db", join(dir, "a.db")]);
    assert.deepEqual([plain.code, plain.stderr], [1, "feedgate: standard input (-) can be imported once\n"]);
    const verbose = await runCli(["import", "-", "-", "--db", join(dir, "a.db"), "--verbose"]);
    assert.match(verbose.stderr, /^feedgate: standard input \(-\) can be imported once\nInvalidInputError: .*\n\s+at /);
  });

  test("seed of a world file that does not exist, or of a directory: one line saying so, nothing opened", async () => {
    const db = join(dir, "seed.db");
    const missing = await runCli(["seed", join(dir, "nope.json"), "--db", db]);
    assert.deepEqual(
      [missing.code, lines(missing.stderr)],
      [1, [`feedgate: ${join(dir, "nope.json")}: does not exist; a world file is JSON such as demo/world.json`]],
    );
    const folder = await runCli(["seed", dir, "--db", db]);
    assert.deepEqual(
      [folder.code, lines(folder.stderr)],
      [1, [`feedgate: ${dir}: is a directory; name the world file in it`]],
    );
    assert.equal(existsSync(db), false);
  });

  test("events with a --url that is no URL: the SDK's one line, with --follow --interval too", async () => {
    for (const extra of [[], ["--follow", "--interval", "5"]]) {
      const result = await runCli(["events", "get", "--url", "notaurl", ...extra]);
      assert.deepEqual(
        [result.code, lines(result.stderr)],
        [1, ['feedgate: baseUrl must be an absolute http(s) URL without query, got "notaurl"']],
        extra.join(" "),
      );
    }
  });

  test("a flag with a value it cannot take is one line naming the flag's rule, without the hint", async () => {
    for (const [args, line] of [
      [["serve", "--log-format", "yaml"], 'feedgate: log format must be json or pretty, got "yaml"'],
      [
        ["serve", "--feed-max-age", "forever"],
        'feedgate: feed max age must be a duration such as 500ms, 30s, 2m, 12h or 30d, got "forever"',
      ],
    ] as const) {
      const result = await runCli([...args, "--db", join(dir, "flags.db")]);
      assert.deepEqual([result.code, lines(result.stderr)], [1, [line]]);
    }
  });

  test("import of a file that does not exist: one line naming it and where GH Archive's files are; nothing opened", async () => {
    writeFileSync(join(dir, "good.ndjson"), "");
    const db = join(dir, "import.db");
    const result = await runCli(["import", join(dir, "good.ndjson"), "nope.ndjson", "--db", db]);
    assert.deepEqual(
      [result.code, lines(result.stderr)],
      [
        1,
        [
          "feedgate: nope.ndjson does not exist; GH Archive files are at https://data.gharchive.org/YYYY-MM-DD-H.json.gz, " +
            "one an hour (e.g. https://data.gharchive.org/2021-07-21-15.json.gz; hours are 0 to 23, UTC)",
        ],
      ],
    );
    assert.equal(result.stdout, "", "the good file before it was not imported either");
    assert.equal(existsSync(db), false);
  });

  test("import of a directory: one line saying to name its files", async () => {
    mkdirSync(join(dir, "hours"));
    const result = await runCli(["import", join(dir, "hours"), "--db", join(dir, "import.db")]);
    assert.deepEqual(
      [result.code, result.stderr],
      [1, `feedgate: ${join(dir, "hours")} is a directory; name the files in it (${join(dir, "hours")}/*.json.gz)\n`],
    );
  });

  test("--version prints the package's version", async () => {
    const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
    for (const flag of ["--version", "-V"]) {
      const result = await runCli([flag]);
      assert.deepEqual([result.code, result.stdout, result.stderr], [0, `${version}\n`, ""]);
    }
  });
});

describe("commands that open the store, when the database is not there", async () => {
  const postgresSkip = await skipUnlessPostgres();
  let dir: string;
  /** Every command that opens the store, with arguments that get it that far. */
  let commands: string[][];
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "feedgate-errors-"));
    writeFileSync(join(dir, "world.json"), "{}");
    writeFileSync(join(dir, "events.ndjson"), "");
    commands = [
      ["migrate"],
      ["import", join(dir, "events.ndjson")],
      ["seed", join(dir, "world.json")],
      ["user", "list"],
      ["user", "add", "zed", "--password", "pw"],
      ["user", "passwd", "zed", "--password", "pw"],
      ["token", "add", "zed"],
    ];
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("a PostgreSQL database that does not exist: one line naming it, the URL without its password, and createdb", {
    skip: postgresSkip,
  }, async () => {
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = "/feedgate_nobody_made_this";
    url.password = "hunter2";
    const db = url.toString();
    url.password = "";
    const createdb = [
      "createdb",
      url.hostname && `-h ${url.hostname}`,
      url.port && `-p ${url.port}`,
      url.username && `-U ${url.username}`,
      "feedgate_nobody_made_this",
    ]
      .filter(Boolean)
      .join(" ");
    for (const command of commands) {
      const result = await runCli([...command, "--db", db]);
      assert.deepEqual(
        [command, result.code, lines(result.stderr)],
        [
          command,
          1,
          [
            `feedgate: database "feedgate_nobody_made_this" does not exist on the PostgreSQL server at ${url}; ` +
              `create it (${createdb}) or check --db (or FEEDGATE_DB)`,
          ],
        ],
      );
    }
  });

  test("an unreachable PostgreSQL, given by --db or FEEDGATE_DB: one line naming it, without the password", async () => {
    for (const command of commands) {
      for (const [args, env] of [
        [["--db", "postgres://feedgate:hunter2@127.0.0.1:1/feedgate"], {}],
        [[], { FEEDGATE_DB: "postgres://feedgate:hunter2@127.0.0.1:1/feedgate" }],
      ] as const) {
        const result = await runCli([...command, ...args], { env });
        assert.deepEqual(
          [command, result.code, lines(result.stderr)],
          [
            command,
            1,
            [
              "feedgate: cannot reach PostgreSQL at postgres://feedgate@127.0.0.1:1/feedgate (ECONNREFUSED); " +
                "is it running? check --db (or FEEDGATE_DB)",
            ],
          ],
        );
      }
    }
  });
});

describe("a password that is missing", () => {
  let dir: string;
  let requests = 0;
  let server: ReturnType<typeof createServer>;
  let url: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "feedgate-errors-"));
    // Counts what reaches it: a refused command must send nothing, not even an attempt that costs a lockout try.
    server = createServer((_request, response) => {
      requests++;
      response.writeHead(401, { "content-type": "application/json" }).end('{"message":"Bad credentials"}');
    }).listen(0, "127.0.0.1");
    await once(server, "listening");
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [how, env, input] of [
    ["FEEDGATE_PASSWORD unset and nothing piped", {}, ""],
    ["FEEDGATE_PASSWORD empty and an empty line piped", { FEEDGATE_PASSWORD: "" }, "\n"],
  ] as const) {
    test(`auth with ${how}: refused in one line before anything is sent`, async () => {
      const result = await runCli(["auth", "list", "--url", url, "--user", "alice"], { env, input });
      assert.deepEqual(
        [result.code, result.stderr],
        [
          1,
          "feedgate: no password: standard input is not a terminal and gave none; set FEEDGATE_PASSWORD or pipe the password on standard input\n",
        ],
      );
      assert.equal(requests, 0);
    });
  }

  test("user add and user passwd with nothing piped: refused in one line, nothing stored", async () => {
    const db = join(dir, "users.db");
    const refusal =
      "feedgate: no password: standard input is not a terminal and gave none; give --password or pipe the password on standard input\n";
    const add = await runCli(["user", "add", "zed", "--db", db], { input: "" });
    assert.deepEqual([add.code, add.stderr], [1, refusal]);
    assert.equal((await runCli(["user", "add", "zed", "--db", db, "--password", "first"])).code, 0);
    const passwd = await runCli(["user", "passwd", "zed", "--db", db], { input: "\n" });
    assert.deepEqual([passwd.code, passwd.stderr], [1, refusal]);
    assert.match((await runCli(["user", "list", "--db", db])).stdout, /^\d+ +zed +User /m);
  });

  test("an empty password typed at a terminal is refused too", async () => {
    const terminal = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
    const io = {
      stdin: terminal,
      stdout: new PassThrough(),
      stderr: new Writable({ write: (_c, _e, done) => done() }),
      env: {},
    };
    const reading = readSecret("password: ", io);
    terminal.write("\r");
    await assert.rejects(reading, {
      message: "the password is empty, and an empty password is never accepted; nothing was sent or changed",
    });
  });

  test("a port out of range is one line naming the flag and the variable, before any database is opened", async () => {
    const db = join(dir, "ports", "feedgate.db");
    for (const [args, env, line] of [
      [
        ["--port", "70000"],
        {},
        'feedgate: --port (or PORT) must be a port from 0 to 65535 (0: any free port), got "70000"',
      ],
      [
        [],
        { PORT: "65536" },
        'feedgate: --port (or PORT) must be a port from 0 to 65535 (0: any free port), got "65536"',
      ],
      [
        ["--port", "0", "--metrics-port", "99999"],
        {},
        'feedgate: --metrics-port (or FEEDGATE_METRICS_PORT) must be a port from 0 to 65535 (0: any free port), got "99999"',
      ],
    ] as const) {
      const result = await runCli(["serve", ...args, "--db", db], { env });
      assert.deepEqual([result.code, lines(result.stderr)], [1, [line]], `${args.join(" ")} ${JSON.stringify(env)}`);
    }
    assert.ok(!existsSync(join(dir, "ports")));
  });

  test("a truncated or corrupt .gz import is one line naming the file and what is wrong with it, not an unexpected error", async () => {
    const events = Array.from({ length: 3000 }, (_, i) =>
      JSON.stringify({
        id: String(80_000 + i),
        type: "PushEvent",
        actor: { login: "cut" },
        repo: { name: "cut/short" },
        created_at: "2021-07-21T10:00:00Z",
      }),
    );
    const whole = gzipSync(events.join("\n"));
    const cut = join(dir, "2021-07-21-15.json.gz");
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    const corrupt = join(dir, "2021-07-21-16.json.gz");
    writeFileSync(corrupt, Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.from("not deflate data at all")]));
    const again = "download it again and import it again (events already imported are skipped)";
    for (const [args, input, line] of [
      [
        ["import", cut],
        undefined,
        `feedgate: ${cut} is truncated: its gzip data stops short (unexpected end of file); ${again}`,
      ],
      [
        ["import", "--strict", cut],
        undefined,
        `feedgate: ${cut} is truncated: its gzip data stops short (unexpected end of file); ${again}`,
      ],
      [
        ["import", "-"],
        whole.subarray(0, 100),
        `feedgate: standard input is truncated: its gzip data stops short (unexpected end of file); ${again}`,
      ],
      [
        ["import", corrupt],
        undefined,
        `feedgate: ${corrupt} is corrupt: not valid gzip data (unknown compression method); ${again}`,
      ],
      [
        ["replay", "--speed", "max", cut],
        undefined,
        `feedgate: ${cut} is truncated: its gzip data stops short (unexpected end of file); ${again}`,
      ],
    ] as const) {
      const result = await runCli([...args, "--db", join(dir, "gz.db")], { input });
      assert.equal(result.code, 1, args.join(" "));
      assert.equal(lines(result.stderr).at(-1), line, result.stderr);
      assert.ok(!result.stderr.includes("--verbose"), result.stderr);
    }
  });
});
