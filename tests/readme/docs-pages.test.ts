/**
 * The documentation as a whole: README.md and docs/*.md link to files and headings that exist, every page's
 * examples are well marked, and every page with examples to run has the test file that runs them.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { REPOSITORY } from "../helpers/clone.js";
import { readmeBlocks } from "../helpers/readme-examples.js";
import { headingAnchors, relativeLinks } from "./markdown-links.js";

const PAGES = [
  "README.md",
  ...readdirSync(join(REPOSITORY, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
];

function read(page: string): string {
  return readFileSync(join(REPOSITORY, page), "utf8");
}

/** What is wrong with one relative link of `page`, or null when it points at a file (and heading) that exist. */
function brokenLink(page: string, target: string): string | null {
  const [path = "", anchor] = target.split("#", 2);
  const file = path === "" ? join(REPOSITORY, page) : resolve(dirname(join(REPOSITORY, page)), decodeURI(path));
  if (relative(REPOSITORY, file).startsWith("..")) return "points outside the repository";
  if (!existsSync(file)) return "no such file";
  if (anchor !== undefined && file.endsWith(".md") && !headingAnchors(readFileSync(file, "utf8")).has(anchor)) {
    return `no heading #${anchor} in ${relative(REPOSITORY, file)}`;
  }
  return null;
}

describe("the documentation's pages", () => {
  test("there is a page per topic, linked from the README", () => {
    assert.ok(PAGES.length > 10, PAGES.join(", "));
    const linked = new Set(relativeLinks(read("README.md")).map((link) => link.target.split("#")[0]));
    const unlinked = PAGES.filter((page) => page !== "README.md" && !linked.has(page));
    assert.deepEqual(unlinked, [], "pages the README's map does not link");
  });

  test("every relative link in README.md and docs/*.md points at a file, and a heading, that exist", () => {
    const broken = PAGES.flatMap((page) =>
      relativeLinks(read(page)).flatMap(({ target, line }) => {
        const problem = brokenLink(page, target);
        return problem ? [`${page} line ${line}: (${target}) ${problem}`] : [];
      }),
    );
    assert.deepEqual(broken, []);
  });

  test("every page with examples to run has a test file that runs it", () => {
    for (const page of PAGES.filter((name) => name !== "README.md")) {
      const blocks = readmeBlocks(read(page), page); // throws on a badly marked block
      const runs = blocks.some((block) => block.marker.kind === "file" || block.commands.length > 0);
      const testFile = join("tests/readme", `docs-${page.slice("docs/".length, -".md".length)}.test.ts`);
      if (!runs) continue;
      assert.ok(existsSync(join(REPOSITORY, testFile)), `${page} has examples to run, but no ${testFile}`);
      assert.match(
        readFileSync(join(REPOSITORY, testFile), "utf8"),
        new RegExp(`describeExamples\\("${page}"`),
        `${testFile} does not run ${page}`,
      );
    }
  });

  test("links: code is not a link, absolute URLs are not checked, anchors are GitHub's", () => {
    assert.deepEqual(
      relativeLinks(
        [
          "[a](docs/a.md) `[not](a link)` ![img](b.png) [web](https://example.com) [here](#x-y)",
          "```",
          "[in code](c.md)",
          "```",
          '[d](<d.md> "title")',
        ].join("\n"),
      ),
      [
        { target: "docs/a.md", line: 1 },
        { target: "b.png", line: 1 },
        { target: "#x-y", line: 1 },
        { target: "d.md", line: 5 },
      ],
    );
    assert.deepEqual(
      [
        ...headingAnchors(
          [
            "# Client SDK: `feedgate/client`",
            "## GitHub Enterprise layout: `/api/v3`",
            "## Notes",
            "## Notes",
            "```",
            "# not a heading",
            "```",
          ].join("\n"),
        ),
      ],
      ["client-sdk-feedgateclient", "github-enterprise-layout-apiv3", "notes", "notes-1"],
    );
  });
});
