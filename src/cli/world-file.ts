/**
 * A world file (`feedgate seed`, `serve --seed`) read and parsed, or one line saying why it cannot be; and what seeding
 * it did, as both commands say it.
 */
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { InvalidInputError } from "../server/failures.js";
import type { SeedResult } from "../server/services/ingest.js";
import { count } from "./table.js";

/** Why a world file could not be read, said as the fix; `demo/world.json` is the example every clone has. */
function worldFileProblem(error: unknown): string {
  if (error instanceof SyntaxError) return "is not valid JSON";
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "does not exist; a world file is JSON such as demo/world.json";
  if (code === "EISDIR") return "is a directory; name the world file in it";
  return (error as Error).message;
}

export interface WorldFile {
  doc: unknown;
  /** Where its `events_files` are found: beside it. */
  baseDir: string;
}

export async function readWorldFile(file: string): Promise<WorldFile> {
  try {
    return { doc: JSON.parse(await readFile(file, "utf8")), baseDir: dirname(resolve(file)) };
  } catch (error) {
    throw new InvalidInputError(worldFileProblem(error), { field: file });
  }
}

/**
 * Two lines: what the file held, then what the database did not have yet. Accounts and repositories that only
 * events name are added too, so more may be added than the file lists.
 */
export function seedReport(file: string, r: SeedResult): string {
  const c = r.contents;
  return (
    `seeded ${file}: ${count(c.users, "user")}, ${count(c.organizations, "organization")}, ` +
    `${count(c.repos, "repository", "repositories")}, ${count(c.tokens, "token")}, ${count(c.events, "event")}, ` +
    `${count(c.issueEvents, "issue event")}\n` +
    `added: ${count(r.usersAdded, "user")}, ${count(r.organizationsAdded, "organization")}, ` +
    `${count(r.reposAdded, "repository", "repositories")}, ${count(r.tokensAdded, "token")}, ` +
    `${count(r.eventsAdded, "event")} (${r.eventsSkipped} already present), ` +
    `${count(r.issueEventsAdded, "issue event")} (${r.issueEventsSkipped} already present)\n`
  );
}
