/**
 * The ingest protocol: the primitive operations an ingest program yields, the answer each one gets, and how a
 * program is run against a driver that answers them. The rules that make the program (ingest-plan.ts) and the
 * walk over a batch (ingest-walk.ts) both speak it; each store driver answers it (sqlite/ingest.ts answers at once
 * inside one better-sqlite3 transaction, postgres/ingest.ts with queries on one client inside BEGIN/COMMIT).
 */
import type { EventText, IngestResult } from "./ingest-store.js";
import type { AccountType } from "./user-store.js";
import type { OrgRole } from "./directory-store.js";

export interface AccountRecord {
  id: number;
  type: AccountType;
  passwordHash: string | null;
  externalId: number | null;
}
export interface RepoRecord {
  id: number;
  networkId: number;
  externalId: number | null;
  private: boolean;
}

export interface NewAccount {
  login: string;
  type: AccountType;
  externalId: number | null;
}
export interface RepoKey {
  ownerId: number;
  name: string;
}
export interface NewRepo extends RepoKey {
  externalId: number | null;
}
export interface Pair {
  a: number;
  b: number;
}

export interface EventRow {
  id: string;
  type: string;
  actorId: number;
  repoId: number | null;
  orgId: number | null;
  public: boolean;
  createdAt: number;
  complete: boolean;
  body: EventText;
}

/** An active hook an event of `repoId` may be delivered to. */
export interface HookTarget {
  repoId: number;
  hookId: number;
  events: string[];
  queued: number;
  /** An app's hook: the installation the repository's deliveries are for; null for repository and organization hooks. */
  installationId: number | null;
}
export interface QueuedEventDelivery {
  hookId: number;
  guid: string;
  event: string;
  eventId: string;
  installationId: number | null;
}

export interface IssueEventRow {
  id: string;
  repoId: number;
  actorId: number | null;
  createdAt: number;
  complete: boolean;
  body: string;
}

/**
 * The primitive operations a driver answers; each `yield` gets the result `IngestResults` names (nothing for the
 * rest). Bulk operations answer with one entry per input, in the input's order.
 */
export type IngestOp =
  | { op: "findAccounts"; logins: string[] } // (AccountRecord | null)[], matched case-insensitively
  | { op: "insertAccounts"; rows: NewAccount[]; now: Date } // number[] (ids)
  | { op: "setPassword"; id: number; passwordHash: string }
  | { op: "setOtpSecret"; id: number; otpSecret: string | null }
  | { op: "setSiteAdmin"; id: number; siteAdmin: boolean }
  // Fields absent are left as they are; updated_at moves to `now` only when one changes (users.ts's SET_PROFILE).
  | { op: "setProfile"; id: number; email: string | null; blog: string | null; billingEmail: string | null; now: Date }
  | { op: "findRepos"; keys: RepoKey[] } // (RepoRecord | null)[], names matched case-insensitively
  | { op: "insertRepos"; rows: NewRepo[] } // number[] (ids; each repository the root of its own network)
  // The writes below change nothing the plan reads back, so they are gathered and sent once, at the end,
  // each its final value. a/b: account/GitHub id, repository/GitHub id, repository/private (1 or 0),
  // fork/parent, network/network it moves into (no target is also moved), org/member, follower/followee,
  // user/repository, repository/collaborator.
  | { op: "makeOrganizations"; ids: number[] }
  | { op: "setAccountExternalIds"; pairs: Pair[] }
  | { op: "setRepoExternalIds"; pairs: Pair[] }
  | { op: "setPrivate"; pairs: Pair[] }
  | { op: "setParents"; pairs: Pair[] }
  | { op: "moveNetworks"; pairs: Pair[] }
  | { op: "addMembers"; role: OrgRole; pairs: Pair[] } // a membership stored already takes the role
  | { op: "addFollows"; pairs: Pair[] }
  | { op: "addWatches"; pairs: Pair[] }
  | { op: "addCollaborators"; pairs: Pair[] }
  | { op: "removeCollaborators"; pairs: Pair[] }
  | { op: "tokenOwner"; hashedToken: string } // number (user id) | null
  | {
      op: "insertToken";
      userId: number;
      hashedToken: string;
      tokenLastEight: string;
      scopes: string[];
      note: string | null;
      now: Date;
    }
  | { op: "insertEvents"; rows: EventRow[] } // string[]: the ids of the rows added (the others were stored already)
  // The active hooks of these repositories and of their owning organizations, with their queues' lengths.
  | { op: "findHookTargets"; repoIds: number[] } // HookTarget[]
  | { op: "queueDeliveries"; rows: QueuedEventDelivery[]; now: Date }
  | { op: "insertIssueEvents"; rows: IssueEventRow[] } // number added
  | { op: "raiseGeneration"; oldestEvent: number | null; oldestIssueEvent: number | null }; // and logs the ingest

/** What the operations that answer something answer. */
export interface IngestResults {
  findAccounts: (AccountRecord | null)[]; // matched case-insensitively
  insertAccounts: number[]; // ids
  findRepos: (RepoRecord | null)[]; // names matched case-insensitively
  insertRepos: number[]; // ids; each repository the root of its own network
  tokenOwner: number | null; // user id
  insertEvents: string[]; // ids added
  findHookTargets: HookTarget[];
  insertIssueEvents: number; // added
}

export type IngestOpName = IngestOp["op"];
export type OpOf<N extends IngestOpName> = Extract<IngestOp, { op: N }>;
// biome-ignore lint/suspicious/noConfusingVoidType: an operation without an answer is a handler returning nothing
export type ResultOf<N extends IngestOpName> = N extends keyof IngestResults ? IngestResults[N] : void;

/**
 * A driver: one handler per operation, each typed with that operation's result, so a driver that answers the wrong
 * shape does not compile. SQLite's handlers answer at once, PostgreSQL's with promises.
 */
export type IngestDriver = { [N in IngestOpName]: (op: OpOf<N>) => ResultOf<N> };
export type AsyncIngestDriver = { [N in IngestOpName]: (op: OpOf<N>) => Promise<ResultOf<N>> };

export type IngestProgram = Generator<IngestOp, IngestResult, unknown>;
/** A part of a program: yields operations, gets their answers, and ends with a `T`. */
export type Step<T> = Generator<IngestOp, T, unknown>;

/**
 * One operation's answer, typed by the operation. A generator's `next` carries one type for every yield, so the
 * answer is narrowed here, once; the drivers that produce it are typed per operation (IngestDriver).
 */
export function* ask<N extends IngestOpName>(op: OpOf<N>): Step<ResultOf<N>> {
  return (yield op) as ResultOf<N>;
}

/** The handler of `op` in `driver`, called with it (indexing a mapped type by a union loses the pairing). */
const handle = <D extends Record<IngestOpName, (op: never) => unknown>>(driver: D, op: IngestOp) =>
  (driver[op.op] as (op: IngestOp) => ReturnType<D[IngestOpName]>)(op);

/** Runs a program to its end against a driver that answers at once (inside the caller's transaction). */
export function runProgram(program: IngestProgram, driver: IngestDriver): IngestResult {
  let step = program.next();
  while (!step.done) step = program.next(handle(driver, step.value));
  return step.value;
}

/** Runs a program to its end against a driver that answers with promises (inside the caller's transaction). */
export async function runProgramAsync(program: IngestProgram, driver: AsyncIngestDriver): Promise<IngestResult> {
  let step = program.next();
  while (!step.done) step = program.next(await handle(driver, step.value));
  return step.value;
}
