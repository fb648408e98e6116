/** Account administration shared by the CLI, the demo and (later) the world file: validation, then the store. */
import type { Store, UserRow } from "../store/store.js";
import { hashPassword, isValidOtpSecret, newOtpSecret } from "./credentials.js";
import { InvalidInputError } from "../failures.js";
import { DuplicateError } from "../store/duplicate-error.js";

/** GitHub's login rule: letters, digits and single inner hyphens, at most 39 characters. */
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;

export interface NewAccount {
  login: string;
  password: string;
  otpSecret?: string | undefined;
  siteAdmin?: boolean | undefined;
}

export function checkLogin(login: string): void {
  if (!LOGIN.test(login)) {
    throw new InvalidInputError(
      `"${login}" is not a valid login: use letters, digits and single hyphens (at most 39 characters)`,
    );
  }
}

export function checkPassword(password: string): void {
  if (password.length === 0) throw new InvalidInputError("the password must not be empty");
}

export async function createAccount(store: Store, account: NewAccount): Promise<UserRow> {
  checkLogin(account.login);
  checkPassword(account.password);
  const otpSecret = account.otpSecret?.replace(/\s+/g, "").toUpperCase() || null;
  if (otpSecret && !isValidOtpSecret(otpSecret)) {
    throw new InvalidInputError("the OTP secret must be base32 of at least 10 bytes (16 or more characters)");
  }
  return store.users.create({
    login: account.login,
    passwordHash: await hashPassword(account.password),
    otpSecret,
    siteAdmin: account.siteAdmin ?? false,
  });
}

/**
 * The site administrator `serve --admin` asks for: created with that password while the login is free (an account
 * only imported data names is claimed, as `user add` claims it); an account that exists already is left as it is,
 * its password included, so that a restart with the same flag never undoes a password changed since.
 * @returns whether it was created.
 */
export async function ensureSiteAdmin(store: Store, login: string, password: string): Promise<boolean> {
  try {
    await createAccount(store, { login, password, siteAdmin: true });
    return true;
  } catch (error) {
    if (error instanceof DuplicateError) return false;
    throw error;
  }
}

/** The user an administrator names; an unknown login or an organization is the operator's mistake, with the fix. */
export async function requireUser(store: Store, login: string): Promise<UserRow> {
  const user = await store.users.findByLogin(login);
  if (!user) throw new InvalidInputError(`no user "${login}": \`feedgate user list\` shows the users`);
  if (user.type !== "User") throw new InvalidInputError(`"${user.login}" is an organization, not a user`);
  return user;
}

export async function changePassword(store: Store, login: string, password: string): Promise<void> {
  checkPassword(password);
  const user = await requireUser(store, login);
  await store.users.setPassword(user.id, await hashPassword(password));
}

/** Gives the user a new TOTP secret, replacing any other; the caller shows it to the user once. */
export async function resetTwoFactor(store: Store, login: string): Promise<{ user: UserRow; secret: string }> {
  const user = await requireUser(store, login);
  const secret = newOtpSecret();
  await store.users.setOtpSecret(user.id, secret);
  return { user, secret };
}

export async function removeTwoFactor(store: Store, login: string): Promise<UserRow> {
  const user = await requireUser(store, login);
  await store.users.setOtpSecret(user.id, null);
  return user;
}

/**
 * Suspends (a time) or reinstates (null) the user; an account already in that state keeps its suspension time.
 * Returns the user as it was before.
 */
export async function setSuspension(store: Store, login: string, at: Date | null): Promise<UserRow> {
  const user = await requireUser(store, login);
  if ((user.suspendedAt === null) !== (at === null)) await store.users.setSuspended(user.id, at);
  return user;
}
