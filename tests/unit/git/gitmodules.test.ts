/**
 * `.gitmodules` read as git reads it (`git config --file .gitmodules` is the judge), submodule URLs relative to the
 * superproject resolved as git resolves them, and the repository a URL of any of git's forms names on a host.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseGitmodules, repositoryOnHost, resolveSubmoduleUrl } from "../../../src/server/git/gitmodules.js";
import { gitSkip, lazyRepository } from "../../helpers/real-git.js";

const GITMODULES = [
  "# a comment",
  '[submodule "lib"]',
  "\tpath = vendor/lib",
  '\turl = "https://example.com/o/lib.git" ; trailing comment',
  "[core]",
  "\tpath = not/a/submodule",
  '[submodule "with \\"quote\\""]',
  "  PATH=deps/q",
  "  URL = git@example.com:o/q.git",
  '[submodule "no-url"]',
  "\tpath = deps/none",
  "",
].join("\n");

describe(".gitmodules and submodule URLs", () => {
  const git = lazyRepository();
  after(() => git.remove());

  test("sections, keys in any case, quoted values and comments are read as git config reads them", {
    skip: gitSkip,
  }, () => {
    const repository = git.get();
    writeFileSync(join(repository.dir, "modules"), GITMODULES);
    // `--null`: each key, a newline, its value, a NUL (a subsection's name may hold spaces).
    const config = repository.run(["config", "--null", "--file", "modules", "--get-regexp", "^submodule\\."]);
    const pairs = config
      .toString("utf8")
      .split("\0")
      .filter((entry) => entry !== "");
    const theirs = new Map(
      pairs.map((entry) => [entry.slice(0, entry.indexOf("\n")), entry.slice(entry.indexOf("\n") + 1)]),
    );
    const ours = parseGitmodules(GITMODULES);
    assert.deepEqual(
      ours.map((s) => s.name),
      ["lib", 'with "quote"'],
    );
    for (const s of ours) {
      assert.equal(s.path, theirs.get(`submodule.${s.name}.path`));
      assert.equal(s.url, theirs.get(`submodule.${s.name}.url`));
    }
  });

  test("a relative URL is resolved from the superproject's clone URL; any other stays as written", () => {
    const superproject = "https://host.example/alice/hello.git";
    assert.equal(resolveSubmoduleUrl("../lib.git", superproject), "https://host.example/alice/lib.git");
    assert.equal(resolveSubmoduleUrl("../../bob/lib", superproject), "https://host.example/bob/lib");
    assert.equal(resolveSubmoduleUrl("./sub.git", superproject), "https://host.example/alice/hello.git/sub.git");
    assert.equal(resolveSubmoduleUrl("git@x:o/r.git", superproject), "git@x:o/r.git");
  });

  test("the repository a URL names on a host, in each of git's URL forms; none on another host", () => {
    for (const url of [
      "https://host.example/o/r.git",
      "http://host.example:8080/o/r",
      "git://host.example/o/r.git/",
      "ssh://git@host.example/o/r.git",
      "git@host.example:o/r.git",
      "host.example:o/r",
    ])
      assert.equal(repositoryOnHost(url, "host.example"), "o/r", url);
    for (const url of ["https://other.example/o/r.git", "git@other.example:o/r", "https://host.example/o", "::"])
      assert.equal(repositoryOnHost(url, "host.example"), null, url);
  });
});
