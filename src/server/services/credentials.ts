/**
 * Secrets: password hashing (scrypt), token minting and hashing (SHA-256), TOTP checks.
 * Every comparison of secrets is constant-time. Nothing here logs.
 */
import { hash, randomBytes, randomInt, scrypt as scryptCallback, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { crc32 } from "node:zlib";
import { Secret, TOTP } from "otpauth";
import { DEFAULT_PASSWORD_COST } from "../config.js";

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

// OWASP's scrypt minimum (N=2^17, r=8, p=1) costs a tenth of a second of CPU on every Basic-auth request; 2^15 keeps
// password-authenticated calls responsive while remaining memory-hard (32 MiB per hash).
const SCRYPT = { r: 8, p: 1, keylen: 64 };
/** log2 of scrypt's N for new hashes unless `--password-cost` says otherwise; a setting's default, kept with the rest. */
export { DEFAULT_PASSWORD_COST };

/**
 * log2 N of new hashes and of the decoy. Process-wide, as one process serves one deployment: the server sets it
 * from its config, the CLI commands that hash from their flag, and tests lower it so that a hash costs microseconds.
 */
let cost = DEFAULT_PASSWORD_COST;

export function setPasswordCost(log2N: number): void {
  cost = log2N;
}

export const passwordCost = (): number => cost;

/** `scrypt$N$r$p$salt$hash`, base64 parts: self-describing, so a hash verifies after the cost changed. */
export async function hashPassword(password: string): Promise<string> {
  const N = 2 ** cost;
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, SCRYPT.keylen, {
    N,
    r: SCRYPT.r,
    p: SCRYPT.p,
    maxmem: 128 * N * SCRYPT.r * 2,
  });
  return ["scrypt", N, SCRYPT.r, SCRYPT.p, salt.toString("base64"), hash.toString("base64")].join("$");
}

/** Well-formed hashes of a password nobody knows, one per cost. */
const decoys = new Map<number, Promise<string>>();

/**
 * What an unknown login's password is checked against, so that timing reveals nothing: made at the current cost,
 * so that it takes as long as checking a new account's password.
 */
export function decoyHash(): Promise<string> {
  let decoy = decoys.get(cost);
  if (!decoy) decoys.set(cost, (decoy = hashPassword(randomBytes(32).toString("hex"))));
  return decoy;
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const encoded = stored ?? (await decoyHash());
  const [scheme, n, r, p, salt, hash] = encoded.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const N = Number(n);
  const actual = await scrypt(password, Buffer.from(salt, "base64"), expected.length, {
    N,
    r: Number(r),
    p: Number(p),
    maxmem: 128 * N * Number(r) * 2,
  });
  return timingSafeEqual(actual, expected) && stored !== null;
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const TOKEN_PREFIX = "fgp_";
const BODY_LENGTH = 30;
const CHECKSUM_LENGTH = 6;

function base62(n: number, width: number): string {
  let out = "";
  for (let i = 0; i < width; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/**
 * A new token in the project's format: `fgp_` + 30 random base62 characters + a 6-character base62 CRC32 of
 * them (40 characters in all, like GitHub's `ghp_` tokens). The checksum lets secret scanners and this
 * server reject mistyped tokens without a database look-up; the prefix makes leaked tokens greppable.
 */
export function mintToken(prefix: string = TOKEN_PREFIX): string {
  const body = randomBase62(BODY_LENGTH);
  return prefix + body + base62(crc32(body), CHECKSUM_LENGTH);
}

/** OAuth apps' tokens carry GitHub's own prefix for them, which clients and secret scanners recognise. */
export const OAUTH_TOKEN_PREFIX = "gho_";

export const mintOAuthToken = () => mintToken(OAUTH_TOKEN_PREFIX);

/** A random secret of `bytes` bytes as lowercase hex: client secrets (20 bytes, 40 characters as GitHub's), codes. */
export const randomHex = (bytes: number) => randomBytes(bytes).toString("hex");

function randomBase62(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

/**
 * Fine-grained tokens have a prefix of their own, as GitHub's `github_pat_` beside `ghp_`, and GitHub's layout: 22
 * characters, an underscore, 59 more (here 53 random and a 6-character checksum of both random parts).
 */
export const FINE_GRAINED_TOKEN_PREFIX = "feedgate_pat_";
const FINE_GRAINED_PARTS = [22, 53] as const;

export function mintFineGrainedToken(): string {
  const [first, second] = FINE_GRAINED_PARTS.map(randomBase62);
  return `${FINE_GRAINED_TOKEN_PREFIX}${first}_${second}${base62(crc32(first! + second!), CHECKSUM_LENGTH)}`;
}

const FEEDGATE_TOKEN = new RegExp(
  `^(?:${TOKEN_PREFIX}|${OAUTH_TOKEN_PREFIX})([0-9A-Za-z]{${BODY_LENGTH}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`,
);
const FINE_GRAINED_TOKEN = new RegExp(
  `^${FINE_GRAINED_TOKEN_PREFIX}([0-9A-Za-z]{${FINE_GRAINED_PARTS[0]}})_` +
    `([0-9A-Za-z]{${FINE_GRAINED_PARTS[1]}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`,
);
const LEGACY_TOKEN = /^[0-9a-f]{40}$/;

/** A GitHub App's installation token: GitHub's own prefix (`ghs_`, spec section 4), with the classic layout. */
export const INSTALLATION_TOKEN_PREFIX = "ghs_";
/** A GitHub App's user token (`ghu_`, eight hours) and the refresh token that renews it (`ghr_`, not a credential). */
export const USER_TOKEN_PREFIX = "ghu_";
export const REFRESH_TOKEN_PREFIX = "ghr_";
const APP_TOKEN = new RegExp(
  `^(?:${INSTALLATION_TOKEN_PREFIX}|${USER_TOKEN_PREFIX})([0-9A-Za-z]{${BODY_LENGTH}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`,
);

export const mintInstallationToken = () => mintToken(INSTALLATION_TOKEN_PREFIX);

/**
 * GitHub's stateless installation token (spec section 4, since 2026): `ghs_APPID_` and a JWT naming the app, the
 * installation and the expiry, asked for with `X-GitHub-Stateless-S2S-Token: enabled`. Here it is stored and checked
 * as every token is (by its SHA-256); only its form is GitHub's, so clients that parse or size it see what they would.
 * Signed with a key made for it and dropped: nothing verifies it by its signature.
 */
export async function mintStatelessInstallationToken(appId: number, installationId: number, expiresAt: Date) {
  const { SignJWT } = await import("jose"); // loaded by the first such token, not by every start
  for (;;) {
    const jwt = await new SignJWT({ installation_id: installationId })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuer(String(appId))
      .setIssuedAt(Math.floor(expiresAt.getTime() / 1000) - 3600)
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .setJti(randomHex(16))
      .sign(randomBytes(32));
    const token = `${INSTALLATION_TOKEN_PREFIX}${appId}_${jwt}`;
    // GitHub publishes `ghs_[A-Za-z0-9._]{36,}` for these, without base64url's `-`: secret scanners and clients
    // match that, so a token with one is made again (half of them; two tries on average).
    if (GITHUB_STATELESS_PATTERN.test(token)) return token;
  }
}
const GITHUB_STATELESS_PATTERN = /^ghs_[A-Za-z0-9._]{36,}$/;
const STATELESS_INSTALLATION_TOKEN = new RegExp(`^${INSTALLATION_TOKEN_PREFIX}\\d+_eyJ[\\w-]*\\.[\\w-]+\\.[\\w-]+$`);
export const mintUserToken = () => mintToken(USER_TOKEN_PREFIX);
export const mintRefreshToken = () => mintToken(REFRESH_TOKEN_PREFIX);

/**
 * True for the shapes a token may take: GitHub's legacy 40 lowercase hex, or one of feedgate's (personal, OAuth,
 * fine-grained, an app's installation or user token) with a valid checksum. A refresh token is none of them.
 */
export function isTokenShaped(value: string): boolean {
  if (LEGACY_TOKEN.test(value) || STATELESS_INSTALLATION_TOKEN.test(value)) return true;
  const classic = FEEDGATE_TOKEN.exec(value) ?? APP_TOKEN.exec(value);
  if (classic) return base62(crc32(classic[1]!), CHECKSUM_LENGTH) === classic[2];
  const fineGrained = FINE_GRAINED_TOKEN.exec(value);
  return fineGrained !== null && base62(crc32(fineGrained[1]! + fineGrained[2]!), CHECKSUM_LENGTH) === fineGrained[3];
}

/** Lowercase hex SHA-256, the stored form and the wire `hashed_token` (wire notes 1.2). */
export function hashToken(token: string): string {
  return hash("sha256", token, "hex");
}

/** The token's SHA-256 as bytes, for hashMatches: what every request with a token makes once. */
export function tokenDigest(token: string): Buffer {
  return hash("sha256", token, "buffer");
}

export function hashesEqual(a: string, b: string): boolean {
  return hashMatches(Buffer.from(b, "hex"), a);
}

/** Whether `digest` (tokenDigest) is the hash stored as `stored` (hex), compared in constant time. */
export function hashMatches(digest: Buffer, stored: string): boolean {
  const x = Buffer.from(stored, "hex");
  return x.length === digest.length && timingSafeEqual(x, digest);
}

export function isValidOtpSecret(secret: string): boolean {
  try {
    return Secret.fromBase32(secret).bytes.length >= 10;
  } catch {
    return false;
  }
}

/** A new random TOTP secret, base32. */
export function newOtpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secret: string, label?: string): TOTP {
  return new TOTP({
    issuer: "feedgate",
    label,
    secret: Secret.fromBase32(secret),
    algorithm: "SHA1",
    digits: 6,
    period: 30,
  });
}

/** The `otpauth://totp/feedgate:<login>?...` URI that authenticator apps read, usually from a QR code of it. */
export function otpUri(secret: string, login: string): string {
  return totp(secret, login).toString();
}

/** RFC 6238 check, one 30-second step of clock drift either way; otpauth compares in constant time. */
export function verifyOtp(secret: string, code: string, now: Date): boolean {
  if (!/^[0-9]{6}$/.test(code)) return false;
  return totp(secret).validate({ token: code, timestamp: now.getTime(), window: 1 }) !== null;
}

/** The code at `now` (the clock the checking side reads), for tests and clients that sign in. */
export function currentOtp(secret: string, now: Date): string {
  return totp(secret).generate({ timestamp: now.getTime() });
}
