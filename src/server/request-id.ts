/**
 * GitHub-style request ids, five hex groups (e.g. `FD86:235B:234198C:41EAB8B:5BB12844`): three drawn at random once
 * per process, so that instances and restarts do not repeat each other's, then a counter. An id must be unique,
 * not secret, and a CSPRNG call per request was 6% of a 304 poll's CPU. Every answer takes one, whether Fastify
 * answers it or it is a repeated answer (./repeats/).
 */
import { randomBytes } from "node:crypto";

const PROCESS_ID_PART = randomBytes(6)
  .toString("hex")
  .toUpperCase()
  .replace(/(.{4})(?!$)/g, "$1:");
let requestSequence = 0;

export function requestId(): string {
  const n = ++requestSequence; // exact up to 2^53, far beyond any process's lifetime of requests
  const high = Math.floor(n / 0x1_0000_0000)
    .toString(16)
    .toUpperCase();
  const low = (n >>> 0).toString(16).toUpperCase();
  return `${PROCESS_ID_PART}:${high}:${low}`;
}
