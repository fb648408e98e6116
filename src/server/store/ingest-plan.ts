/**
 * The rules of an ingest batch, written once for every driver: a program that yields the primitive operations of
 * the ingest protocol (ingest-protocol.ts) and receives their results, which each driver answers. The rules
 * (conflicts, organizations, fork networks, idempotence) live here, so the drivers cannot drift apart; the webhook
 * deliveries of the events added are ingest-deliveries.ts's.
 *
 * Accounts and repositories are resolved in bulk before the rules run: one look-up of everything the batch
 * names, one insert of everything new (with the type and GitHub id the whole batch gives it). A PostgreSQL
 * ingest is bound by round trips, and a GH Archive batch names thousands of accounts. The rules then run in
 * the batch's order against that state, so conflicts and fork networks come out as if each entry were applied
 * one by one.
 */
import {
  DEFAULT_INGEST_OPTIONS,
  IngestConflictError,
  type AccountUpsert,
  type EventInsert,
  type IngestBatch,
  type IngestOptions,
  type IssueEventInsert,
  type RepoUpsert,
  type TokenInsert,
} from "./ingest-store.js";
import type { AccountType } from "./user-store.js";
import type { OrgRole } from "./directory-store.js";
import { namedIn, type NamedAccount, type NamedRepo } from "./ingest-names.js";
import { walkBatch, type BatchTarget } from "./ingest-walk.js";
import {
  ask,
  type AccountRecord,
  type EventRow,
  type IngestOp,
  type IngestProgram,
  type IssueEventRow,
  type Pair,
  type RepoRecord,
  type Step,
} from "./ingest-protocol.js";
import { queueDeliveries } from "./ingest-deliveries.js";

/**
 * An account or repository as the batch has it so far. `settled`: created by this batch with the final type
 * and GitHub id already, so later entries change only what the rules see, not the row.
 */
interface AccountState {
  id: number;
  type: AccountType;
  externalId: number | null;
  settled: boolean;
}
interface RepoState {
  id: number;
  networkId: number;
  externalId: number | null;
  private: boolean;
  settled: boolean;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const lower = (s: string) => s.toLowerCase();

/** Writes gathered while the rules run: nothing the plan reads, so they go in bulk once the rules are done. */
class LaterWrites {
  readonly organizations = new Set<number>();
  readonly accountExternalIds = new Map<number, number>();
  readonly repoExternalIds = new Map<number, number>();
  readonly privacy = new Map<number, boolean>();
  readonly parents = new Map<number, number>();
  /** Network moves composed: each network id moved away from, to where it finally ends up. */
  private readonly networks = new Map<number, number>();
  /** The last word on each organization/member pair: its role. */
  private readonly members = new Map<string, { pair: Pair; role: OrgRole }>();
  readonly follows: Pair[] = [];
  readonly watches: Pair[] = [];
  /** The last word on each repository/user pair: added (false) or removed (true). */
  private readonly collaborators = new Map<string, { pair: Pair; remove: boolean }>();

  /** Where a network stands now: a repository read before the batch may name one it has since moved away from. */
  network(id: number): number {
    return this.networks.get(id) ?? id;
  }

  moveNetwork(from: number, to: number): void {
    for (const [moved, into] of this.networks) if (into === from) this.networks.set(moved, to);
    this.networks.set(from, to);
  }

  member(orgId: number, memberId: number, role: OrgRole): void {
    this.members.set(`${orgId}/${memberId}`, { pair: { a: orgId, b: memberId }, role });
  }

  collaborator(repoId: number, userId: number, remove: boolean): void {
    this.collaborators.set(`${repoId}/${userId}`, { pair: { a: repoId, b: userId }, remove });
  }

  *write(): Step<void> {
    const pairs = (map: Map<number, number>) => [...map].map(([a, b]) => ({ a, b }));
    const collaborators = [...this.collaborators.values()];
    const members = [...this.members.values()];
    if (this.organizations.size) yield { op: "makeOrganizations", ids: [...this.organizations] };
    const ops: IngestOp[] = [
      { op: "setAccountExternalIds", pairs: pairs(this.accountExternalIds) },
      { op: "setRepoExternalIds", pairs: pairs(this.repoExternalIds) },
      { op: "setPrivate", pairs: [...this.privacy].map(([a, isPrivate]) => ({ a, b: isPrivate ? 1 : 0 })) },
      { op: "setParents", pairs: pairs(this.parents) },
      { op: "moveNetworks", pairs: pairs(this.networks) },
      { op: "addMembers", role: "member", pairs: members.filter((m) => m.role === "member").map((m) => m.pair) },
      { op: "addMembers", role: "admin", pairs: members.filter((m) => m.role === "admin").map((m) => m.pair) },
      { op: "addFollows", pairs: this.follows },
      { op: "addWatches", pairs: this.watches },
      { op: "addCollaborators", pairs: collaborators.filter((c) => !c.remove).map((c) => c.pair) },
      { op: "removeCollaborators", pairs: collaborators.filter((c) => c.remove).map((c) => c.pair) },
    ];
    for (const op of ops) if ("pairs" in op && op.pairs.length) yield op;
  }
}

/** One batch's writes, with the state of what it names, kept as long as its transaction. */
class BatchPlan implements BatchTarget {
  /** Accounts and repositories named so far, in the batch's order, by lowercase login / full name. */
  private readonly accounts = new Map<string, AccountState>();
  private readonly repos = new Map<string, RepoState>();
  /** Found by the bulk look-up: what existed before this batch. */
  private readonly storedAccounts = new Map<string, AccountRecord>();
  private readonly storedRepos = new Map<string, RepoRecord>();
  /** Created by the bulk insert: ids of what this batch brings into being. */
  private readonly createdAccounts = new Map<string, number>();
  private readonly createdRepos = new Map<string, number>();
  private readonly later = new LaterWrites();
  /** The rows of the batch's events, gathered by the walk and inserted in bulk at the end. */
  private readonly events: EventRow[] = [];
  private readonly issueEvents: IssueEventRow[] = [];
  /** What the result reports besides events: rows this batch created. */
  private readonly added = { users: 0, organizations: 0, repos: 0, tokens: 0 };

  constructor(
    private readonly now: Date,
    private readonly options: IngestOptions,
  ) {}

  /** Looks up everything the batch names at once, and inserts what is missing at once. */
  *resolve(batch: IngestBatch): Step<void> {
    const named = batch.names ?? namedIn(batch);
    const accounts = [...named.accounts.values()];
    const found = yield* ask({ op: "findAccounts", logins: accounts.map((a) => a.login) });
    const missing: NamedAccount[] = [];
    accounts.forEach((account, i) => {
      if (found[i]) this.storedAccounts.set(lower(account.login), found[i]!);
      else if (account.create) missing.push(account);
    });
    if (missing.length) {
      const ids = yield* ask({
        op: "insertAccounts",
        now: this.now,
        rows: missing.map((a) => ({ login: a.login, type: a.type, externalId: a.externalId })),
      });
      for (const [i, a] of missing.entries()) this.createdAccounts.set(lower(a.login), ids[i]!);
      for (const a of missing) this.added[a.type === "Organization" ? "organizations" : "users"]++;
    }

    const repos = [...named.repos.values()];
    const ownerIds = repos.map(
      (r) => this.storedAccounts.get(lower(r.owner))?.id ?? this.createdAccounts.get(lower(r.owner))!,
    );
    // A repository can only exist already when its owner did.
    const lookUp = repos.flatMap((r, i) =>
      this.storedAccounts.has(lower(r.owner)) ? [{ repo: r, ownerId: ownerIds[i]! }] : [],
    );
    const foundRepos = lookUp.length
      ? yield* ask({ op: "findRepos", keys: lookUp.map((k) => ({ ownerId: k.ownerId, name: k.repo.name })) })
      : [];
    lookUp.forEach((k, i) => {
      if (foundRepos[i]) this.storedRepos.set(lower(k.repo.fullName), foundRepos[i]!);
    });
    const newRepos: { repo: NamedRepo; ownerId: number }[] = [];
    repos.forEach((repo, i) => {
      if (!this.storedRepos.has(lower(repo.fullName))) newRepos.push({ repo, ownerId: ownerIds[i]! });
    });
    if (newRepos.length) {
      const ids = yield* ask({
        op: "insertRepos",
        rows: newRepos.map(({ repo, ownerId }) => ({ ownerId, name: repo.name, externalId: repo.externalId })),
      });
      for (const [i, { repo }] of newRepos.entries()) this.createdRepos.set(lower(repo.fullName), ids[i]!);
      this.added.repos = newRepos.length;
    }
  }

  /** The account as the batch has it at this point: null when it does not exist (yet). */
  private current(login: string): { id: number; type: AccountType } | null {
    const key = lower(login);
    return this.accounts.get(key) ?? this.storedAccounts.get(key) ?? null;
  }

  account(login: string, source: string, type: AccountType = "User", externalId?: number): number {
    const key = lower(login);
    let account = this.accounts.get(key);
    if (!account) {
      const stored = this.storedAccounts.get(key);
      if (stored) {
        if (
          type === "Organization" &&
          stored.type !== "Organization" &&
          stored.passwordHash !== null &&
          source.startsWith("orgs")
        ) {
          throw new IngestConflictError(source, `${login} is a user who can log in, not an organization`);
        }
        account = { id: stored.id, type: stored.type, externalId: stored.externalId, settled: false };
      } else {
        account = { id: this.created(this.createdAccounts, key), type, externalId: externalId ?? null, settled: true };
      }
      this.accounts.set(key, account);
    }
    // An account named earlier (a world's `orgs` entry, say) still takes GitHub's id from a later complete
    // envelope; otherwise partial and complete envelopes would disagree on it.
    if (externalId !== undefined && account.externalId === null) {
      if (!account.settled) this.later.accountExternalIds.set(account.id, externalId);
      account.externalId = externalId;
    }
    if (type === "Organization" && account.type !== "Organization") {
      if (!account.settled) this.later.organizations.add(account.id);
      account.type = "Organization";
    }
    return account.id;
  }

  repo(fullName: string, source: string, externalId?: number): RepoState {
    const key = lower(fullName);
    let repo = this.repos.get(key);
    if (!repo) {
      this.account(fullName.slice(0, fullName.indexOf("/")), source);
      const stored = this.storedRepos.get(key);
      if (stored) {
        repo = { ...stored, networkId: this.later.network(stored.networkId), settled: false };
      } else {
        // Just created: public, and the root of its own fork network.
        const id = this.created(this.createdRepos, key);
        repo = { id, networkId: id, private: false, externalId: externalId ?? null, settled: true };
      }
      this.repos.set(key, repo);
    }
    if (externalId !== undefined && repo.externalId === null) {
      if (!repo.settled) this.later.repoExternalIds.set(repo.id, externalId);
      repo.externalId = externalId;
    }
    return repo;
  }

  private created(ids: Map<string, number>, key: string): number {
    const id = ids.get(key);
    // resolve() creates everything the gathering walk finds; a miss means a target named something outside the walk.
    if (id === undefined) throw new Error(`ingest plan: "${key}" was not resolved before use`);
    return id;
  }

  *upsertAccount(a: AccountUpsert): Step<void> {
    // Only a world file's `users` entry claims that an account is a user. An event's actor may be an organization:
    // GitHub names the organization as the actor of a fork into it and of its own 2012-era pushes (recorded:
    // schwaughlin's ForkEvent in octokit-rb's rails_admin network, BeaverSoftware's events in pygithub's).
    if (a.type === "User" && a.source.startsWith("users[") && this.current(a.login)?.type === "Organization") {
      throw new IngestConflictError(a.source, `${a.login} is an organization, not a user`);
    }
    const id = this.account(a.login, a.source, a.type, a.externalId);
    if (a.passwordHash !== undefined) yield* ask({ op: "setPassword", id, passwordHash: a.passwordHash });
    if (a.otpSecret !== undefined) yield* ask({ op: "setOtpSecret", id, otpSecret: a.otpSecret });
    if (a.siteAdmin !== undefined) yield* ask({ op: "setSiteAdmin", id, siteAdmin: a.siteAdmin });
    if (a.profile !== undefined) {
      const { email = null, blog = null, billingEmail = null } = a.profile;
      yield* ask({ op: "setProfile", id, email, blog, billingEmail, now: this.now });
    }
  }

  upsertRepo(r: RepoUpsert): void {
    const repo = this.repo(r.fullName, r.source, r.externalId);
    if (r.private !== undefined && r.private !== repo.private) {
      this.later.privacy.set(repo.id, r.private);
      repo.private = r.private;
    }
    if (r.forkOf === undefined) return;
    const parent = this.repo(r.forkOf, r.source);
    if (parent.id === repo.id) throw new IngestConflictError(r.source, `${r.fullName} cannot be a fork of itself`);
    this.later.parents.set(repo.id, parent.id);
    if (parent.networkId !== repo.networkId) {
      // The fork and everything already forked from it join the parent's network.
      const from = repo.networkId;
      this.later.moveNetwork(from, parent.networkId);
      for (const cached of this.repos.values()) if (cached.networkId === from) cached.networkId = parent.networkId;
    }
  }

  member(orgId: number, memberId: number, role: OrgRole): void {
    this.later.member(orgId, memberId, role);
  }

  collaborator(repoId: number, userId: number, remove: boolean): void {
    this.later.collaborator(repoId, userId, remove);
  }

  follow(followerId: number, followeeId: number): void {
    this.later.follows.push({ a: followerId, b: followeeId });
  }

  watch(userId: number, repoId: number): void {
    this.later.watches.push({ a: userId, b: repoId });
  }

  *token(t: TokenInsert): Step<void> {
    const user = this.current(t.login);
    if (user?.type !== "User") throw new IngestConflictError(t.source, `no user ${t.login}`);
    const owner = yield* ask({ op: "tokenOwner", hashedToken: t.hashedToken });
    if (owner !== null && owner !== user.id)
      throw new IngestConflictError(t.source, "the token belongs to another user");
    if (owner === null) {
      yield* ask({
        op: "insertToken",
        userId: user.id,
        hashedToken: t.hashedToken,
        tokenLastEight: t.tokenLastEight,
        scopes: t.scopes,
        note: t.note,
        now: this.now,
      });
      this.added.tokens++;
    }
  }

  event(e: EventInsert, ids: { actorId: number; repoId: number | null; orgId: number | null }): void {
    this.events.push({
      id: e.id,
      type: e.type,
      ...ids,
      public: e.public,
      createdAt: seconds(e.createdAt),
      complete: e.complete,
      body: e.body,
    });
  }

  issueEvent(e: IssueEventInsert, ids: { repoId: number; actorId: number | null }): void {
    this.issueEvents.push({ id: e.id, ...ids, createdAt: seconds(e.createdAt), complete: e.complete, body: e.body });
  }

  *write(batch: IngestBatch): IngestProgram {
    yield* this.resolve(batch);
    yield* walkBatch(batch, this);
    const { events, issueEvents } = this;
    yield* this.later.write();
    // Events go in bulk, so a driver can use its fastest path (a multi-row insert, COPY); duplicates are skipped.
    const added = events.length ? yield* ask({ op: "insertEvents", rows: events }) : [];
    const eventsAdded = added.length;
    // In the events' own transaction: a delivery is recorded if and only if its event is (ingest-deliveries.ts).
    const queued =
      this.options.webhooks && added.length
        ? yield* queueDeliveries(events, added, this.options.webhooks.maxQueue, this.now)
        : { deliveries: 0, full: [] };
    const issueEventsAdded = issueEvents.length ? yield* ask({ op: "insertIssueEvents", rows: issueEvents }) : 0;
    // Any write above may change what a feed shows (a new event, a repository turned private, a new follow). The log
    // says how far back this ingest reached, so that totals counted before it can be kept (services/feed-totals.ts).
    const oldest = (rows: { createdAt: number }[]) =>
      rows.reduce<number | null>((min, r) => (min === null || r.createdAt < min ? r.createdAt : min), null);
    yield* ask({ op: "raiseGeneration", oldestEvent: oldest(events), oldestIssueEvent: oldest(issueEvents) });
    return {
      eventsAdded,
      eventsSkipped: events.length - eventsAdded,
      issueEventsAdded,
      issueEventsSkipped: issueEvents.length - issueEventsAdded,
      usersAdded: this.added.users,
      organizationsAdded: this.added.organizations,
      reposAdded: this.added.repos,
      tokensAdded: this.added.tokens,
      ...(queued.deliveries ? { deliveriesQueued: queued.deliveries } : {}),
      ...(queued.full.length ? { hooksFull: queued.full } : {}),
    };
  }
}

export function ingestProgram(
  batch: IngestBatch,
  now: Date,
  options: IngestOptions = DEFAULT_INGEST_OPTIONS,
): IngestProgram {
  return new BatchPlan(now, options).write(batch);
}
