/** GitHub's issue search syntax as parsed for `GET /search/issues` (src/server/services/search/issue-query.ts). */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseIssueQuery, QueryRefused } from "../../src/server/services/search/issue-query.js";

describe("issue search queries", () => {
  test("reads qualifiers, quoted values and phrases, and leaves words GitHub does not know as text", () => {
    const q = parseIssueQuery(
      'repo:octo/hello is:open label:"help wanted" label:bug,p1 author:hubot "two words" crash foo:bar',
    );
    assert.deepEqual(q.repos, [{ owner: "octo", name: "hello" }]);
    assert.equal(q.state, "open");
    assert.deepEqual(q.labels, ["help wanted", "bug", "p1"]);
    assert.equal(q.author, "hubot");
    assert.deepEqual(q.words, ["two words", "crash", "foo:bar"]);
    assert.deepEqual(q.in, ["title", "body"]);
  });

  test("dates: a day is the whole UTC day; > and < exclude it; a range includes both ends", () => {
    const [after] = parseIssueQuery("created:>2026-01-02").times;
    assert.deepEqual(after!.from, { at: new Date("2026-01-02T23:59:59.999Z"), inclusive: false });
    const [range] = parseIssueQuery("updated:2026-01-01..2026-01-03").times;
    assert.deepEqual(range!.from!.at, new Date("2026-01-01T00:00:00Z"));
    assert.deepEqual(range!.to!.at, new Date("2026-01-03T23:59:59.999Z"));
    const [open] = parseIssueQuery("closed:2026-01-01..*").times;
    assert.equal(open!.to, undefined);
  });

  test("refuses by name what GitHub knows and feedgate does not serve", () => {
    for (const q of [
      "commenter:x",
      "-label:bug",
      "is:merged",
      "no:project",
      "in:readme",
      "state:merged",
      "created:>soon",
    ])
      assert.throws(() => parseIssueQuery(q), QueryRefused, q);
  });

  test("any text parses or is refused with QueryRefused, never another error", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (q) => {
        try {
          const parsed = parseIssueQuery(q);
          assert.ok(parsed.in.length > 0);
        } catch (error) {
          assert.ok(error instanceof QueryRefused, String(error));
        }
      }),
      { numRuns: 500 },
    );
  });
});
