/**
 * The feeds of the spec (4.2) as the client world (tests/helpers/client-world.ts) answers them to alice, who may
 * read her private events: each client test calls its own method for every row and must get these first pages.
 */
import { BOB_EVENT, FORK, HELLO_IDS, HELLO_PUSHES, ORG_EVENT, PRIVATE } from "../helpers/client-world.js";
import type { SchemaName } from "./schemas.js";
import type { FeedName, FeedParams } from "../../src/server/services/feeds.js";

/** The spec's operation names, from the endpoint table. */
export type FeedOperation = FeedName;

export interface FeedCase {
  /** The spec's operation name (node-github's method name). */
  operation: FeedOperation;
  params: FeedParams;
  /** The first page (30 by default), newest first. */
  ids: string[];
  schema: SchemaName;
}

const pushesNewestFirst = HELLO_PUSHES.map((e) => e.id).reverse();

export const FEEDS: FeedCase[] = [
  { operation: "get", params: {}, ids: [BOB_EVENT.id, ORG_EVENT.id, ...HELLO_IDS].slice(0, 30), schema: "event" },
  { operation: "getFromRepo", params: { user: "alice", repo: "hello" }, ids: HELLO_IDS.slice(0, 30), schema: "event" },
  {
    operation: "getFromRepoIssues",
    params: { user: "alice", repo: "hello" },
    ids: ["13", "12", "11"],
    schema: "issue-event",
  },
  {
    operation: "getFromRepoNetwork",
    params: { user: "alice", repo: "hello" },
    ids: HELLO_IDS.slice(0, 30),
    schema: "event",
  },
  { operation: "getFromOrg", params: { org: "acme" }, ids: [ORG_EVENT.id], schema: "event" },
  // alice follows bob and watches bob/tools.
  { operation: "getReceived", params: { user: "alice" }, ids: [BOB_EVENT.id, FORK.id], schema: "event" },
  { operation: "getReceivedPublic", params: { user: "alice" }, ids: [BOB_EVENT.id, FORK.id], schema: "event" },
  {
    operation: "getFromUser",
    params: { user: "alice" },
    ids: [PRIVATE.id, ...pushesNewestFirst].slice(0, 30),
    schema: "event",
  },
  { operation: "getFromUserPublic", params: { user: "alice" }, ids: pushesNewestFirst.slice(0, 30), schema: "event" },
  { operation: "getFromUserOrg", params: { user: "alice", org: "acme" }, ids: [ORG_EVENT.id], schema: "event" },
];

/** The multi-page feed: alice/hello's 46 events, five pages of ten. */
export const PAGED = { user: "alice", repo: "hello", perPage: 10, ids: HELLO_IDS } as const;

/** The ids of a list, as strings (GitHub sent some as numbers). */
export const ids = (items: readonly unknown[]) => items.map((item) => String((item as { id: unknown }).id));
