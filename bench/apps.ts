/**
 * The GitHub App rows (issue 44): a JWT-authenticated `GET /app` (feedgate checks the RS256 signature once per JWT
 * and remembers it until `exp`), a request with an installation token (`ghs_`), and minting one. Each against its own
 * ceiling, the bare node:http replay of the same answer, as every row. The app is registered on the bench's database
 * with the CLI, as a user would, and installed on the account of the busiest repository.
 */
import { createPrivateKey, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";
import { SignJWT } from "jose";
import type { Scenario } from "./load.js";
import { feedgate } from "./processes.js";

/** The rows' keys, for --only. */
export const APP_ROWS = ["app-jwt", "installation-token", "mint"];

export interface BenchApp {
  id: number;
  installationId: number;
  privateKey: KeyObject;
}

/** `feedgate app create` and `feedgate app install` on the database; a name of its own on a reused database. */
export async function registerBenchApp(db: string, dataDir: string, owner: string, account: string): Promise<BenchApp> {
  const keyFile = `${dataDir}/bench-app.pem`;
  const name = `Bench Bot ${Date.now()}`;
  const created = await feedgate([
    "app",
    "create",
    name,
    "--owner",
    owner,
    "--private-key-file",
    keyFile,
    "--permission",
    "metadata=read",
    "--permission",
    "issues=write",
    "--db",
    db,
  ]);
  const id = Number(/^id (\d+)$/m.exec(created.stdout)?.[1]);
  const installed = await feedgate(["app", "install", String(id), account, "--db", db]);
  const installationId = Number(/^installation (\d+)$/m.exec(installed.stdout)?.[1]);
  return { id, installationId, privateKey: createPrivateKey(readFileSync(keyFile)) };
}

/** A JWT as Octokit makes one: `iat` 30 s back, `exp` nine and a half minutes on (GitHub allows ten). */
async function jwtOf(app: BenchApp): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iat: now - 30, exp: now + 570, iss: String(app.id) })
    .setProtectedHeader({ alg: "RS256", typ: "JWT" })
    .sign(app.privateKey);
}

/** A fresh installation token for the app's installation. */
async function installationToken(serverUrl: string, app: BenchApp): Promise<string> {
  const response = await fetch(`${serverUrl}/app/installations/${app.installationId}/access_tokens`, {
    method: "POST",
    headers: { Authorization: `Bearer ${await jwtOf(app)}`, Accept: "application/vnd.github+json" },
  });
  if (response.status !== 201) throw new Error(`minting a token answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/**
 * The rows; their JWTs are made just before each is captured and run (`refresh`), since a JWT lives ten minutes and
 * a run is longer.
 */
export function appScenarios(serverUrl: string, app: BenchApp, topRepo: string): Scenario[] {
  const accept = { Accept: "application/vnd.github+json" };
  const withJwt = async () => ({ ...accept, Authorization: `Bearer ${await jwtOf(app)}` });
  // One token for the capture and the row: its answers carry its expiry, which a second token would change. It lives
  // an hour, longer than the capture and the rows take.
  let token: Promise<string> | undefined;
  return [
    {
      key: "app-jwt",
      label: "GET /app (GitHub App JWT)",
      target: "feedgate",
      method: "GET",
      path: "/app",
      headers: accept,
      refresh: withJwt,
      expect: 200,
    },
    {
      key: "installation-token",
      label: "GET /repos/:o/:r (installation token)",
      target: "feedgate",
      method: "GET",
      path: `/repos/${topRepo}`,
      headers: accept,
      refresh: async () => ({
        ...accept,
        Authorization: `token ${await (token ??= installationToken(serverUrl, app))}`,
      }),
      expect: 200,
    },
    {
      key: "mint",
      label: "POST /app/installations/:id/access_tokens (JWT)",
      target: "feedgate",
      method: "POST",
      path: `/app/installations/${app.installationId}/access_tokens`,
      headers: accept,
      refresh: withJwt,
      expect: 201,
    },
  ];
}
