/**
 * The demo account `npm start` creates on a fresh database, so a newcomer can curl at once.
 * Its password and token are random and printed once; nothing else ever shows them.
 */
import { randomBytes } from "node:crypto";
import type { Store } from "../store/store.js";
import { AuthorizationService } from "./authorizations.js";
import { createAccount } from "./users.js";

export const DEMO_LOGIN = "demo";
const DEMO_SCOPES = ["repo", "user", "read:org"];

export interface DemoCredentials {
  login: string;
  password: string;
  token: string;
}

/** Creates the demo account when the database has no users yet; null when it already had some. */
export async function ensureDemoAccount(store: Store, clock: () => Date = () => new Date()): Promise<DemoCredentials | null> {
  if ((await store.users.count()) > 0) return null;
  const password = randomBytes(12).toString("base64url");
  const user = await createAccount(store, { login: DEMO_LOGIN, password });
  const { token } = await new AuthorizationService(store, clock).issue(user, {
    scopes: DEMO_SCOPES, note: "demo token", noteUrl: null, fingerprint: null,
  });
  return { login: DEMO_LOGIN, password, token };
}
