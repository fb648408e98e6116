/**
 * Webhook secrets sealed with AES-256-GCM under a key kept outside the database. HMAC signing needs the secret
 * itself, so it cannot be hashed as tokens are; sealing it means a copy of the database alone (a backup, a dump)
 * signs nothing. The key lives in a file: by default beside the SQLite database, or where `--webhook-key-file`
 * says (every instance on one PostgreSQL needs the same file). It is made, readable by its owner only, on first use.
 *
 * The key can be rotated while instances run (`feedgate keys rotate`, ./key-rotation.ts): the file may hold several
 * keys (./key-file.ts), the first sealing, every one opening, and a sealed value names the key it was sealed under
 * (`v2:<key id>:...`). An instance re-reads the file when a value names a key it has not loaded, and before sealing
 * when the file has changed, so deliveries go on through a rotation and new secrets are sealed under the new key.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { StartupError } from "../failures.js";
import { fileStamp, isKey, KEY_BYTES, readOrMakeKeyFile } from "./key-file.js";

/** Sealed before keys had ids: opened by trying each key (GCM's tag tells a wrong key). */
const V1 = "v1";
const V2 = "v2";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A key's id: the start of its SHA-256, enough to tell the keys of one file apart, and nothing about the key. */
export const keyIdOf = (key: Buffer) => createHash("sha256").update(key).digest("hex").slice(0, 8);

interface Keyring {
  keys: { id: string; key: Buffer }[];
  /** The file's version when it was read; undefined for keys not from a file. */
  stamp?: string;
}

const ringOf = (keys: Buffer[], stamp?: string): Keyring => ({
  keys: keys.map((key) => ({ id: keyIdOf(key), key })),
  stamp,
});

export class SecretBox {
  private ring: Keyring | undefined;

  /** @param path the key file, read when a secret is first sealed or opened; none: `keys` is all there is. */
  private constructor(
    private readonly path: string | undefined,
    keys?: Buffer[],
  ) {
    if (keys) this.ring = ringOf(keys);
  }

  /** The key file is read (or made) when a secret is first sealed or opened: a server without secrets never touches it. */
  static atPath(path: string): SecretBox {
    return new SecretBox(path);
  }

  /** A key for this process only (an in-memory database, whose hooks end with it). */
  static ephemeral(): SecretBox {
    return new SecretBox(undefined, [randomBytes(KEY_BYTES)]);
  }

  /** The key of 32 random bytes, as 64 hex digits. */
  static fromKey(hex: string): SecretBox {
    if (!isKey(hex)) throw new StartupError("the webhook key must be 64 hex digits (32 bytes)");
    return new SecretBox(undefined, [Buffer.from(hex, "hex")]);
  }

  /** These keys, the first sealing (a rotation reseals with the file's keys before the file has them). */
  static withKeys(keys: Buffer[]): SecretBox {
    return new SecretBox(undefined, keys);
  }

  /** Reads the key file, or makes one (mode 0600) when there is none. */
  static fromFile(path: string): SecretBox {
    const box = new SecretBox(path);
    box.keyring();
    return box;
  }

  /** The id of the key new secrets are sealed with. */
  get currentKeyId(): string {
    return this.keyring().keys[0]!.id;
  }

  /** The id of the key a value was sealed under; null for values sealed before keys had ids. */
  static keyIdIn(sealed: string): string | null {
    const [version, id] = sealed.split(":");
    return version === V2 && id ? id : null;
  }

  seal(secret: string): string {
    // A rotation may have put a new key first since the file was read: seal under it, not the one it replaces.
    if (this.path && this.ring?.stamp !== this.stampNow()) this.ring = undefined;
    const { id, key } = this.keyring().keys[0]!;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
    return `${V2}:${id}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64")}`;
  }

  /** Throws when no key this instance has (the file re-read once) opens it: the hook cannot sign. */
  open(sealed: string): string {
    const parts = sealed.split(":");
    const [version] = parts;
    const data = version === V2 ? parts[2] : parts[1];
    if ((version !== V1 && version !== V2) || !data) throw new Error("not a sealed webhook secret");
    const bytes = Buffer.from(data, "base64");
    const attempt = () => {
      const keys = this.keyring().keys.filter((k) => version === V1 || k.id === parts[1]);
      for (const { key } of keys) {
        try {
          return openWith(key, bytes);
        } catch {
          // Not this key (a v1 value tries each): the next one.
        }
      }
      return null;
    };
    let secret = attempt();
    if (secret === null && this.path && this.ring?.stamp !== this.stampNow()) {
      // Sealed under a key written to the file after it was read (a rotation in progress): read it again.
      this.ring = undefined;
      secret = attempt();
    }
    if (secret === null) throw new Error("the webhook secret was sealed under a key this instance does not have");
    return secret;
  }

  private keyring(): Keyring {
    if (this.ring) return this.ring;
    // The version is taken before the read: a change in between is then seen as one at the next seal or unknown key.
    const stamp = this.stampNow();
    return (this.ring = ringOf(readOrMakeKeyFile(this.path!), stamp));
  }

  /** The key file's version now; undefined when it cannot be read (it is then read, and fails, as at first use). */
  private stampNow(): string | undefined {
    try {
      return fileStamp(this.path!);
    } catch {
      return undefined;
    }
  }
}

function openWith(key: Buffer, bytes: Buffer): string {
  const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
}
