/**
 * Rotating the key webhook secrets are sealed with (`feedgate keys rotate`), while instances deliver:
 *
 * 1. the key file gets the new key first and keeps the old ones after it: an instance that meets a value sealed
 *    under the new key reads the file again and opens it; one that seals (a hook created meanwhile) seals under
 *    the new key, as it re-reads a changed file first;
 * 2. every stored secret not sealed under the new key is opened and sealed again under it, a page of hooks at a
 *    time, each written only if it has not changed meanwhile; passes repeat until one finds nothing left;
 * 3. the old keys leave the file (unless kept): nothing in the database needs them any more.
 *
 * At every moment each stored secret opens with the keys in the file, so no delivery fails for the rotation.
 */
import { InvalidInputError } from "../failures.js";
import type { HookStore } from "../store/hook-store.js";
import { readKeyFile, writeKeyFile } from "./key-file.js";
import { keyIdOf, SecretBox } from "./secret-box.js";

/** Hooks read per page. */
const PAGE = 200;
/** Passes over the hooks at most: each after the first only meets secrets changed during the one before. */
const MAX_PASSES = 5;

export interface RotationReport {
  keyId: string;
  /** Ids of the keys the file held before. */
  previousKeyIds: string[];
  resealed: number;
  /** Hooks whose secret none of the keys opens (sealed under a key lost before): left as they are. */
  unopenable: number[];
  /** Whether the old keys are still in the file: `--keep-old`, or secrets kept changing through every pass. */
  keptOld: boolean;
}

export async function rotateWebhookKey(
  hooks: Pick<HookStore, "sealedSecrets" | "reseal">,
  path: string,
  newKey: Buffer,
  options: { keepOld: boolean },
): Promise<RotationReport> {
  const current = readKeyFile(path);
  if (current === null) {
    throw new InvalidInputError(
      `no webhook key file at ${path}: give the one the server uses (--webhook-key-file, or the ` +
        "database's --db, beside which it is made); nothing was changed",
    );
  }
  const previous = current.filter((key) => !key.equals(newKey));
  const box = SecretBox.withKeys([newKey, ...previous]);
  const keyId = keyIdOf(newKey);
  writeKeyFile(path, [newKey, ...previous]);

  let resealed = 0;
  const unopenable = new Set<number>();
  /** Reseals what is not under the new key yet; the number changed meanwhile, which a next pass sees anew. */
  const pass = async (): Promise<number> => {
    let pending = 0;
    for (let after = 0; ; ) {
      const page = await hooks.sealedSecrets(after, PAGE);
      for (const { hookId, sealed } of page) {
        if (SecretBox.keyIdIn(sealed) === keyId || unopenable.has(hookId)) continue;
        let secret: string;
        try {
          secret = box.open(sealed);
        } catch {
          unopenable.add(hookId);
          continue;
        }
        if (await hooks.reseal(hookId, sealed, box.seal(secret))) resealed++;
        else pending++;
      }
      if (page.length < PAGE) return pending;
      after = page[page.length - 1]!.hookId;
    }
  };
  let pending = await pass();
  for (let n = 1; pending > 0 && n < MAX_PASSES; n++) pending = await pass();
  // Old keys go only once nothing needs them; a pass after they went catches a secret an instance sealed under an old
  // key while the file changed (this process still has the old keys to open it).
  const keptOld = options.keepOld || pending > 0;
  if (!keptOld) {
    writeKeyFile(path, [newKey]);
    await pass();
  }
  return { keyId, previousKeyIds: previous.map(keyIdOf), resealed, unopenable: [...unopenable], keptOld };
}
