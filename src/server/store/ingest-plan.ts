/**
 * How an ingest batch is applied, written once for every driver: a generator that yields primitive
 * operations and receives their results. The SQLite driver answers them synchronously inside one
 * better-sqlite3 transaction (which cannot span an await); the PostgreSQL driver answers them with
 * queries on one client inside BEGIN/COMMIT. The rules (conflicts, organizations, fork networks,
 * idempotence) live here, so the drivers cannot drift apart.
 */
import {
  IngestConflictError, type AccountType, type AccountUpsert, type IngestBatch, type IngestResult, type RepoUpsert,
} from "./store.js";

export interface AccountRecord { id: number; type: AccountType; passwordHash: string | null; externalId: number | null }
export interface RepoRecord { id: number; networkId: number; externalId: number | null }

export interface EventRow {
  id: string; type: string; actorId: number; repoId: number | null; orgId: number | null; public: boolean;
  createdAt: number; complete: boolean; body: string;
}

export interface IssueEventRow {
  id: string; repoId: number; actorId: number | null; createdAt: number; complete: boolean; body: string;
}

/** The primitive operations a driver answers; each `yield` gets the result named in the comment. */
export type IngestOp =
  | { op: "findAccount"; login: string } // AccountRecord | null
  | { op: "insertAccount"; login: string; type: AccountType; externalId: number | null; now: Date } // number (id)
  | { op: "setAccountExternalId"; id: number; externalId: number }
  | { op: "makeOrganization"; id: number }
  | { op: "setPassword"; id: number; passwordHash: string }
  | { op: "setOtpSecret"; id: number; otpSecret: string | null }
  | { op: "setSiteAdmin"; id: number; siteAdmin: boolean }
  | { op: "addMember"; orgId: number; userId: number }
  | { op: "findRepo"; ownerId: number; name: string } // RepoRecord | null
  | { op: "insertRepo"; ownerId: number; name: string; externalId: number | null } // number (id; its own network)
  | { op: "setRepoExternalId"; id: number; externalId: number }
  | { op: "setPrivate"; id: number; private: boolean }
  | { op: "setParent"; id: number; parentId: number }
  | { op: "moveNetwork"; from: number; to: number }
  | { op: "collaborator"; repoId: number; userId: number; remove: boolean }
  | { op: "follow"; followerId: number; followeeId: number }
  | { op: "watch"; userId: number; repoId: number }
  | { op: "tokenOwner"; hashedToken: string } // number (user id) | null
  | { op: "insertToken"; userId: number; hashedToken: string; tokenLastEight: string; scopes: string[]; note: string | null; now: Date }
  | { op: "insertEvents"; rows: EventRow[] } // number added
  | { op: "insertIssueEvents"; rows: IssueEventRow[] } // number added
  | { op: "raiseGeneration" };

export type IngestProgram = Generator<IngestOp, IngestResult, unknown>;
type Step<T> = Generator<IngestOp, T, unknown>;

function* ask<T>(op: IngestOp): Step<T> {
  return (yield op) as T;
}

interface CachedAccount { id: number; type: AccountType; externalId: number | null }

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** One batch's writes, with look-up caches that live as long as its transaction. */
class BatchPlan {
  private readonly accounts = new Map<string, CachedAccount>();
  private readonly repos = new Map<string, RepoRecord>();

  constructor(private readonly now: Date) {}

  *account(login: string, source: string, type: AccountType = "User", externalId?: number): Step<number> {
    const key = login.toLowerCase();
    let account = this.accounts.get(key);
    if (!account) {
      const existing = yield* ask<AccountRecord | null>({ op: "findAccount", login });
      if (!existing) {
        const id = yield* ask<number>({ op: "insertAccount", login, type, externalId: externalId ?? null, now: this.now });
        this.accounts.set(key, { id, type, externalId: externalId ?? null });
        return id;
      }
      if (type === "Organization" && existing.type !== "Organization" && existing.passwordHash !== null && source.startsWith("orgs")) {
        throw new IngestConflictError(source, `${login} is a user who can log in, not an organization`);
      }
      account = { id: existing.id, type: existing.type, externalId: existing.externalId };
      this.accounts.set(key, account);
    }
    // An account named earlier (a world's `orgs` entry, say) still takes GitHub's id from a later complete
    // envelope; otherwise partial and complete envelopes would disagree on it.
    if (externalId !== undefined && account.externalId === null) {
      yield* ask({ op: "setAccountExternalId", id: account.id, externalId });
      account.externalId = externalId;
    }
    if (type === "Organization" && account.type !== "Organization") {
      yield* ask({ op: "makeOrganization", id: account.id });
      account.type = "Organization";
    }
    return account.id;
  }

  *repo(fullName: string, source: string, externalId?: number): Step<RepoRecord> {
    const key = fullName.toLowerCase();
    let repo = this.repos.get(key);
    if (!repo) {
      const slash = fullName.indexOf("/");
      const ownerId = yield* this.account(fullName.slice(0, slash), source);
      const name = fullName.slice(slash + 1);
      repo = (yield* ask<RepoRecord | null>({ op: "findRepo", ownerId, name })) ?? undefined;
      if (!repo) {
        const id = yield* ask<number>({ op: "insertRepo", ownerId, name, externalId: externalId ?? null });
        repo = { id, networkId: id, externalId: externalId ?? null };
      }
      this.repos.set(key, repo);
    }
    if (externalId !== undefined && repo.externalId === null) {
      yield* ask({ op: "setRepoExternalId", id: repo.id, externalId });
      repo.externalId = externalId;
    }
    return repo;
  }

  *upsertAccount(a: AccountUpsert): Step<void> {
    // Only a world file's `users` entry claims that an account is a user. An event's actor may be an organization:
    // GitHub names the organization as the actor of a fork into it and of its own 2012-era pushes (recorded:
    // schwaughlin's ForkEvent in octokit-rb's rails_admin network, BeaverSoftware's events in pygithub's).
    if (a.type === "User" && a.source.startsWith("users[")) {
      const existing = yield* ask<AccountRecord | null>({ op: "findAccount", login: a.login });
      if (existing?.type === "Organization") throw new IngestConflictError(a.source, `${a.login} is an organization, not a user`);
    }
    const id = yield* this.account(a.login, a.source, a.type, a.externalId);
    if (a.passwordHash !== undefined) yield* ask({ op: "setPassword", id, passwordHash: a.passwordHash });
    if (a.otpSecret !== undefined) yield* ask({ op: "setOtpSecret", id, otpSecret: a.otpSecret });
    if (a.siteAdmin !== undefined) yield* ask({ op: "setSiteAdmin", id, siteAdmin: a.siteAdmin });
  }

  *upsertRepo(r: RepoUpsert): Step<void> {
    const repo = yield* this.repo(r.fullName, r.source, r.externalId);
    if (r.private !== undefined) yield* ask({ op: "setPrivate", id: repo.id, private: r.private });
    if (r.forkOf === undefined) return;
    const parent = yield* this.repo(r.forkOf, r.source);
    if (parent.id === repo.id) throw new IngestConflictError(r.source, `${r.fullName} cannot be a fork of itself`);
    yield* ask({ op: "setParent", id: repo.id, parentId: parent.id });
    if (parent.networkId !== repo.networkId) {
      // The fork and everything already forked from it join the parent's network.
      const from = repo.networkId;
      yield* ask({ op: "moveNetwork", from, to: parent.networkId });
      for (const cached of this.repos.values()) if (cached.networkId === from) cached.networkId = parent.networkId;
    }
  }

  *write(batch: IngestBatch): IngestProgram {
    for (const a of batch.accounts) yield* this.upsertAccount(a);
    for (const m of batch.memberships) {
      const orgId = yield* this.account(m.org, m.source, "Organization");
      yield* ask({ op: "addMember", orgId, userId: yield* this.account(m.member, m.source) });
    }
    for (const r of batch.repos) yield* this.upsertRepo(r);
    for (const c of batch.collaborators) {
      const repoId = (yield* this.repo(c.repo, c.source)).id;
      yield* ask({ op: "collaborator", repoId, userId: yield* this.account(c.user, c.source), remove: c.remove ?? false });
    }
    for (const f of batch.follows) {
      const followerId = yield* this.account(f.follower, f.source);
      yield* ask({ op: "follow", followerId, followeeId: yield* this.account(f.followee, f.source) });
    }
    for (const w of batch.watches) {
      const userId = yield* this.account(w.user, w.source);
      yield* ask({ op: "watch", userId, repoId: (yield* this.repo(w.repo, w.source)).id });
    }
    for (const t of batch.tokens) {
      const user = yield* ask<AccountRecord | null>({ op: "findAccount", login: t.login });
      if (!user || user.type !== "User") throw new IngestConflictError(t.source, `no user ${t.login}`);
      const owner = yield* ask<number | null>({ op: "tokenOwner", hashedToken: t.hashedToken });
      if (owner !== null && owner !== user.id) throw new IngestConflictError(t.source, "the token belongs to another user");
      if (owner === null) {
        yield* ask({ op: "insertToken", userId: user.id, hashedToken: t.hashedToken, tokenLastEight: t.tokenLastEight,
          scopes: t.scopes, note: t.note, now: this.now });
      }
    }

    const events: EventRow[] = [];
    for (const e of batch.events) {
      events.push({
        id: e.id, type: e.type, actorId: yield* this.account(e.actorLogin, e.source),
        repoId: e.repoName === null ? null : (yield* this.repo(e.repoName, e.source)).id,
        orgId: e.orgLogin === null ? null : yield* this.account(e.orgLogin, e.source, "Organization"),
        public: e.public, createdAt: seconds(e.createdAt), complete: e.complete, body: e.body,
      });
    }
    const issueEvents: IssueEventRow[] = [];
    for (const e of batch.issueEvents) {
      issueEvents.push({
        id: e.id, repoId: (yield* this.repo(e.repoName, e.source)).id,
        actorId: e.actorLogin === null ? null : yield* this.account(e.actorLogin, e.source),
        createdAt: seconds(e.createdAt), complete: e.complete, body: e.body,
      });
    }
    // Events go in bulk, so a driver can use its fastest path (a multi-row insert, COPY); duplicates are skipped.
    const eventsAdded = events.length ? yield* ask<number>({ op: "insertEvents", rows: events }) : 0;
    const issueEventsAdded = issueEvents.length ? yield* ask<number>({ op: "insertIssueEvents", rows: issueEvents }) : 0;
    // Any write above may change what a feed shows (a new event, a repository turned private, a new follow).
    yield* ask({ op: "raiseGeneration" });
    return {
      eventsAdded, eventsSkipped: events.length - eventsAdded,
      issueEventsAdded, issueEventsSkipped: issueEvents.length - issueEventsAdded,
    };
  }
}

export function ingestProgram(batch: IngestBatch, now: Date): IngestProgram {
  return new BatchPlan(now).write(batch);
}
