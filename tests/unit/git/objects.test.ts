/**
 * Git's objects byte for byte: every kind's SHA-1 is checked against git itself, on the same bytes and on objects
 * git made from the same fields (`mktree`, `commit-tree`, `mktag`), and every body reads back as it was written.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  type CommitFields,
  decodeCommit,
  decodeTag,
  decodeTree,
  EMPTY_TREE_SHA,
  encodeCommit,
  encodeTag,
  encodeTree,
  formatApiDate,
  GitInputError,
  GitObjectError,
  type GitObjectType,
  type GitPerson,
  hashObject,
  isSha,
  parseApiDate,
  pathSegments,
  sortTreeEntries,
  type TagFields,
  type TreeEntry,
} from "../../../src/server/git/objects.js";
import { gitSkip, lazyRepository } from "../../helpers/real-git.js";
import { message, person, sha, treeEntries } from "./arbitraries.js";

const repository = lazyRepository();
after(() => repository.remove());

const inputKind = (kind: string) => (error: unknown) => error instanceof GitInputError && error.kind === kind;

const BLOB_A = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";
const BLOB_B = "ce013625030ba8dba906f756967f9e9ca394464a";

const alice: GitPerson = {
  name: "Alice Liddell",
  email: "alice@example.com",
  date: new Date("2008-07-09T04:13:30Z"),
  offsetMinutes: 720,
};

/** The environment that makes `git commit-tree` write `author` and `committer` as `person`. */
const identity = (role: "AUTHOR" | "COMMITTER", who: GitPerson): Record<string, string> => {
  const sign = who.offsetMinutes < 0 ? "-" : "+";
  const magnitude = Math.abs(who.offsetMinutes);
  const zone = `${sign}${String(Math.floor(magnitude / 60)).padStart(2, "0")}${String(magnitude % 60).padStart(2, "0")}`;
  return {
    [`GIT_${role}_NAME`]: who.name,
    [`GIT_${role}_EMAIL`]: who.email,
    [`GIT_${role}_DATE`]: `${Math.floor(who.date.getTime() / 1000)} ${zone}`,
  };
};

describe("object ids", () => {
  test("an empty blob and an empty tree have the ids every git knows", () => {
    assert.equal(hashObject("blob", Buffer.alloc(0)), BLOB_A);
    assert.equal(hashObject("tree", encodeTree([])), EMPTY_TREE_SHA);
  });

  test("a blob of any bytes has the id git hash-object gives it", { skip: gitSkip }, () => {
    const bodies = [
      Buffer.alloc(0),
      Buffer.from("hello\n"),
      Buffer.from([0, 255, 10, 13, 0, 0x80]),
      Buffer.from("é😀\r\n".repeat(10_000)),
    ];
    for (const body of bodies) assert.equal(hashObject("blob", body), repository.get().hash("blob", body));
  });

  test("SHA_PATTERN takes git's 40 lowercase hexadecimal digits only", () => {
    assert.equal(isSha(BLOB_A), true);
    assert.equal(isSha(BLOB_A.toUpperCase()), false, "GitHub answers shas in lowercase");
    assert.equal(isSha(BLOB_A.slice(1)), false);
    assert.equal(isSha(`${BLOB_A}0`), false);
    assert.equal(isSha(`${BLOB_A.slice(1)}g`), false);
  });
});

describe("tree objects", () => {
  test("sorts entries as git does, a directory as if its name ended in /", () => {
    const entries: TreeEntry[] = [
      { mode: "100644", name: "a0", sha: BLOB_A },
      { mode: "040000", name: "a", sha: EMPTY_TREE_SHA },
      { mode: "100644", name: "a.c", sha: BLOB_A },
      { mode: "100644", name: "a-b", sha: BLOB_A },
      { mode: "100644", name: "b-c", sha: BLOB_A },
      { mode: "100644", name: "b", sha: BLOB_B },
    ];
    // "-" (0x2d) and "." (0x2e) sort before "/" (0x2f), "0" (0x30) after; a file "b" sorts before "b-c".
    assert.deepEqual(
      decodeTree(encodeTree(entries)).map((entry) => entry.name),
      ["a-b", "a.c", "a", "a0", "b", "b-c"],
    );
  });

  test("writes a directory's mode as 40000 inside the object and answers it as the API's 040000", () => {
    const body = encodeTree([{ mode: "040000", name: "src", sha: EMPTY_TREE_SHA }]);
    assert.equal(body.subarray(0, 10).toString("latin1"), "40000 src\0");
    assert.equal(body.length, 10 + 20);
    assert.deepEqual(decodeTree(body), [{ mode: "040000", name: "src", sha: EMPTY_TREE_SHA }]);
  });

  test("a tree of every mode has the id git mktree gives the same entries, and reads as git ls-tree", {
    skip: gitSkip,
  }, () => {
    const entries: TreeEntry[] = [
      { mode: "100644", name: "README.md", sha: BLOB_B },
      { mode: "100755", name: "run.sh", sha: BLOB_A },
      { mode: "040000", name: "docs", sha: EMPTY_TREE_SHA },
      { mode: "120000", name: "latest", sha: BLOB_B },
      { mode: "160000", name: "vendor lib", sha: "7d1b31e74ee336d15cbd21741bc88a537ed063a0" },
      { mode: "100644", name: "é😀\ttab", sha: BLOB_A },
    ];
    const body = encodeTree(entries);
    const git = repository.get();
    const [made] = git.mktree([entries]);
    assert.equal(hashObject("tree", body), made);
    assert.equal(git.write("tree", body), made);
    assert.deepEqual(decodeTree(body), git.lsTree(made!));
  });

  test("the empty tree is git's", { skip: gitSkip }, () => {
    assert.equal(repository.get().text(["mktree"]), EMPTY_TREE_SHA);
    assert.deepEqual(decodeTree(Buffer.alloc(0)), []);
  });

  test("any tree has the id git mktree gives its entries", { skip: gitSkip }, () => {
    fc.assert(
      fc.property(
        fc.array(
          treeEntries.filter((entries) => entries.length > 0),
          { minLength: 1, maxLength: 20 },
        ),
        (trees) => {
          const made = repository.get().mktree(trees);
          assert.deepEqual(
            trees.map((entries) => hashObject("tree", encodeTree(entries))),
            made,
          );
        },
      ),
      { numRuns: 25 },
    );
  });

  test("any tree reads back as its entries in git's order", () => {
    fc.assert(
      fc.property(treeEntries, (entries) => {
        assert.deepEqual(decodeTree(encodeTree(entries)), sortTreeEntries(entries));
      }),
    );
  });

  test("refuses two entries of one name, even a file and a directory", () => {
    assert.throws(
      () =>
        encodeTree([
          { mode: "100644", name: "a", sha: BLOB_A },
          { mode: "040000", name: "a", sha: EMPTY_TREE_SHA },
        ]),
      inputKind("duplicate-path"),
    );
  });

  test("refuses names git would not check out", () => {
    for (const name of ["", ".", "..", ".git", ".GIT", ".Git", "a/b", "a\0b"])
      assert.throws(() => encodeTree([{ mode: "100644", name, sha: BLOB_A }]), inputKind("invalid-path"), name);
  });

  test("refuses a mode or a sha git does not write", () => {
    // Input from outside the types, as a request body or a pushed tree may bring.
    const legacy = { mode: "100664", name: "a", sha: BLOB_A } as unknown as TreeEntry;
    assert.throws(() => encodeTree([legacy]), inputKind("invalid-mode"));
    assert.throws(
      () => encodeTree([{ mode: "100644", name: "a", sha: BLOB_A.toUpperCase() }]),
      inputKind("invalid-sha"),
    );
  });

  test("refuses to read a tree git would not have written", () => {
    const entry = (mode: string, name = "a") =>
      Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(BLOB_A, "hex")]);
    const damaged = [
      entry("100644").subarray(0, 20),
      Buffer.from("100644 a"),
      entry("040000"),
      entry("100664"),
      entry("100644", ""),
      Buffer.concat([Buffer.from("100644 \xff\0", "latin1"), Buffer.from(BLOB_A, "hex")]),
    ];
    for (const body of damaged) assert.throws(() => decodeTree(body), GitObjectError, body.toString("latin1"));
  });
});

describe("commit objects", () => {
  const root: CommitFields = {
    tree: EMPTY_TREE_SHA,
    parents: [],
    author: alice,
    committer: { name: "Bob", email: "bob@example.com", date: new Date("2014-11-07T22:01:45Z"), offsetMinutes: -330 },
    message: "Add the first file\n\nWith a body.\n",
  };

  test("writes the commit git commit-tree makes of the same fields", { skip: gitSkip }, () => {
    const git = repository.get();
    git.text(["mktree"]);
    const env = { ...identity("AUTHOR", root.author), ...identity("COMMITTER", root.committer) };
    const made = git.text(["commit-tree", EMPTY_TREE_SHA, "-F", "-"], root.message, env);
    const body = encodeCommit(root);
    assert.equal(hashObject("commit", body), made);
    assert.deepEqual(git.run(["cat-file", "commit", made]), body);

    const other = git.text(["commit-tree", EMPTY_TREE_SHA, "-F", "-"], "Another root\n", env);
    const merge: CommitFields = { ...root, parents: [made, other], message: "Merge" };
    const merged = git.text(["commit-tree", EMPTY_TREE_SHA, "-p", made, "-p", other, "-F", "-"], merge.message, env);
    assert.equal(hashObject("commit", encodeCommit(merge)), merged);
  });

  test("keeps a message as given, adding no newline, as git's plumbing and GitHub's create-a-commit do", {
    skip: gitSkip,
  }, () => {
    const fields: CommitFields = { ...root, message: "my commit message" };
    const body = encodeCommit(fields);
    assert.equal(body.toString().endsWith("\n\nmy commit message"), true);
    const env = { ...identity("AUTHOR", root.author), ...identity("COMMITTER", root.committer) };
    const made = repository.get().text(["commit-tree", EMPTY_TREE_SHA, "-F", "-"], fields.message, env);
    assert.equal(hashObject("commit", body), made);
  });

  test("writes GitHub's date input as git does: the instant and the offset the date was written in", {
    skip: gitSkip,
  }, () => {
    const parsed = parseApiDate("2008-07-09T16:13:30+12:00");
    assert.ok(parsed);
    const author: GitPerson = { name: "Scott Chacon", email: "schacon@gmail.com", ...parsed };
    const fields: CommitFields = { ...root, author, committer: author, message: "my commit message" };
    assert.match(encodeCommit(fields).toString(), /\nauthor Scott Chacon <schacon@gmail.com> 1215576810 \+1200\n/);
    const env = {
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_AUTHOR_DATE: "2008-07-09T16:13:30+12:00",
      GIT_COMMITTER_NAME: author.name,
      GIT_COMMITTER_EMAIL: author.email,
      GIT_COMMITTER_DATE: "2008-07-09T16:13:30+12:00",
    };
    const made = repository.get().text(["commit-tree", EMPTY_TREE_SHA, "-F", "-"], fields.message, env);
    assert.equal(hashObject("commit", encodeCommit(fields)), made);
  });

  test("a signed commit's gpgsig header, blank line and all, is a header to git and reads back", {
    skip: gitSkip,
  }, () => {
    const signature = "-----BEGIN PGP SIGNATURE-----\n\niQEzBAABCAAdFiEE\n=abcd\n-----END PGP SIGNATURE-----";
    const fields: CommitFields = { ...root, headers: [{ name: "gpgsig", value: signature }] };
    const body = encodeCommit(fields);
    assert.match(body.toString(), /\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n/);
    const git = repository.get();
    git.text(["mktree"]);
    const stored = git.write("commit", body);
    assert.equal(stored, hashObject("commit", body));
    // Git finds the message after the headers: the signature's blank line did not end them.
    assert.equal(git.run(["show", "-s", "--pretty=format:%B", stored]).toString(), fields.message);
    assert.deepEqual(decodeCommit(body), fields);
  });

  test("an unknown time zone, git's -0000, reads back as written", () => {
    const fields: CommitFields = { ...root, author: { ...alice, offsetMinutes: -0 } };
    assert.match(encodeCommit(fields).toString(), / -0000\n/);
    assert.equal(Object.is(decodeCommit(encodeCommit(fields)).author.offsetMinutes, -0), true);
  });

  test("any commit reads back as its fields", () => {
    const header = fc.record(
      {
        name: fc.constantFrom("gpgsig", "encoding", "mergetag", "x-custom"),
        value: message.filter((t) => !t.includes("\0")),
      },
      { noNullPrototype: true },
    );
    const commit = fc.record(
      {
        tree: sha,
        parents: fc.array(sha, { maxLength: 3 }),
        author: person,
        committer: person,
        message,
        headers: fc.option(fc.array(header, { minLength: 1, maxLength: 3 }), { nil: undefined }),
      },
      { noNullPrototype: true },
    );
    fc.assert(
      fc.property(commit, (fields) => {
        const expected: CommitFields = { ...fields };
        if (expected.headers === undefined) delete expected.headers;
        assert.deepEqual(decodeCommit(encodeCommit(expected)), expected);
      }),
    );
  });

  test("git reads any commit's tree, parents and people as they were written", { skip: gitSkip }, () => {
    const git = repository.get();
    git.text(["mktree"]);
    const env = { ...identity("AUTHOR", alice), ...identity("COMMITTER", alice) };
    const first = git.text(["commit-tree", EMPTY_TREE_SHA, "-m", "first"], "", env);
    const second = git.text(["commit-tree", EMPTY_TREE_SHA, "-p", first, "-m", "second"], "", env);
    const format = "%T%x00%P%x00%an%x00%ae%x00%ad%x00%cn%x00%ce%x00%cd%x00%B";
    const zone = (minutes: number) =>
      `${minutes < 0 ? "-" : "+"}${String(Math.floor(Math.abs(minutes) / 60)).padStart(2, "0")}${String(Math.abs(minutes) % 60).padStart(2, "0")}`;
    const raw = (who: GitPerson) => `${who.date.getTime() / 1000} ${zone(who.offsetMinutes)}`;
    fc.assert(
      fc.property(
        fc.subarray([first, second]),
        person,
        person,
        message.filter((text) => !text.includes("\0")),
        (parents, author, committer, text) => {
          const fields: CommitFields = { tree: EMPTY_TREE_SHA, parents, author, committer, message: text };
          const stored = git.write("commit", encodeCommit(fields));
          const shown = git
            .run(["show", "-s", "--date=raw", `--pretty=format:${format}`, stored])
            .toString()
            .split("\0");
          assert.deepEqual(shown, [
            EMPTY_TREE_SHA,
            parents.join(" "),
            author.name,
            author.email,
            raw(author),
            committer.name,
            committer.email,
            raw(committer),
            text,
          ]);
        },
      ),
      { numRuns: 40 },
    );
  });

  test("refuses people git could not write or read back", () => {
    const refused: GitPerson[] = [
      { ...alice, name: "Eve <eve@example.com>" },
      { ...alice, email: "a>b" },
      { ...alice, name: "two\nlines" },
      { ...alice, date: new Date("1969-12-31T23:59:59Z") },
      { ...alice, date: new Date(Number.NaN) },
      { ...alice, offsetMinutes: 1.5 },
      { ...alice, offsetMinutes: 100 * 60 },
    ];
    for (const author of refused)
      assert.throws(() => encodeCommit({ ...root, author }), inputKind("invalid-person"), JSON.stringify(author));
  });

  test("refuses shas and headers git would not write", () => {
    assert.throws(() => encodeCommit({ ...root, tree: "abc" }), inputKind("invalid-sha"));
    assert.throws(() => encodeCommit({ ...root, parents: [BLOB_A.toUpperCase()] }), inputKind("invalid-sha"));
    for (const name of ["parent", "tree", "Gpgsig", "two words", ""])
      assert.throws(
        () => encodeCommit({ ...root, headers: [{ name, value: "x" }] }),
        inputKind("invalid-header"),
        name,
      );
    assert.throws(
      () => encodeCommit({ ...root, headers: [{ name: "x", value: "a\0b" }] }),
      inputKind("invalid-header"),
    );
  });

  test("refuses to read a commit git would not have written", () => {
    const person = "A <a@b> 1 +0000";
    const damaged = [
      `tree ${EMPTY_TREE_SHA}\nauthor ${person}\ncommitter ${person}\nno blank line`,
      `tree ${EMPTY_TREE_SHA}\nauthor ${person}\n\nno committer`,
      `author ${person}\ncommitter ${person}\n\nno tree`,
      `tree ${EMPTY_TREE_SHA}\nauthor A <a@b> yesterday +0000\ncommitter ${person}\n\nbad date`,
      `tree ${EMPTY_TREE_SHA}\nauthor ${person}\ncommitter ${person}\ntree ${EMPTY_TREE_SHA}\n\ntwo trees`,
      `tree abc\nauthor ${person}\ncommitter ${person}\n\nshort sha`,
    ];
    for (const text of damaged) assert.throws(() => decodeCommit(Buffer.from(text)), GitObjectError, text);
    assert.throws(() => decodeCommit(Buffer.from([0xff, 0xfe])), GitObjectError);
  });
});

describe("GitHub's dates", () => {
  test("reads ISO 8601 with an offset or Z as the instant and the offset git keeps", () => {
    assert.deepEqual(parseApiDate("2008-07-09T16:13:30+12:00"), {
      date: new Date("2008-07-09T04:13:30Z"),
      offsetMinutes: 720,
    });
    assert.deepEqual(parseApiDate("2014-11-07T22:01:45Z"), {
      date: new Date("2014-11-07T22:01:45Z"),
      offsetMinutes: 0,
    });
    assert.deepEqual(parseApiDate("2014-11-07T22:01:45-05:30"), {
      date: new Date("2014-11-08T03:31:45Z"),
      offsetMinutes: -330,
    });
    assert.deepEqual(parseApiDate("2014-11-07T22:01:45-00:00"), {
      date: new Date("2014-11-07T22:01:45Z"),
      offsetMinutes: 0,
    });
    assert.deepEqual(parseApiDate("2014-11-07T22:01:45.999+0100"), {
      date: new Date("2014-11-07T21:01:45Z"),
      offsetMinutes: 60,
    });
  });

  test("refuses what is not such a date", () => {
    for (const input of [
      "2008-02-30T00:00:00Z",
      "2008-07-09 16:13:30Z",
      "2008-07-09T16:13:30",
      "2008-07-09T24:00:00Z",
      "2008-07-09T16:13:30+24:00",
      "2008-07-09",
      "yesterday",
      "",
    ])
      assert.equal(parseApiDate(input), null, input);
  });

  test("answers a person's date in UTC, as GitHub's git-data API does", () => {
    assert.equal(formatApiDate(alice), "2008-07-09T04:13:30Z");
    assert.equal(formatApiDate({ date: new Date("2014-11-07T22:01:45.250Z") }), "2014-11-07T22:01:45Z");
  });
});

describe("tag objects", () => {
  const tag = (object: string): TagFields => ({
    object,
    type: "commit",
    tag: "v0.0.1",
    tagger: alice,
    message: "initial version\n",
  });

  test("writes a tag git mktag takes, under its strict fsck, with the same id", { skip: gitSkip }, () => {
    const git = repository.get();
    git.text(["mktree"]);
    const env = { ...identity("AUTHOR", alice), ...identity("COMMITTER", alice) };
    const commit = git.text(["commit-tree", EMPTY_TREE_SHA, "-m", "tagged"], "", env);
    for (const fields of [tag(commit), { ...tag(EMPTY_TREE_SHA), type: "tree" as const, message: "no newline" }]) {
      const body = encodeTag(fields);
      assert.equal(git.text(["mktag"], body), hashObject("tag", body));
      assert.deepEqual(decodeTag(body), fields);
    }
  });

  test("a tag with no tagger, as the earliest tags are, has git's id and reads back", { skip: gitSkip }, () => {
    const fields: TagFields = { ...tag(BLOB_B), type: "blob", tagger: null };
    const body = encodeTag(fields);
    assert.equal(body.toString(), `object ${BLOB_B}\ntype blob\ntag v0.0.1\n\ninitial version\n`);
    assert.equal(hashObject("tag", body), repository.get().hash("tag", body));
    assert.deepEqual(decodeTag(body), fields);
  });

  test("any tag reads back as its fields", () => {
    const fields = fc.record(
      {
        object: sha,
        type: fc.constantFrom<GitObjectType>("blob", "tree", "commit", "tag"),
        tag: fc.string({ minLength: 1 }).filter((name) => !/[\n\0]/.test(name)),
        tagger: fc.option(person, { nil: null }),
        message,
      },
      { noNullPrototype: true },
    );
    fc.assert(fc.property(fields, (tagFields) => assert.deepEqual(decodeTag(encodeTag(tagFields)), tagFields)));
  });

  test("refuses a tag git would not write", () => {
    assert.throws(() => encodeTag({ ...tag(BLOB_A), tag: "" }), inputKind("invalid-tag-name"));
    assert.throws(() => encodeTag({ ...tag(BLOB_A), tag: "v1\nv2" }), inputKind("invalid-tag-name"));
    assert.throws(() => encodeTag({ ...tag("HEAD") }), inputKind("invalid-sha"));
    const damaged = [
      `object ${BLOB_A}\ntype blob\ntag v1\ntagger A <a@b> 1 +0000\nextra header\n\nmessage`,
      `object ${BLOB_A}\ntype file\ntag v1\n\nmessage`,
      `type blob\ntag v1\n\nmessage`,
    ];
    for (const text of damaged) assert.throws(() => decodeTag(Buffer.from(text)), GitObjectError, text);
  });
});

describe("repository paths", () => {
  test("splits a path into the names git stores", () => {
    assert.deepEqual(pathSegments("src/server/app.ts"), ["src", "server", "app.ts"]);
    assert.deepEqual(pathSegments(".github/workflows/ci.yml"), [".github", "workflows", "ci.yml"]);
    assert.deepEqual(pathSegments(".gitignore"), [".gitignore"]);
    assert.deepEqual(pathSegments("..."), ["..."]);
    assert.deepEqual(pathSegments("a b/\\c"), ["a b", "\\c"]);
  });

  test("refuses paths git could not store or check out", () => {
    for (const path of [
      "",
      "/",
      "/a",
      "a/",
      "a//b",
      "./a",
      "a/./b",
      "a/../b",
      "..",
      ".git",
      ".git/config",
      "a/.GIT/b",
      "a\0b",
    ])
      assert.equal(pathSegments(path), null, JSON.stringify(path));
  });
});
