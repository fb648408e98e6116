/**
 * Every account and repository an ingest batch names, gathered by the walk that ingest-plan.ts applies the batch
 * with (ingest-walk.ts), so that a bulk insert can give each new one what applying the entries one by one would
 * have: the spelling of its first mention, the first GitHub id given, and "Organization" once any entry says so.
 */
import type { AccountType } from "./user-store.js";
import type {
  AccountUpsert,
  IngestBatch,
  NamedAccount,
  NamedRepo,
  Names,
  RepoUpsert,
  TokenInsert,
} from "./ingest-store.js";
import { walkBatch, type BatchTarget } from "./ingest-walk.js";

export type { NamedAccount, NamedRepo, Names };

/** The walk's first target: it only gathers names, with what each first mention gives; it hands out no ids. */
class NameGatherer implements BatchTarget {
  readonly accounts = new Map<string, NamedAccount>();
  readonly repos = new Map<string, NamedRepo>();

  /** `create`: false when only a token names the account, since a token never creates its user. */
  account(login: string, _source: string, type: AccountType = "User", externalId?: number, create = true): number {
    const key = login.toLowerCase();
    const named = this.accounts.get(key);
    // A token's look-up never creates the account: the first entry that does decides its spelling.
    if (!named || (create && !named.create)) {
      this.accounts.set(key, { login, type, externalId: externalId ?? null, create });
      return NO_ID;
    }
    if (type === "Organization") named.type = "Organization";
    if (named.externalId === null && externalId !== undefined) named.externalId = externalId;
    named.create ||= create;
    return NO_ID;
  }

  repo(fullName: string, source: string, externalId?: number) {
    const slash = fullName.indexOf("/");
    this.account(fullName.slice(0, slash), source);
    const key = fullName.toLowerCase();
    const named = this.repos.get(key);
    if (!named)
      this.repos.set(key, {
        fullName,
        owner: fullName.slice(0, slash),
        name: fullName.slice(slash + 1),
        externalId: externalId ?? null,
      });
    else if (named.externalId === null && externalId !== undefined) named.externalId = externalId;
    return { id: NO_ID };
  }

  // biome-ignore lint/correctness/useYield: a step of the walk, which drives every step as a generator; this one asks nothing
  *upsertAccount(a: AccountUpsert) {
    this.account(a.login, a.source, a.type, a.externalId);
  }

  upsertRepo(r: RepoUpsert) {
    this.repo(r.fullName, r.source, r.externalId);
    if (r.forkOf !== undefined) this.repo(r.forkOf, r.source);
  }

  // biome-ignore lint/correctness/useYield: a step of the walk, which drives every step as a generator; this one asks nothing
  *token(t: TokenInsert) {
    this.account(t.login, t.source, "User", undefined, false);
  }

  member() {}
  collaborator() {}
  follow() {}
  watch() {}
  event() {}
  issueEvent() {}
}

/** Gathering hands out no ids: the walk only needs them when the plan applies the entries. */
const NO_ID = 0;

export function namedIn(batch: IngestBatch): Names {
  const gatherer = new NameGatherer();
  // Gathering asks the store nothing, so the walk runs to its end without a single step.
  if (!walkBatch(batch, gatherer).next().done) throw new Error("ingest names: gathering asked the store");
  return { accounts: gatherer.accounts, repos: gatherer.repos };
}
