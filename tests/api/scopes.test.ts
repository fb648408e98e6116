import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { expand, isScopeName, normalize, satisfies, SCOPE_NAMES, unknownScopes } from "../../src/api/scopes.js";

describe("normalize", () => {
  const cases: [string[], string[], string][] = [
    [["user", "gist", "user:email"], ["user", "gist"], "the wire notes' example: implied scopes are dropped"],
    [[], [], "no scopes stay none"],
    [["gist", "gist"], ["gist"], "duplicates are dropped"],
    [["user:email", "user"], ["user"], "an implied scope before its parent is dropped too"],
    [["read:org", "admin:org"], ["admin:org"], "admin:org implies read:org through write:org"],
    [
      ["read:repo_hook", "write:repo_hook", "admin:repo_hook"],
      ["admin:repo_hook"],
      "a whole chain collapses to its top",
    ],
    [["read:gpg_key", "write:public_key"], ["read:gpg_key", "write:public_key"], "unrelated scopes keep their order"],
    [["public_repo", "repo:status", "repo", "security_events"], ["repo"], "repo implies its sub-scopes"],
    [["read:discussion", "write:discussion", "gist"], ["write:discussion", "gist"], "the rest keep their order"],
    [["admin:org_hook", "admin:org"], ["admin:org_hook", "admin:org"], "admin:org does not imply admin:org_hook"],
    [["delete_repo", "repo"], ["delete_repo", "repo"], "repo does not imply delete_repo"],
  ];
  for (const [input, expected, why] of cases) {
    test(`${input.join(",") || "(none)"} -> ${expected.join(",") || "(none)"}: ${why}`, () => {
      assert.deepEqual(normalize(input), expected);
    });
  }

  test("is idempotent over every known scope", () => {
    const once = normalize(SCOPE_NAMES);
    assert.deepEqual(normalize(once), once);
  });
});

describe("expand", () => {
  test("grants a scope itself and its descendants, transitively", () => {
    assert.deepEqual([...expand("admin:org")].sort(), ["admin:org", "read:org", "write:org"]);
    assert.deepEqual([...expand("gist")], ["gist"]);
  });
});

describe("unknownScopes", () => {
  test("lists names that are not scopes, in order given, without repeats", () => {
    assert.deepEqual(unknownScopes(["repo", "bogus", "admin:everything", "bogus", "user"]), [
      "bogus",
      "admin:everything",
    ]);
  });

  test("is empty for known scopes and for none", () => {
    assert.deepEqual(unknownScopes([...SCOPE_NAMES]), []);
    assert.deepEqual(unknownScopes([]), []);
  });

  test("is case-sensitive and does not trim, as GitHub's names are exact", () => {
    assert.deepEqual(unknownScopes(["Repo", " repo", "repo "]), ["Repo", " repo", "repo "]);
    assert.equal(isScopeName("repo"), true);
    assert.equal(isScopeName("REPO"), false);
  });
});

describe("satisfies", () => {
  const cases: [string[], string[], boolean, string][] = [
    [[], [], true, "an operation that accepts no scope needs none"],
    [["gist"], [], true, "any token may call an operation that needs no scope"],
    [[], ["repo"], false, "a token with no scopes cannot act where a scope is needed"],
    [["repo"], ["repo"], true, "the exact scope"],
    [["admin:org"], ["read:org"], true, "a parent scope, transitively"],
    [["read:org"], ["admin:org"], false, "a child never grants its parent"],
    [["user"], ["user:email"], true, "user grants user:email"],
    [["gist", "notifications"], ["repo", "notifications"], true, "any one accepted scope is enough"],
    [["public_repo"], ["repo"], false, "public_repo does not grant repo"],
    [["gist"], ["repo", "user"], false, "none of the accepted scopes"],
  ];
  for (const [granted, accepted, expected, why] of cases) {
    test(`[${granted}] for [${accepted}] is ${expected}: ${why}`, () => {
      assert.equal(satisfies(granted, accepted), expected);
    });
  }
});
