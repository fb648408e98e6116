/**
 * Flags and environment -> one typed Config, read through the settings table (settings/table.ts), which is the one
 * place a setting is written. Flags win over the environment, which wins over defaults. Imports nothing of the
 * server's but the settings (and, through them, failures.ts, which imports nothing), so that any part of the server,
 * and the CLI, may import it without an import circle.
 */
import { readSettings, type Environment } from "./settings/read.js";
import type { InputOf, Values } from "./settings/setting.js";
import { SETTINGS } from "./settings/table.js";

export {
  DEFAULT_DB,
  IN_MEMORY_DB,
  DEFAULT_PASSWORD_COST,
  LOWEST_PASSWORD_COST,
  DEFAULT_WEBHOOK_MAX_QUEUE,
  SETTINGS,
} from "./settings/table.js";
export type { LogFormat } from "./settings/parsers.js";

/** Every setting, nested as the table groups them (`config.rateLimit.authenticated`); see each row for its meaning. */
export type Config = Values<typeof SETTINGS>;

/** What flags give, by commander's names (`rateLimitWindow`); numbers and booleans as tests give them. */
export type ConfigInput = InputOf<typeof SETTINGS>;

/**
 * The heartbeat, never as long as half the idle timeout, which would otherwise close a quiet stream between two
 * heartbeats.
 */
function cappedHeartbeatMs(askedMs: number, idleMs: number): number {
  return idleMs > 0 ? Math.min(askedMs, Math.max(1, Math.floor(idleMs / 2))) : askedMs;
}

export function loadConfig(input: ConfigInput = {}, env: Environment = process.env): Config {
  const config = readSettings(SETTINGS, input, env);
  config.streams.heartbeatMs = cappedHeartbeatMs(config.streams.heartbeatMs, config.timeouts.idleMs);
  return config;
}
