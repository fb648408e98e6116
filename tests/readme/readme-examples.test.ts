/** How the README runner reads blocks and compares output (tests/helpers/readme-examples.ts). */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { matchesExpected, readmeBlocks } from "../helpers/readme-examples.js";

describe("README examples", () => {
  test("sh lines are commands; comments and blanks are not; continuations and here-documents stay whole", () => {
    const [block] = readmeBlocks(
      [
        "```sh",
        "# a comment",
        "echo one   # trailing comment",
        "",
        "echo two \\",
        "  three",
        "cat > f <<'EOF'",
        "line",
        "EOF",
        "```",
      ].join("\n"),
    );
    assert.deepEqual(
      block!.commands.map((command) => [command.text, command.line]),
      [
        ["echo one   # trailing comment", 3],
        ["echo two \\\n  three", 5],
        ["cat > f <<'EOF'\nline\nEOF", 7],
      ],
    );
    assert.equal(block!.commands[0]!.expected, null);
  });

  test("console blocks: `$ ` lines are commands, the lines under each are its output", () => {
    const [block] = readmeBlocks(["```console", "$ echo a", "a", "$ true", "```"].join("\n"));
    assert.deepEqual(
      block!.commands.map((command) => [command.text, command.expected]),
      [
        ["echo a", ["a"]],
        ["true", []],
      ],
    );
  });

  test("markers: skip needs a reason; setup, printed and file are read; other languages are not commands", () => {
    const blocks = readmeBlocks(
      [
        "<!-- readme-test: skip: needs a host -->",
        "```sh",
        "ssh far",
        "```",
        "<!-- readme-test: setup -->",
        "",
        "```sh",
        "npm start",
        "```",
        "<!-- readme-test: file a.mjs -->",
        "```js",
        "console.log(1)",
        "```",
        "```json",
        "{}",
        "```",
      ].join("\n"),
    );
    assert.deepEqual(
      blocks.map((block) => block.marker),
      [{ kind: "skip", reason: "needs a host" }, { kind: "setup" }, { kind: "file", name: "a.mjs" }, { kind: "run" }],
    );
    assert.deepEqual(
      blocks.map((block) => block.commands.length),
      [0, 0, 0, 0],
    );
    assert.throws(() => readmeBlocks("<!-- readme-test: skip -->\n```sh\nx\n```"), /says why/);
    assert.throws(() => readmeBlocks("```sh\necho <<EOF\n```"), /never ends|never closed/);
  });

  test("output: exact lines, … for any lines or any text in a line, trailing spaces and \\r ignored", () => {
    assert.ok(matchesExpected(["a", "b"], "a\r\nb  \n\n"));
    assert.ok(!matchesExpected(["a", "b"], "a\nb\nc\n"));
    assert.ok(matchesExpected(["a", "…", "z"], "a\nb\nc\nz\n"));
    assert.ok(matchesExpected(["a", "…", "z"], "a\nz\n"));
    assert.ok(matchesExpected(["id …, at …/3"], "id 7, at http://x/3\n"));
    assert.ok(!matchesExpected(["id …, at …/3"], "id 7, at http://x/4\n"));
    assert.ok(!matchesExpected(["a.c"], "abc\n"), "no regular expressions in the README");
    assert.ok(matchesExpected([], ""));
    assert.ok(!matchesExpected([], "something\n"));
  });
});
