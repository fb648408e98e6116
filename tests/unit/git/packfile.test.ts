/**
 * The pieces of git's wire formats feedgate writes, judged by git itself: a pack of whole objects that `git index-pack`
 * takes (every object's SHA-1 git's), pkt-lines read and written as git frames them, side-band cut at git's limit,
 * and the tar's pax global header as `git get-tar-commit-id` reads it.
 */
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { gitSkip, lazyRepository } from "../../helpers/real-git.js";
import { encodeTree, hashObject } from "../../../src/server/git/objects.js";
import { objectHeader, writePack, type PackObject } from "../../../src/server/git/packfile.js";
import {
  FLUSH,
  MAX_PKT_LENGTH,
  PktLineError,
  packetText,
  pktLine,
  readPackets,
  sideBand,
} from "../../../src/server/git/pkt-line.js";
import { paxGlobalHeader } from "../../../src/server/git/archive-tar.js";

async function packOf(objects: PackObject[]): Promise<Buffer> {
  async function* each() {
    yield* objects;
  }
  const pieces: Buffer[] = [];
  for await (const piece of writePack(objects.length, each())) pieces.push(piece);
  return Buffer.concat(pieces);
}

describe("a pack of whole objects", () => {
  const git = lazyRepository();
  after(() => git.remove());

  test("git index-pack takes it, each object under the SHA-1 feedgate gives it", { skip: gitSkip }, async () => {
    const blob = Buffer.from("hello\n");
    const large = Buffer.alloc(70_000, "x"); // a size of three header bytes, deflated into many side-band lines
    const tree = encodeTree([
      { mode: "100644", name: "hello.txt", sha: hashObject("blob", blob) },
      { mode: "100755", name: "large", sha: hashObject("blob", large) },
    ]);
    const objects: PackObject[] = [
      { type: "blob", body: blob },
      { type: "blob", body: large },
      { type: "tree", body: tree },
    ];
    const pack = await packOf(objects);
    const index = await git.get().textAsync(["index-pack", "--stdin", "--strict"], pack);
    assert.match(index, /^pack\t[0-9a-f]{40}$/);
    for (const object of objects) {
      const sha = hashObject(object.type, object.body);
      assert.equal(await git.get().textAsync(["cat-file", "-t", sha]), object.type);
    }
  });

  test("a pack holding fewer objects than its header promised is an error, not a pack", async () => {
    async function* none(): AsyncGenerator<PackObject> {}
    await assert.rejects(async () => {
      for await (const _ of writePack(1, none())) {
      }
    }, /promised 1 objects and holds 0/);
  });

  test("an object's header: its type and size, seven bits a byte after the first four", () => {
    assert.deepEqual([...objectHeader("blob", 6)], [0x36]);
    assert.deepEqual([...objectHeader("commit", 16)], [0x90, 0x01]);
    assert.deepEqual([...objectHeader("tree", 70_000)], [0xa0, 0x97, 0x22]);
  });
});

describe("pkt-lines", () => {
  test("are written and read back as git frames them", () => {
    const bytes = Buffer.concat([pktLine("want abc\n"), Buffer.from("0001"), pktLine("done\n"), FLUSH]);
    assert.equal(bytes.toString(), "000dwant abc\n00010009done\n0000");
    const packets = readPackets(bytes);
    assert.deepEqual(
      packets.map((packet) => packetText(packet) ?? packet.kind),
      ["want abc", "delim", "done", "flush"],
    );
  });

  test("a length that is not four hex digits, or runs past the end, is refused", () => {
    assert.throws(() => readPackets(Buffer.from("zzzzwant")), PktLineError);
    assert.throws(() => readPackets(Buffer.from("0010want")), PktLineError);
    assert.throws(() => readPackets(Buffer.from("0003")), PktLineError);
  });

  test("side-band cuts its bytes into lines of at most git's 65520, each led by its channel", () => {
    const lines = [...sideBand(1, Buffer.alloc(MAX_PKT_LENGTH * 2, 7))];
    assert.equal(lines.length, 3);
    for (const line of lines) {
      assert.ok(line.length <= MAX_PKT_LENGTH);
      assert.equal(line[4], 1);
    }
    assert.equal(
      lines.reduce((total, line) => total + line.length - 5, 0),
      MAX_PKT_LENGTH * 2,
    );
  });
});

describe("the tar's pax global header", () => {
  const git = lazyRepository();
  after(() => git.remove());

  test("is read back by git get-tar-commit-id", { skip: gitSkip }, async () => {
    const commit = "0d67e425685f8ea20b0fa0638b7e82a53e7d4d25";
    const header = paxGlobalHeader(commit, new Date("2026-01-15T10:00:00Z"));
    assert.equal(header.length, 1024);
    const tar = Buffer.concat([header, Buffer.alloc(1024)]);
    assert.equal(await git.get().textAsync(["get-tar-commit-id"], tar), commit);
  });
});
