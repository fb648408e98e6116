/**
 * `--tls-cert` / `--tls-key`: the PEM files read once at start-up and checked as a pair, so that a wrong path, a
 * file that is no PEM, or a key of another certificate fails the start with one line naming the flag, rather than
 * the first handshake.
 */
import { readFileSync } from "node:fs";
import { createSecureContext } from "node:tls";
import { InvalidInputError } from "./failures.js";
import type { Config } from "./config.js";

export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

const REASONS: Record<string, string> = {
  ENOENT: "no such file",
  EACCES: "permission denied",
  EISDIR: "it is a directory",
};

function read(path: string, flag: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    throw new InvalidInputError(`cannot read ${flag} ${path}: ${REASONS[code] ?? (error as Error).message}`);
  }
}

/** The certificate and key for Fastify's `https` option; undefined when TLS is not configured. */
export function readTlsFiles(tls: Config["tls"]): TlsFiles | undefined {
  if (!tls) return undefined;
  const files = { cert: read(tls.certFile, "--tls-cert"), key: read(tls.keyFile, "--tls-key") };
  try {
    createSecureContext(files);
  } catch (error) {
    // OpenSSL's words, e.g. "error:05800074:x509 certificate routines::key values mismatch".
    throw new InvalidInputError(
      `--tls-cert ${tls.certFile} and --tls-key ${tls.keyFile} are not a PEM certificate and ` +
        `its private key: ${(error as Error).message}`,
    );
  }
  return files;
}
