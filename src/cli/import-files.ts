/**
 * The files given to `feedgate import`, checked before the database is opened or anything is written: a typo in
 * the tenth of 24 hourly files should not leave nine imported and an ENOENT stack. The message for a missing
 * file says where GH Archive's files come from, since that is what most people importing are looking for.
 */
import { stat } from "node:fs/promises";
import { InvalidInputError } from "../server/failures.js";

export const GH_ARCHIVE_HINT =
  "GH Archive files are at https://data.gharchive.org/YYYY-MM-DD-H.json.gz, one an hour " +
  "(e.g. https://data.gharchive.org/2021-07-21-15.json.gz; hours are 0 to 23, UTC)";

/** Throws an InvalidInputError naming the first of `files` that cannot be imported; `-` is standard input. */
export async function checkImportFiles(files: string[]): Promise<void> {
  if (files.filter((f) => f === "-").length > 1) throw new InvalidInputError("standard input (-) can be imported once");
  for (const file of files) {
    if (file === "-") continue;
    const found = await stat(file).catch((error: NodeJS.ErrnoException) => error);
    if (found instanceof Error) {
      if (found.code === "ENOENT" || found.code === "ENOTDIR") {
        throw new InvalidInputError(`${file} does not exist; ${GH_ARCHIVE_HINT}`);
      }
      throw found;
    }
    if (found.isDirectory())
      throw new InvalidInputError(`${file} is a directory; name the files in it (${file}/*.json.gz)`);
  }
}
