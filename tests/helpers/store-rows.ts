/**
 * The rows the store contract suites write: fixed times, login users and tokens. A token's last eight characters
 * differ from token to token, as the store's lookup by them expects.
 */
import { hashToken, setPasswordCost } from "../../src/server/services/credentials.js";
import { TEST_PASSWORD_COST } from "./password-cost.js";

// The worlds the suites apply hash their users' passwords: at the production cost that is most of a suite's time.
setPasswordCost(TEST_PASSWORD_COST);

export const NOW = new Date("2026-01-15T10:00:00Z");
/** An ingest result's counts of accounts, repositories and tokens when a batch names only stored ones. */
export const NOTHING_ELSE_ADDED = { usersAdded: 0, organizationsAdded: 0, reposAdded: 0, tokensAdded: 0 };
export const LATER = new Date("2026-01-15T11:30:00Z");
export const HASH = "scrypt$not-a-real-hash";
export const newUser = (login: string, extra: { siteAdmin?: boolean; otpSecret?: string } = {}) => ({
  login,
  passwordHash: HASH,
  otpSecret: extra.otpSecret ?? null,
  siteAdmin: extra.siteAdmin ?? false,
});
/** 40 hex characters whose last eight differ from token to token. */
export const token = (n: number) => `${"ab".repeat(16)}${String(n).padStart(8, "0")}`;
export const newAuthorization = (
  userId: number,
  n: number,
  extra: Partial<{ scopes: string[]; note: string | null; lastEight: string; expiresAt: Date | null }> = {},
) => ({
  userId,
  hashedToken: hashToken(token(n)),
  tokenLastEight: extra.lastEight ?? token(n).slice(-8),
  scopes: extra.scopes ?? ["repo"],
  note: extra.note === undefined ? `note ${n}` : extra.note,
  noteUrl: null,
  fingerprint: null,
  expiresAt: extra.expiresAt ?? null,
});
