/**
 * A real feedgate listening on 127.0.0.1 (a free port) over a real SQLite file, seeded with the client
 * world: what the SDK and the CLI's client commands are tested against, through real HTTP.
 */
import { IngestService } from "../../src/server/services/ingest.js";
import type { ConfigInput } from "../../src/server/config.js";
import type { AppDependencies } from "../../src/server/app.js";
import { startTestApp, type TestApp, type TestClock } from "./test-app.js";
import { WORLD } from "./client-world.js";

export interface ListeningApp extends TestApp {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Adds events and more while the server runs. */
  ingest: IngestService;
}

/**
 * @param logger a pino instance to capture log lines in; without one the app logs nothing.
 * @param repeatAnswers false: every request through Fastify's pipeline (tests comparing with repeated answers).
 */
export async function startListeningApp(
  config: ConfigInput = {},
  clock?: TestClock,
  logger?: AppDependencies["logger"],
  repeatAnswers = true,
): Promise<ListeningApp> {
  // The tests make many anonymous requests from one IP; GitHub's 60 an hour would end them early.
  const t = await startTestApp({ rateLimitAnonymous: 100_000, ...config }, clock, logger, repeatAnswers);
  const ingest = new IngestService(t.store, t.clock.now);
  await ingest.seedWorld(WORLD, { baseDir: undefined });
  const url = await t.app.listen({ port: 0, host: "127.0.0.1" });
  return { ...t, url, ingest };
}
