/**
 * feedgate/testing: feedgate as a GitHub test double inside a test suite. See docs/testing.md.
 *
 *   await using fg = await startFeedgate({ world: "test/world.json", now: "2026-01-01T00:00:00Z" });
 *   const octokit = new Octokit({ baseUrl: fg.url, auth: await fg.token("octocat") });
 */
export {
  startFeedgate,
  type Faults,
  type Feedgate,
  type FeedgateOptions,
  type FineGrainedTokenOptions,
  type Snapshot,
} from "./start.js";
export type { AppOptions, TestApp } from "./apps.js";
export type { DeliveryFilter, ReceivedDelivery, Receiver } from "./receiver.js";
export type { Fetch } from "./in-process-fetch.js";
export type { Interception } from "./intercept.js";
export type { OAuthAppOptions, TestOAuthApp } from "./oauth.js";
export type { Fault, FaultSpec } from "../server/services/faults.js";
