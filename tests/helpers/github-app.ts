/** A GitHub App registered on a test app, with the private key its tests sign JWTs with. */
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { SignJWT, type JWTPayload } from "jose";
import { AppRegistry, type AppRegistration } from "../../src/server/services/apps/app-registry.js";
import type { AppRow } from "../../src/server/store/store.js";
import type { TestApp } from "./test-app.js";

export interface RegisteredApp {
  app: AppRow;
  privateKey: KeyObject;
  pem: string;
  /** A JWT as Octokit makes one (`iat` 30 s back, `exp` ten minutes on), by the test's clock, or with other claims. */
  jwt(claims?: Record<string, unknown>, key?: KeyObject): Promise<string>;
  install(account: string, repositories?: string[]): ReturnType<AppRegistry["install"]>;
}

export async function registerApp(
  t: TestApp,
  registration: Partial<AppRegistration> & Pick<AppRegistration, "owner">,
): Promise<RegisteredApp> {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const registry = new AppRegistry(t.store, t.clock.now);
  const app = await registry.register({
    name: "Issue Bot",
    permissions: { issues: "write" },
    events: ["issues"],
    ...registration,
    key: pem,
  });
  return {
    app,
    privateKey,
    pem,
    async jwt(claims = {}, key = privateKey) {
      const now = Math.floor(t.clock.now().getTime() / 1000);
      // Octokit sends `iss` as the number it was given; jose types it as a string.
      return new SignJWT({ iat: now - 30, exp: now + 570, iss: app.id, ...claims } as unknown as JWTPayload)
        .setProtectedHeader({ alg: "RS256", typ: "JWT" })
        .sign(key);
    },
    install: (account, repositories) => registry.install(app, account, repositories),
  };
}
