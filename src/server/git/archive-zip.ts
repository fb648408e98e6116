/**
 * A commit as the zip `git archive --format=zip` writes (archive-zip.c), streamed by yazl: the top folder and every
 * path, files deflated, and the commit's SHA-1 as the archive's comment (what `unzip -z` shows). Unix modes where git
 * gives them: an executable 0755 and a link 0120777, stored as its target, which unzip restores as a link; a plain
 * file 0644 and a directory 0755, what unzip makes of git's MS-DOS attributes under the usual umask. Each file's
 * bytes are read when yazl reaches it, so the archive holds one file at a time.
 */
import { Readable } from "node:stream";
import { loadOnUse } from "../load-on-use.js";
import { type ArchiveOf, isDirectory } from "./archive-entries.js";
import type { GitMode } from "./objects.js";

const yazl = loadOnUse<typeof import("yazl")>("yazl");

function zipMode(mode: GitMode): number {
  if (mode === "120000") return 0o120777;
  return mode === "100755" ? 0o100755 : 0o100644;
}

/** The archive's zip as it is written; an error reading a file ends the stream with that error. */
export function zipArchive(archive: ArchiveOf): Readable {
  const zip = new (yazl().ZipFile)();
  const output = zip.outputStream as Readable;
  zip.on("error", (error: Error) => output.destroy(error));
  const mtime = archive.time;
  zip.addEmptyDirectory(archive.prefix, { mtime, mode: 0o40755 });
  for (const entry of archive.entries) {
    const name = `${archive.prefix}${entry.path}`;
    if (isDirectory(entry.mode)) {
      zip.addEmptyDirectory(`${name}/`, { mtime, mode: 0o40755 });
      continue;
    }
    zip.addReadStreamLazy(name, { mtime, mode: zipMode(entry.mode), compress: entry.mode !== "120000" }, (done) =>
      entry.read!().then(
        (body) => done(null, Readable.from([body])),
        (error: unknown) => done(error, Readable.from([])),
      ),
    );
  }
  zip.end({ comment: archive.commit, forceZip64Format: false });
  return output;
}
