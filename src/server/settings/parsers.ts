/**
 * How a setting's value is read from what an operator typed. Each throws one InvalidInputError naming the setting,
 * which the CLI prints as one line. (../failures.ts imports nothing, so the settings stay a leaf of the server.)
 */
import type { Named, Parser, Raw } from "./setting.js";
import { InvalidInputError } from "../failures.js";

export const text: Parser<string> = (raw) => String(raw);

export const count: Parser<number> = (raw, { name }) => {
  const n = typeof raw === "number" ? raw : typeof raw === "string" ? Number(raw) : Number.NaN;
  if (!Number.isInteger(n) || n < 0)
    throw new InvalidInputError(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
};

/**
 * A TCP port to listen on, 0 (any free port) to 65535: checked here, where Node's listen() would throw a RangeError
 * whose words ("options.port should be >= 0 and < 65536") name neither the flag nor the variable.
 */
export const tcpPort: Parser<number> = (raw, { name, flag, env }) => {
  const n =
    typeof raw === "number" ? raw : typeof raw === "string" && /^\s*[0-9]+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(n) || n > 65_535) {
    throw new InvalidInputError(
      `${flag ? `${flag} (or ${env})` : name} must be a port from 0 to 65535 (0: any free port), got "${raw}"`,
    );
  }
  return n;
};

/** A count where 0 would mean nothing works (a pool of no connections, no delivery attempt). */
export const atLeastOne: Parser<number> = (raw, row) => {
  const n = count(raw, row);
  if (n === 0) throw new InvalidInputError(`${row.name} must be at least 1`);
  return n;
};

/** `--feed-cache-mb`: MiB in, bytes out. */
export const mebibytes: Parser<number> = (raw, row) => count(raw, row) * 1024 * 1024;

const MS_PER_UNIT: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Every duration setting, timeouts and `--feed-max-age` alike: `500ms`, `30s`, `2m`, `12h`, `30d`, or plain seconds. */
export const milliseconds: Parser<number> = (raw, { name }) => {
  const match = /^([0-9]+)(ms|s|m|h|d)?$/.exec(String(raw).trim());
  if (!match)
    throw new InvalidInputError(`${name} must be a duration such as 500ms, 30s, 2m, 12h or 30d, got "${raw}"`);
  return Number(match[1]) * MS_PER_UNIT[match[2] ?? "s"]!;
};

/** A duration in whole seconds. */
export const seconds: Parser<number> = (raw, row) => Math.floor(milliseconds(raw, row) / 1000);

/** A duration that cannot be 0 (a heartbeat every 0 ms would be a busy loop). */
export const longerThanZero: Parser<number> = (raw, row) => {
  const ms = milliseconds(raw, row);
  if (ms === 0) throw new InvalidInputError(`${row.name} must be longer than 0`);
  return ms;
};

/** The shortest retention taken: anything shorter is a typo (`30s` for `30d`) that would wipe what it keeps. */
const SHORTEST_RETENTION_MS = 60_000;

/** A retention: `off` (kept for ever, null) or a duration of at least a minute (`30d`). */
export const retention: Parser<number | null> = (raw, row) => {
  if (/^\s*off\s*$/i.test(String(raw))) return null;
  const ms = milliseconds(raw, row);
  if (ms < SHORTEST_RETENTION_MS) {
    throw new InvalidInputError(`${row.name} must be off or at least 1m (a minute), such as 30d, got "${raw}"`);
  }
  return ms;
};

/**
 * A switch given as a flag (true) or in the environment: `true`/`1`/`yes` or `false`/`0`/`no`. Only the environment
 * can give a word that is neither, so the error names the variable.
 */
export const onOff: Parser<boolean> = (raw, { name, env }) => {
  if (typeof raw === "boolean") return raw;
  if (/^(true|1|yes|on)$/i.test(String(raw))) return true;
  if (/^(false|0|no|off)$/i.test(String(raw))) return false;
  throw new InvalidInputError(`${name} (${env}) must be true or false, got "${raw}"`);
};

/** `--trust-proxy`: true/false, a hop count, or a comma-separated list of addresses and CIDRs. */
export const trustProxy: Parser<boolean | number | string[]> = (raw) => {
  if (raw === false || raw === "false") return false;
  if (raw === true || raw === "true") return true;
  if (typeof raw === "number" || /^[0-9]+$/.test(raw)) return count(raw, { name: "trust proxy hop count", env: "" });
  const addresses = raw
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
  for (const address of addresses) {
    if (
      !/^[0-9A-Fa-f.:]+(\/[0-9]{1,3})?$/.test(address) &&
      !["loopback", "linklocal", "uniquelocal"].includes(address)
    ) {
      throw new InvalidInputError(
        `trust proxy must be true, false, a hop count, or addresses and CIDRs such as 10.0.0.0/8, got "${address}"`,
      );
    }
  }
  return addresses;
};

export type LogFormat = "json" | "pretty";

export const logFormat: Parser<LogFormat> = (raw, { name }) => {
  if (raw === "json" || raw === "pretty") return raw;
  throw new InvalidInputError(`${name} must be json or pretty, got "${raw}"`);
};

/** An integer from `min` to `max`; `unit` says what it counts, in the error. */
export function between(min: number, max: number, unit: string): Parser<number> {
  return (raw: Raw, row: Named) => {
    const n = count(raw, row);
    if (n < min || n > max)
      throw new InvalidInputError(`${row.name} must be from ${min} to ${max} (${unit}), got "${raw}"`);
    return n;
  };
}

/** An absolute URL without its trailing slashes; nonsense throws URL's own "Invalid URL". */
export const baseUrl: Parser<string> = (raw) => new URL(String(raw)).toString().replace(/\/+$/, "");

/** `--webhook-retries`: `durable` (retries with backoff, feedgate's default) or `github` (one attempt, as GitHub). */
export type WebhookRetries = "durable" | "github";

export const webhookRetries: Parser<WebhookRetries> = (raw, { name }) => {
  if (raw === "durable" || raw === "github") return raw;
  throw new InvalidInputError(`${name} must be github or durable, got "${raw}"`);
};

/** A rate per second, fractions allowed (`0.5`: one every two seconds); 0 means no limit. */
export const perSecond: Parser<number> = (raw, { name }) => {
  const n =
    typeof raw === "number"
      ? raw
      : typeof raw === "string" && /^\s*[0-9]+(\.[0-9]+)?\s*$/.test(raw)
        ? Number(raw)
        : Number.NaN;
  if (!Number.isFinite(n) || n < 0)
    throw new InvalidInputError(`${name} must be a number of deliveries per second such as 10 or 0.5, got "${raw}"`);
  return n;
};

/** One PostgreSQL URL (of one host or several). */
export const postgresUrl: Parser<string> = (raw, { name }) => {
  const url = String(raw).trim();
  if (!/^postgres(ql)?:\/\//.test(url)) throw new InvalidInputError(`${name} must be a postgres:// URL, got "${url}"`);
  return url;
};

/**
 * PostgreSQL URLs separated by white space (a repeated flag's values are joined so: setting-options.ts). Commas
 * cannot separate them: a URL naming several hosts has commas of its own.
 */
export const urlList: Parser<string[]> = (raw, row) =>
  String(raw)
    .split(/\s+/)
    .filter(Boolean)
    .map((url) => postgresUrl(url, row));
