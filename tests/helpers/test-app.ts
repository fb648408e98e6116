/**
 * A real feedgate app on a real store, driven through `app.inject()`: a fresh database of the driver
 * FEEDGATE_TEST_STORE names (a SQLite file by default; PostgreSQL in the driver matrix run of `npm test`), dropped
 * again on close. Tests create their users and tokens through the services the CLI uses.
 */
import type { FastifyInstance } from "fastify";
import { buildApp, type AppDependencies } from "../../src/server/app.js";
import { loadConfig, type ConfigInput } from "../../src/server/config.js";
import { openStore, testDriver, type TestDatabase } from "./store-drivers.js";
import { TEST_PASSWORD_COST } from "./password-cost.js";

export { TEST_PASSWORD_COST };
import type { Store, UserRow } from "../../src/server/store/store.js";
import { hashPassword, setPasswordCost } from "../../src/server/services/credentials.js";
import { AuthorizationService } from "../../src/server/services/authorizations.js";
import { normalize } from "../../src/api/scopes.js";
import { ManualClock } from "../../src/server/clock.js";

/**
 * The server's movable clock, standing still at a fixed time until a test sets or advances it; `running` for tests
 * that wait on real time passing (webhook retries, backoff of a few milliseconds).
 */
export class TestClock extends ManualClock {
  constructor(start = new Date("2026-01-15T10:00:00Z"), running = false) {
    super(start, running);
  }

  get current(): Date {
    return this.now();
  }
}

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  clock: TestClock;
  /** The SQLite file, or the PostgreSQL URL. */
  dbPath: string;
  createUser(login: string, password: string, options?: { otpSecret?: string; siteAdmin?: boolean }): Promise<UserRow>;
  /** Issues a token for the user; returns its value and authorization id. */
  createToken(user: UserRow, scopes?: string[], note?: string): Promise<{ token: string; id: string }>;
  close(): Promise<void>;
}

export function basic(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}`;
}

/**
 * @param logger a pino instance to capture log lines in; without one the app logs nothing (`logLevel: "silent"`).
 * @param repeatAnswers false: every request through Fastify's pipeline (tests comparing with repeated answers).
 */
export async function startTestApp(
  config: ConfigInput = {},
  clock = new TestClock(),
  logger?: AppDependencies["logger"],
  repeatAnswers = true,
): Promise<TestApp> {
  return startOn(await testDriver().create(), config, clock, logger, repeatAnswers);
}

/**
 * startTestApp on a scratch database (store-drivers.ts, createScratch): for tests that start an app per case and
 * check what it answers, not how it keeps its file (on PostgreSQL, the same as startTestApp).
 */
export async function startScratchApp(config: ConfigInput = {}, clock = new TestClock()): Promise<TestApp> {
  return startOn(await testDriver().createScratch(), config, clock);
}

async function startOn(
  database: TestDatabase,
  config: ConfigInput,
  clock: TestClock,
  logger?: AppDependencies["logger"],
  repeatAnswers = true,
): Promise<TestApp> {
  const dbPath = database.db;
  const store = await openStore(dbPath);
  const appConfig = loadConfig({ db: dbPath, logLevel: "silent", passwordCost: TEST_PASSWORD_COST, ...config }, {});
  setPasswordCost(appConfig.passwordCost); // as startServer does
  const app = await buildApp({ config: appConfig, store, clock, logger, repeatAnswers });
  const authorizations = new AuthorizationService(store, clock.now);
  return {
    app,
    store,
    clock,
    dbPath,
    async createUser(login, password, options = {}) {
      return store.users.create({
        login,
        passwordHash: await hashPassword(password),
        otpSecret: options.otpSecret ?? null,
        siteAdmin: options.siteAdmin ?? false,
      });
    },
    async createToken(user, scopes = [], note = "test") {
      const { row, token } = await authorizations.issue(user, {
        scopes: normalize(scopes),
        note,
        noteUrl: null,
        fingerprint: null,
      });
      return { token, id: String(row.id) };
    },
    async close() {
      await app.close();
      await store.close();
      await database.drop();
    },
  };
}
