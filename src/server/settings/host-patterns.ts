/**
 * `--webhook-allowed-hosts` as data: host names, IP addresses and CIDRs. Checked here, where the settings are read,
 * so that a bad entry stops the start; webhooks/address-policy.ts builds the policy deliveries are checked against.
 */
import { isIP } from "node:net";
import type { Parser } from "./setting.js";
import { InvalidInputError } from "../failures.js";

/** The entries of a comma-separated list; throws on one that is neither a host name, an address nor a CIDR. */
export function hostPatterns(value: string): string[] {
  const entries = value
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address, prefix, extra] = entry.split("/");
    const family = isIP(address ?? "");
    const validName = /^[A-Za-z0-9.-]+$/.test(entry);
    const validCidr =
      family !== 0 &&
      extra === undefined &&
      (prefix === undefined || (/^[0-9]+$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32)));
    if (!validName && !validCidr) throw new InvalidInputError(`"${entry}" is not a host name, an IP address or a CIDR`);
  }
  return entries;
}

/** Blank (spaces only) is no list at all: every host. */
export const allowedHosts: Parser<string[] | null> = (raw, { name }) => {
  if (String(raw).trim() === "") return null;
  try {
    return hostPatterns(String(raw));
  } catch (error) {
    throw new InvalidInputError(`${name}: ${(error as Error).message}`);
  }
};
