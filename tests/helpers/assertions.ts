/** Small shared test tools: parsing what the server sends, and differences kept as data. */
import assert from "node:assert/strict";

/** Parses `Link` into {rel: url}, keeping the header's relation order in the keys; a malformed part fails the test. */
export function links(header: string | string[] | number | undefined): Record<string, string> {
  if (header === undefined) return {};
  const out: Record<string, string> = {};
  for (const part of String(header).split(", ")) {
    const match = /^<([^>]+)>; rel="(\w+)"$/.exec(part);
    assert.ok(match, `malformed Link part: ${part}`);
    out[match[2]!] = match[1]!;
  }
  return out;
}

/** A difference from a GitHub recording that is right by design, with the reason. */
export interface KnownDifference {
  interaction: string;
  difference: string;
  reason: string;
}

/** One difference, for several interactions. */
export const each = (difference: string, reason: string, interactions: string[]): KnownDifference[] =>
  interactions.map((interaction) => ({ interaction, difference, reason }));

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** How two objects' key sets differ, as a sentence; null when they have the same keys. */
export function keyDifference(github: unknown, served: unknown): string | null {
  const a = Object.keys(isObject(github) ? github : {});
  const b = Object.keys(isObject(served) ? served : {});
  const githubOnly = a.filter((k) => !b.includes(k));
  const servedOnly = b.filter((k) => !a.includes(k));
  if (githubOnly.length === 0 && servedOnly.length === 0) return null;
  return `differ: GitHub-only [${githubOnly.join(", ")}], feedgate-only [${servedOnly.join(", ")}]`;
}
