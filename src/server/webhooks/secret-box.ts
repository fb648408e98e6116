/**
 * Webhook secrets sealed with AES-256-GCM under a key kept outside the database. HMAC signing needs the secret
 * itself, so it cannot be hashed as tokens are; sealing it means a copy of the database alone (a backup, a dump)
 * signs nothing. The key lives in a file: by default beside the SQLite database, or where `--webhook-key-file`
 * says (every instance on one PostgreSQL needs the same file). It is made, readable by its owner only, on first use.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { StartupError } from "../failures.js";

const VERSION = "v1";
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBox {
  private loadedKey: Buffer | undefined;

  /** @param key the key, or where to read it the first time a secret is sealed or opened. */
  private constructor(private readonly key: Buffer | (() => Buffer)) {}

  /** The key file is read (or made) when a secret is first sealed or opened: a server without secrets never touches it. */
  static atPath(path: string): SecretBox {
    return new SecretBox(() => SecretBox.fromFile(path).keyBytes());
  }

  /** A key for this process only (an in-memory database, whose hooks end with it). */
  static ephemeral(): SecretBox {
    return new SecretBox(randomBytes(KEY_BYTES));
  }

  private keyBytes(): Buffer {
    return this.loadedKey ??= typeof this.key === "function" ? this.key() : this.key;
  }

  /** The key of 32 random bytes, as 64 hex digits. */
  static fromKey(hex: string): SecretBox {
    if (!/^[0-9a-f]{64}$/i.test(hex)) throw new StartupError("the webhook key must be 64 hex digits (32 bytes)");
    return new SecretBox(Buffer.from(hex, "hex"));
  }

  /** Reads the key file, or makes one (mode 0600) when there is none; `wx`, so two starting instances cannot race. */
  static fromFile(path: string): SecretBox {
    try {
      return SecretBox.fromKey(readFileSync(path, "utf8").trim());
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOENT") {
        if (error instanceof StartupError) throw new StartupError(`${path}: ${error.message}`);
        throw new StartupError(`cannot read the webhook key file ${path}: ${(error as Error).message}`);
      }
    }
    mkdirSync(dirname(path), { recursive: true });
    try {
      writeFileSync(path, `${randomBytes(KEY_BYTES).toString("hex")}\n`, { mode: 0o600, flag: "wx" });
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw new StartupError(`cannot write the webhook key file ${path}: ${(error as Error).message}`);
    }
    return SecretBox.fromKey(readFileSync(path, "utf8").trim());
  }

  seal(secret: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.keyBytes(), iv);
    const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64")}`;
  }

  /** Throws when the secret was sealed under another key (the key file was replaced): the hook cannot sign. */
  open(sealed: string): string {
    const [version, data] = sealed.split(":");
    if (version !== VERSION || !data) throw new Error("not a sealed webhook secret");
    const bytes = Buffer.from(data, "base64");
    const decipher = createDecipheriv("aes-256-gcm", this.keyBytes(), bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  }
}
