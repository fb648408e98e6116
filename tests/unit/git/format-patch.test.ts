/**
 * A patch as `git format-patch --stdout --no-signature` writes it, byte for byte, where its diffstat must fit 72
 * columns: many lines changed (the graph scaled), a path longer than the columns (cut with `...`), a binary file
 * (`Bin OLD -> NEW bytes`), a file deleted, one only given another mode. Commits made by git itself.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { formatPatch } from "../../../src/server/git/format-patch.js";
import { decodeCommit, type GitMode } from "../../../src/server/git/objects.js";
import type { DiffFile } from "../../../src/server/git/unified-diff.js";
import { gitSkip, lazyRepository } from "../../helpers/real-git.js";

const lines = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word} ${i}\n`).join("");
const LONG = `${"deeply/nested/".repeat(6)}a-file-with-a-long-name.txt`;

describe("format-patch: the diffstat fitted as git fits it", () => {
  const git = lazyRepository();
  after(() => git.remove());

  test("a patch of many files, long and binary among them, is git's byte for byte", { skip: gitSkip }, () => {
    const repository = git.get();
    const before: [string, GitMode, Buffer][] = [
      ["big.txt", "100644", Buffer.from(lines(30, "old"))],
      ["bin.dat", "100644", Buffer.from([0, 1, 2])],
      ["gone.txt", "100644", Buffer.from("bye\n")],
      ["run.sh", "100644", Buffer.from("echo\n")],
    ];
    const afterFiles: [string, GitMode, Buffer][] = [
      ["big.txt", "100644", Buffer.from(lines(200, "new"))],
      ["bin.dat", "100644", Buffer.from([0, 1, 2, 3, 4])],
      [LONG, "100644", Buffer.from(lines(3, "x"))],
      ["run.sh", "100755", Buffer.from("echo\n")],
    ];
    /** A tree of flat or nested paths, through git's own update-index in a scratch index. */
    const treeOf = (files: [string, GitMode, Buffer][], name: string) => {
      const env = { GIT_INDEX_FILE: `${repository.dir}/index-${name}` };
      for (const [path, mode, body] of files) {
        const sha = repository.write("blob", body);
        repository.run(["update-index", "--add", "--cacheinfo", `${mode},${sha},${path}`], "", env);
      }
      return repository.text(["write-tree"], "", env);
    };
    const person = {
      GIT_AUTHOR_NAME: "A U Thor",
      GIT_AUTHOR_EMAIL: "author@example.com",
      GIT_AUTHOR_DATE: "2026-02-01T12:00:00+00:00",
      GIT_COMMITTER_NAME: "A U Thor",
      GIT_COMMITTER_EMAIL: "author@example.com",
      GIT_COMMITTER_DATE: "2026-02-01T12:00:00+00:00",
    };
    const base = repository.text(["commit-tree", treeOf(before, "before")], "Base", person);
    const sha = repository.text(
      ["commit-tree", treeOf(afterFiles, "after"), "-p", base],
      "Change a lot\n\nOf everything.",
      person,
    );
    const theirs = repository
      .run(["format-patch", "--stdout", "--no-signature", "--no-renames", "--no-binary", "-1", sha])
      .toString("utf8");
    const hash = (body: Buffer) => repository.hash("blob", body);
    const paths = [...new Set([...before, ...afterFiles].map(([path]) => path))].sort((a, b) =>
      Buffer.compare(Buffer.from(a), Buffer.from(b)),
    );
    const files: DiffFile[] = paths.map((path) => {
      const from = before.find(([p]) => p === path);
      const to = afterFiles.find(([p]) => p === path);
      return {
        path,
        ...(from ? { fromMode: from[1], fromSha: hash(from[2]) } : {}),
        ...(to ? { toMode: to[1], toSha: hash(to[2]) } : {}),
        before: from?.[2] ?? null,
        after: to?.[2] ?? null,
      };
    });
    const fields = decodeCommit(repository.run(["cat-file", "commit", sha]));
    const ours = formatPatch([{ sha, fields, files }]);
    assert.equal(ours, theirs);
    assert.match(ours, /^ \.\.\.\/deeply\/nested\/a-file-with-a-long-name\.txt \| +3 \+$/m);
    assert.match(ours, /^ bin\.dat +\| Bin 3 -> 5 bytes$/m);
  });
});
