/**
 * The hostile-input suite's world: the seeded users, tokens and authorizations (with cheap test password hashes), a
 * byte-for-byte snapshot of the stored users and authorizations, and every route the server registers.
 */
import { randomBytes, scryptSync } from "node:crypto";
import Database from "better-sqlite3";
import pg from "pg";
import type { FastifyInstance } from "fastify";
import { startTestApp, type TestApp } from "./test-app.js";
import { ALICE, ALICE_PUBLIC_TOKEN, ALICE_TOKEN, BOB_TOKEN, OLGA, OTP_SECRET, UNICODE, WORLD } from "./client-world.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { currentOtp } from "../../src/server/services/credentials.js";
import { endpoints, type Endpoint } from "../../src/api/endpoints.js";

// ---------------------------------------------------------------------------------------------------------------
// The world: users with passwords (one with two-factor auth, one site admin), tokens with scopes, a private
// repository, an organization and events, so that authenticated requests reach the handlers and the store.

const BOB = { login: "bob", password: "bob-password" };
export const ROOT = { login: "root", password: "root-password" };
/** root's tokens: one that may ingest (`site_admin`), one that may not. */
export const ROOT_ADMIN_TOKEN = "7007000000000000000000000000000000000001";
const ROOT_REPO_TOKEN = "7007000000000000000000000000000000000002";
export const PASSWORD_USERS = [ALICE, BOB, UNICODE, ROOT];
export const LOGINS = ["alice", "bob", "olga", "zoe", "root", "acme", "ALICE", "nobody"];

const HOSTILE_WORLD = {
  ...WORLD,
  users: [...WORLD.users, { ...ROOT, site_admin: true }],
  tokens: [
    ...WORLD.tokens,
    { user: "root", token: ROOT_ADMIN_TOKEN, scopes: ["site_admin"], note: "root admin" },
    { user: "root", token: ROOT_REPO_TOKEN, scopes: ["repo"], note: "root repo" },
  ],
};

/**
 * A password hash in the stored, self-describing `scrypt$N$r$p$salt$hash` form at a test cost (N = 16): the
 * production cost (~60 ms a check) would spend this suite's minute on a few hundred logins.
 */
export function cheapHash(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, 64, { N: 16, r: 8, p: 1 });
  return ["scrypt", 16, 8, 1, salt.toString("base64"), hash.toString("base64")].join("$");
}

export interface Seeded {
  t: TestApp;
  /** `http://127.0.0.1:<port>`, for the raw-socket requests. */
  url: string;
  port: number;
  /** Every token that authenticates: the world's 40-hex ones and minted `fgp_` ones. */
  tokens: string[];
  authorizationIds: number[];
  otp(): string;
}

export async function seed(): Promise<Seeded> {
  const t = await startTestApp({
    rateLimitAnonymous: 1_000_000_000,
    rateLimitAuthenticated: 1_000_000_000,
    loginMaxAttempts: 1_000_000_000,
  });
  await new IngestService(t.store, t.clock.now).seedWorld(HOSTILE_WORLD, { baseDir: undefined });
  for (const { login, password } of [...PASSWORD_USERS, OLGA]) {
    const user = await t.store.users.findByLogin(login);
    await t.store.users.setPassword(user!.id, cheapHash(password));
  }
  const alice = (await t.store.users.findByLogin("alice"))!;
  const root = (await t.store.users.findByLogin("root"))!;
  const minted = [
    (await t.createToken(alice, ["repo", "user"], "minted")).token,
    (await t.createToken(root, ["site_admin"], "minted")).token,
  ];
  const authorizationIds: number[] = [];
  for (const user of await t.store.users.list()) {
    authorizationIds.push(
      ...(await t.store.authorizations.list(user.id, { limit: 1000, offset: 0 })).rows.map((row) => row.id),
    );
  }
  const url = await t.app.listen({ port: 0, host: "127.0.0.1" });
  return {
    t,
    url,
    port: Number(new URL(url).port),
    authorizationIds,
    tokens: [ALICE_TOKEN, ALICE_PUBLIC_TOKEN, BOB_TOKEN, ROOT_ADMIN_TOKEN, ROOT_REPO_TOKEN, ...minted],
    otp: () => currentOtp(OTP_SECRET, t.clock.now()),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Stored users and authorizations, byte for byte.

/** A stored value as exact JSON: text whose bytes are not what its JS string encodes to, and blobs, as hex. */
function exact(type: string, value: unknown, hex: string): unknown {
  if (type === "null") return null;
  if (type === "integer") return String(value);
  if (
    type === "text" &&
    Buffer.from(value as string, "utf8")
      .toString("hex")
      .toUpperCase() === hex
  )
    return value;
  return `${type}:${hex}`;
}

/** Every row of `users` and `authorizations`, ordered by id; on PostgreSQL as `row_to_json` (text cannot hold bad bytes). */
export async function storedAccounts(db: string): Promise<Record<string, unknown[]>> {
  const tables = ["users", "authorizations"];
  if (/^postgres(ql)?:/.test(db)) {
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    try {
      const rows: Record<string, unknown[]> = {};
      for (const table of tables) {
        const result = await client.query<{ row: string }>(
          `SELECT row_to_json(t)::text AS row FROM ${table} t ORDER BY id`,
        );
        rows[table] = result.rows.map((r) => JSON.parse(r.row) as unknown);
      }
      return rows;
    } finally {
      await client.end();
    }
  }
  const sqlite = new Database(db, { readonly: true });
  try {
    sqlite.defaultSafeIntegers(true);
    const rows: Record<string, unknown[]> = {};
    for (const table of tables) {
      const columns = (sqlite.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
      const select = columns.map((c) => `"${c}", typeof("${c}") AS "${c}#type", hex("${c}") AS "${c}#hex"`).join(", ");
      rows[table] = (
        sqlite.prepare(`SELECT ${select} FROM ${table} ORDER BY id`).all() as Record<string, unknown>[]
      ).map((row) =>
        Object.fromEntries(columns.map((c) => [c, exact(String(row[`${c}#type`]), row[c], String(row[`${c}#hex`]))])),
      );
    }
    return rows;
  } finally {
    sqlite.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Routes: every one the server registers, read from `printRoutes()` so that routes added later are covered too.

export interface Route {
  method: string;
  path: string;
}

/**
 * `printRoutes()` draws one node a line, four columns an indent, with the node's methods in parentheses. It draws a
 * wildcard route's node without the static part before the `*` (`/git/ref/*` comes out as `*` under the repository),
 * so those are taken from the endpoint table instead, each checked with `hasRoute`.
 */
export function registeredRoutes(app: FastifyInstance): Route[] {
  const wildcards = Object.values(endpoints)
    .flatMap((family) => Object.values(family) as Endpoint[])
    .filter((row) => row.path.endsWith("*"))
    .flatMap((row) => {
      // A GET is served under HEAD too, a PATCH under POST (GitHub's alias).
      const methods = [row.method, ...(row.method === "GET" ? ["HEAD"] : row.method === "PATCH" ? ["POST"] : [])];
      return methods
        .filter((method) => app.hasRoute({ method, url: row.path }))
        .map((method) => ({ method, path: row.path }));
    });
  return [...printedRoutes(app).filter((route) => !route.path.includes("*")), ...wildcards];
}

function printedRoutes(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const parents: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split("\n")) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    parents.length = depth;
    const path = (parents[depth - 1] ?? "") + match[2]!;
    parents.push(path);
    for (const method of match[3]?.split(", ") ?? []) routes.push({ method, path });
  }
  return routes;
}

export const WRITE_METHODS = ["POST", "PATCH", "PUT", "DELETE"];
