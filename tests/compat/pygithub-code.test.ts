/**
 * PyGithub 1.55 (Debian's python3-github), unmodified, writing and reading code against a live feedgate: files
 * created, updated (a stale `sha` is GitHub's 409), read back and deleted through the contents API; a branch made
 * through git data (tree, commit, ref); branches and the history read back; an archive's link, as get_archive_link
 * reads it from the redirect, and the archive behind it; a pull request opened, approved by another user and
 * squash-merged. The cases are
 * tests/compat/scripts/pygithub_code_cases.py.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { inRepository } from "../helpers/repository.js";
import { runCases, skipUnlessClient } from "./debian-clients.js";

const SCRIPT = inRepository("tests/compat/scripts/pygithub_code_cases.py");
const skip = skipUnlessClient("pygithub");

describe("PyGithub 1.55 writing and reading code", { skip }, () => {
  let t: ListeningApp;
  let result: Awaited<ReturnType<typeof runCases>>;

  before(async () => {
    t = await startListeningApp();
    result = await runCases("/usr/bin/python3", SCRIPT, t);
  });
  after(() => t.close());

  test("create_file, update_file and get_contents: a file, its commits, its directory", () => {
    const done = result("create-update-read");
    assert.equal(done.created, "docs/notes.md");
    assert.deepEqual(done.parents, [done.first_commit]);
    assert.equal(done.text, "first\nsecond\n");
    assert.deepEqual(done.listing, ["docs/notes.md"]);
  });

  test("update_file with a stale sha is GitHub's 409", () => {
    assert.deepEqual(result("stale-sha"), { status: 409, message: `docs/notes.md does not match ${"0".repeat(40)}` });
  });

  test("create_git_tree, create_git_commit and create_git_ref make a branch its contents read", () => {
    assert.deepEqual(result("branch-through-git-data"), {
      ref: "refs/heads/bump",
      branches: ["bump", "main"],
      on_branch: "2\n",
      commit_message: "Bump",
      files: ["VERSION"],
    });
  });

  test("delete_file and get_commits: the history newest first", () => {
    assert.deepEqual(result("history-and-delete"), {
      messages: ["Drop notes", "More notes", "Add notes"],
      readme_gone: [],
    });
  });

  test("get_archive_link answers the redirect's Location: feedgate's own codeload path, serving the archive", () => {
    assert.deepEqual(result("archive-link"), {
      tarball: "/_codeload/alice/hello/legacy.tar.gz/main",
      zipball: "/_codeload/alice/hello/legacy.zip/main",
      pax_comment: "52 comment=",
    });
  });

  test("create_pull, create_review (another user's approval) and merge (squash): one commit on main", () => {
    const done = result("pull-review-merge") as Record<string, unknown>;
    assert.deepEqual(done, {
      number: done.number,
      files: ["feature.txt"],
      review: ["APPROVED", "bob"],
      merged: [true, true, "closed"],
      main_is_merge: true,
      parents: 1,
      // GitHub's squash title is the pull request's title and number; the commit_message given is its body.
      message: `The feature (#${done.number})\n\nFeature, squashed`,
      reviews: ["APPROVED"],
      on_main: "on\n",
    });
    assert.equal(typeof done.number, "number");
  });
});
