/**
 * A commit as the tar `git archive --format=tar` writes (archive-tar.c), streamed: first the pax global header whose
 * `comment` is the commit's SHA-1 (what `git get-tar-commit-id` reads back), then the top folder and every path with
 * git's modes (a file 0664, an executable or a directory 0775: git's default tar.umask of 002; a link 0777), owned by
 * root, dated the commit's time. tar-stream writes the entries (ustar, with pax records for long or non-ASCII names);
 * it has no global header, so that one block is written here.
 */
import { Readable } from "node:stream";
import type { Pack } from "tar-stream";
import { loadOnUse } from "../load-on-use.js";
import { type ArchiveEntry, type ArchiveOf, isDirectory } from "./archive-entries.js";
import type { GitMode } from "./objects.js";

const tarStream = loadOnUse<typeof import("tar-stream")>("tar-stream");

const BLOCK = 512;

/** A ustar header field: octal digits, zero-padded to fill it with its NUL (git's `%07o`, `%011o`). */
function octal(block: Buffer, at: number, width: number, value: number): void {
  block.write(`${value.toString(8).padStart(width - 1, "0")}\0`, at, "latin1");
}

/**
 * The pax global header (typeflag `g`) git archive begins with: `52 comment=<sha>\n` in a block of its own, named
 * `pax_global_header`, mode 0666, dated the commit's time.
 */
export function paxGlobalHeader(commit: string, time: Date): Buffer {
  const record = `comment=${commit}\n`;
  // A pax record's length counts its own digits and the space after them.
  let length = record.length + 3;
  if (`${length} ${record}`.length !== length) length += 1;
  const body = Buffer.from(`${length} ${record}`);
  const header = Buffer.alloc(BLOCK);
  header.write("pax_global_header", 0, "latin1");
  octal(header, 100, 8, 0o666);
  octal(header, 108, 8, 0);
  octal(header, 116, 8, 0);
  octal(header, 124, 12, body.length);
  octal(header, 136, 12, Math.floor(time.getTime() / 1000));
  header.write("g", 156, "latin1");
  header.write("ustar\u000000", 257, "latin1");
  header.write("root", 265, "latin1");
  header.write("root", 297, "latin1");
  octal(header, 329, 8, 0);
  octal(header, 337, 8, 0);
  // The checksum is the sum of the header's bytes with its own field read as eight spaces.
  header.fill(" ", 148, 156);
  const sum = header.reduce((total, byte) => total + byte, 0);
  octal(header, 148, 8, sum);
  const padding = Buffer.alloc((BLOCK - (body.length % BLOCK)) % BLOCK);
  return Buffer.concat([header, body, padding]);
}

/** git archive's permission bits for an entry of `mode` (archive-tar.c write_tar_entry, tar.umask 002). */
function tarMode(mode: GitMode): number {
  if (isDirectory(mode)) return 0o775;
  if (mode === "120000") return 0o777;
  return mode === "100755" ? 0o775 : 0o664;
}

/** An entry named `name` in the tar (its path under the top folder; the top folder itself is the prefix). */
async function addEntry(pack: Pack, archive: ArchiveOf, name: string, entry: Omit<ArchiveEntry, "path">) {
  const common = { mtime: archive.time, uid: 0, gid: 0, uname: "root", gname: "root", mode: tarMode(entry.mode) };
  await new Promise<void>((resolve, reject) => {
    const done = (error?: Error | null) => (error ? reject(error) : resolve());
    if (isDirectory(entry.mode)) {
      pack.entry({ ...common, name: name.endsWith("/") ? name : `${name}/`, type: "directory" }, done);
      return;
    }
    entry.read!().then((body) => {
      if (entry.mode === "120000")
        pack.entry({ ...common, name, type: "symlink", linkname: body.toString("utf8") }, done);
      else pack.entry({ ...common, name, type: "file" }, body, done);
    }, reject);
  });
}

/** The archive's tar, uncompressed, as it is written; an error reading a file ends the stream with that error. */
export function tarArchive(archive: ArchiveOf): Readable {
  const pack = tarStream().pack();
  const fill = async () => {
    await addEntry(pack, archive, archive.prefix, { mode: "040000" });
    for (const entry of archive.entries) await addEntry(pack, archive, `${archive.prefix}${entry.path}`, entry);
    pack.finalize();
  };
  async function* blocks() {
    yield paxGlobalHeader(archive.commit, archive.time);
    yield* pack;
  }
  fill().catch((error: unknown) => pack.destroy(error as Error));
  return Readable.from(blocks(), { objectMode: false });
}
