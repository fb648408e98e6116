/** `feedgate serve`: migrate, listen, say so (./ready.ts), stop gracefully on SIGINT/SIGTERM. */
import type { AddressInfo } from "node:net";
import type { Command } from "commander";
import { IN_MEMORY_DB, loadConfig, SETTINGS } from "../server/config.js";
import { InvalidInputError } from "../server/failures.js";
import type { CliIo } from "./io.js";
import { settingOptions } from "./setting-options.js";
import { announceReady } from "./ready.js";
import { ADMIN_ENV, adminCredentials, prepareStore, type StartupWork } from "./serve-startup.js";
import { printDemoOutcome, type DemoOutcome } from "./demo-banner.js";
import { readWorldFile } from "./world-file.js";

/**
 * `--ephemeral` is `--db :memory:`, winning over FEEDGATE_DB as any flag does. Given with `--db` as well, one of the
 * two was a mistake, and guessing which could lose data or keep it: refused.
 */
function ephemeralDb(options: { ephemeral?: boolean; db?: string }): { db?: string } {
  if (!options.ephemeral) return {};
  if (options.db !== undefined) {
    throw new InvalidInputError(
      `--ephemeral and --db cannot be combined: --ephemeral is --db ${IN_MEMORY_DB}; give one of them`,
    );
  }
  return { db: IN_MEMORY_DB };
}

export function serveCommand(program: Command, io: CliIo): void {
  settingOptions(program.command("serve").description("start the HTTP service (migrates the database first)"), SETTINGS)
    .option("--demo", "on a fresh database, create a demo account and print its credentials")
    .option(
      "--ephemeral",
      `keep the database in memory (--db ${IN_MEMORY_DB}): nothing is written to disk, the webhook ` +
        "key included, and everything is gone when the server stops",
    )
    .option("--seed <world.json>", "load this world file (as feedgate seed does) before listening")
    .option(
      "--admin <login:password>",
      "before listening, create this site administrator, unless the login exists " +
        `(then it is left as it is, password included); ${ADMIN_ENV}=login:password does the same out of sight of the ` +
        "process list",
    )
    .action(async (options) => {
      // JSON stays the default for machines; a person at a terminal reads lines.
      const logFormat = options.logFormat || io.env[SETTINGS.logFormat.env] || (io.stdout.isTTY ? "pretty" : "json");
      const config = loadConfig({ ...options, logFormat, ...ephemeralDb(options) }, io.env);
      // Checked before the database is opened: a mistake in either is one line, and nothing is written.
      const work: StartupWork = {
        demo: Boolean(options.demo),
        admin: adminCredentials(options.admin, io.env),
        world: options.seed === undefined ? undefined : { file: options.seed, ...(await readWorldFile(options.seed)) },
      };
      // Loaded here, not at the top: the server (Fastify, the stores, every route) costs about a second of CPU to load,
      // which every other command, mostly short ones run from scripts, would pay for nothing.
      const { startServer } = await import("../server/main.js");
      let demo: DemoOutcome | null = null;
      const server = await startServer(config, {
        beforeListen: async (store, clock, sealSecret) => {
          const prepared = await prepareStore(store, clock, work, sealSecret);
          demo = prepared.demo;
          return prepared.notes;
        },
        exitOnSignals: true,
      });
      if (demo) printDemoOutcome(demo, config.baseUrl ?? server.url, config.db, io);
      const { port } = server.app.server.address() as AddressInfo;
      // A port file that cannot be written fails the start: the server is stopped, or it would run on unannounced.
      await announceReady({ url: server.url, port, metricsUrl: server.metricsUrl }, config.portFile, io).catch(
        async (error: unknown) => {
          await server.stop();
          throw error;
        },
      );
    });
}
