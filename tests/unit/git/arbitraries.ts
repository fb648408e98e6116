/** fast-check arbitraries for git objects: names chosen to collide and to sort where git's order is subtle. */
import fc from "fast-check";
import {
  GIT_MODES,
  type GitMode,
  isPathSegment,
  type GitPerson,
  type TreeEntry,
} from "../../../src/server/git/objects.js";
import type { Leaf } from "./memory-trees.js";

export const sha: fc.Arbitrary<string> = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((bytes) => Buffer.from(bytes).toString("hex"));

/**
 * Tree entry names from few characters, so that names repeat, prefix each other and straddle "/" (0x2f) in byte
 * order: "-" and "." sort before it, "0" and letters after, "é" and "😀" are several UTF-8 bytes.
 */
export const entryName: fc.Arbitrary<string> = fc
  .string({
    unit: fc.constantFrom("a", "b", "-", ".", "0", "_", "é", "😀", " ", "\t", "\n", "A"),
    minLength: 1,
    maxLength: 4,
  })
  .filter(isPathSegment);

export const mode = fc.constantFrom(...GIT_MODES);

export const treeEntries: fc.Arbitrary<TreeEntry[]> = fc.uniqueArray(
  fc.record({ mode, name: entryName, sha }, { noNullPrototype: true }),
  {
    selector: (entry) => entry.name,
    maxLength: 12,
  },
);

/** Names and emails git reads back as written: no "<", ">" or newline, and no space at either end (git trims). */
const identText = fc
  .string({ unit: fc.constantFrom("a", "Z", " ", ".", "@", "é", "😀", "-", "'", '"'), maxLength: 8 })
  .filter((text) => text.trim() === text);

export const person: fc.Arbitrary<GitPerson> = fc.record(
  {
    name: identText,
    email: identText,
    date: fc.integer({ min: 0, max: 4_102_444_800 }).map((seconds) => new Date(seconds * 1000)),
    offsetMinutes: fc.integer({ min: -(99 * 60 + 59), max: 99 * 60 + 59 }),
  },
  { noNullPrototype: true },
);

/** Any text, with the lines, blank lines and trailing newlines messages are made of. */
export const message: fc.Arbitrary<string> = fc.string({
  unit: fc.oneof(
    fc.constantFrom("\n", "\n\n", " ", "-----BEGIN PGP SIGNATURE-----"),
    fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }),
  ),
  maxLength: 12,
});

const segment = fc.constantFrom("a", "b", "a-b", "a.b", "a0", "é");
export const path: fc.Arbitrary<string> = fc
  .array(segment, { minLength: 1, maxLength: 3 })
  .map((segments) => segments.join("/"));
export const leaf: fc.Arbitrary<Leaf> = fc.record(
  { mode: fc.constantFrom<GitMode>("100644", "100755", "120000", "160000"), sha },
  { noNullPrototype: true },
);

/** A repository's files by path, from few names so that paths share directories; none is a file and a directory. */
export const contents: fc.Arbitrary<Map<string, Leaf>> = fc
  .array(fc.tuple(path, leaf), { maxLength: 14 })
  .map((pairs) => {
    const leaves = new Map<string, Leaf>();
    for (const [p, l] of pairs) {
      const clash = [...leaves.keys()].some((key) => key === p || key.startsWith(`${p}/`) || p.startsWith(`${key}/`));
      if (!clash) leaves.set(p, l);
    }
    return leaves;
  });
