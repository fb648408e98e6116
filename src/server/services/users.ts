/** Account administration shared by the CLI, the demo and (later) the world file: validation, then the store. */
import type { Store, UserRow } from "../store/store.js";
import { hashPassword, isValidOtpSecret } from "./credentials.js";
import { InvalidInputError } from "../failures.js";

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
    throw new InvalidInputError(`"${login}" is not a valid login: use letters, digits and single hyphens (at most 39 characters)`);
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
    login: account.login, passwordHash: await hashPassword(account.password), otpSecret,
    siteAdmin: account.siteAdmin ?? false,
  });
}

export async function changePassword(store: Store, login: string, password: string): Promise<void> {
  checkPassword(password);
  const user = await store.users.findByLogin(login);
  if (!user) throw new InvalidInputError(`no user "${login}"`);
  await store.users.setPassword(user.id, await hashPassword(password));
}
