/**
 * A packfile as git reads one (gitformat-pack(5)): `PACK`, version 2, the number of objects, then each object whole
 * (no deltas: a pack need not have any, and the client asked for none it cannot take), its type and size in git's
 * variable-length header and its body deflated with zlib, and last the SHA-1 of everything before it. Written as it
 * is read, one object at a time, so a pack of any size holds only one object's body in memory.
 */
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { deflate } from "node:zlib";
import type { GitObjectType } from "./objects.js";

const deflateAsync = promisify(deflate);

/** The type numbers of a pack's object headers (OBJ_COMMIT .. OBJ_TAG in git's object.h). */
const TYPE_NUMBERS: Record<GitObjectType, number> = { commit: 1, tree: 2, blob: 3, tag: 4 };

export interface PackObject {
  type: GitObjectType;
  body: Buffer;
}

/**
 * An object's header: the type in bits 4-6 of the first byte with the size's lowest four bits, then seven bits of
 * the size a byte, lowest first, each byte but the last with its high bit set.
 */
export function objectHeader(type: GitObjectType, size: number): Buffer {
  const bytes: number[] = [];
  let rest = Math.floor(size / 16);
  let byte = (TYPE_NUMBERS[type] << 4) | (size & 0x0f);
  while (rest > 0) {
    bytes.push(byte | 0x80);
    byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  bytes.push(byte);
  return Buffer.from(bytes);
}

/** The pack of `count` objects as `objects` yields them (exactly `count` of them), in pieces as they are made. */
export async function* writePack(count: number, objects: AsyncIterable<PackObject>): AsyncGenerator<Buffer> {
  const hash = createHash("sha1");
  const emit = (bytes: Buffer) => {
    hash.update(bytes);
    return bytes;
  };
  const header = Buffer.alloc(12);
  header.write("PACK", 0, "latin1");
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(count, 8);
  yield emit(header);
  let written = 0;
  for await (const object of objects) {
    written += 1;
    yield emit(Buffer.concat([objectHeader(object.type, object.body.length), await deflateAsync(object.body)]));
  }
  // The header promised `count`: git's index-pack refuses a pack whose objects are not that many.
  if (written !== count) throw new Error(`the pack promised ${count} objects and holds ${written}`);
  yield hash.digest();
}
