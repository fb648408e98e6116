/**
 * The webhook key file: one key a line (64 hex digits, 32 bytes), the first the one new secrets are sealed with,
 * every one able to open. A file of one line is what every earlier feedgate made; more lines exist while a key is
 * rotated (`feedgate keys rotate`), so that secrets sealed under the old key still open until they are resealed.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { DEFAULT_DB, IN_MEMORY_DB } from "../config.js";
import { StartupError } from "../failures.js";
import { isPostgresUrl } from "../store/open-store.js";

export const KEY_BYTES = 32;
const KEY = /^[0-9a-f]{64}$/i;

/**
 * `--webhook-key-file`, else beside the SQLite file, else (PostgreSQL) where the default database would be; null for
 * a database in memory, whose key is made anew by each process. `feedgate keys rotate` finds the file the same way.
 */
export function webhookKeyFile(db: string, keyFile: string | undefined): string | null {
  if (keyFile) return keyFile;
  if (db === IN_MEMORY_DB) return null;
  return isPostgresUrl(db) ? join(dirname(DEFAULT_DB), "webhook.key") : `${db}.webhook-key`;
}

/** Whether `text` is a key as the file holds it. */
export const isKey = (text: string) => KEY.test(text);

/** What identifies a version of the file: a rotation replaces it (a new inode) or rewrites it (a new time or size). */
export function fileStamp(path: string): string {
  const { ino, mtimeMs, size } = statSync(path);
  return `${ino}:${mtimeMs}:${size}`;
}

/** The keys of the file's text, first first; blank lines and `#` comments are skipped. */
export function parseKeys(text: string, path: string): Buffer[] {
  const keys: Buffer[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    if (!isKey(line)) throw new StartupError(`${path}: line ${i + 1}: a webhook key must be 64 hex digits (32 bytes)`);
    keys.push(Buffer.from(line, "hex"));
  });
  if (keys.length === 0) throw new StartupError(`${path}: no webhook key in it (64 hex digits a line)`);
  return keys;
}

/** The file's keys, or null when there is no file. */
export function readKeyFile(path: string): Buffer[] | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return null;
    throw new StartupError(`cannot read the webhook key file ${path}: ${(error as Error).message}`);
  }
  return parseKeys(text, path);
}

/** Reads the key file, or makes one of a new key (mode 0600) when there is none; `wx`, so two starting instances cannot race. */
export function readOrMakeKeyFile(path: string): Buffer[] {
  const keys = readKeyFile(path);
  if (keys) return keys;
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(path, `${randomBytes(KEY_BYTES).toString("hex")}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as { code?: string }).code !== "EEXIST")
      throw new StartupError(`cannot write the webhook key file ${path}: ${(error as Error).message}`);
  }
  return readKeyFile(path)!;
}

/**
 * Replaces the file's keys at once: written beside it (mode 0600) and renamed over it, so that an instance reading it
 * meanwhile reads the old keys or the new ones, never half a file.
 */
export function writeKeyFile(path: string, keys: Buffer[]): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, keys.map((key) => `${key.toString("hex")}\n`).join(""), { mode: 0o600 });
  renameSync(temporary, path);
}
