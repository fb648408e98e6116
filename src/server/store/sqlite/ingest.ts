/**
 * Applies an ingest batch in one SQLite transaction: all or nothing, and idempotent, so seeding or importing
 * the same data twice changes nothing. Accounts and repositories named along the way are created on the fly.
 */
import type Database from "better-sqlite3";
import {
  IngestConflictError, type AccountType, type AccountUpsert, type IngestBatch, type IngestResult, type IngestStore,
  type RepoUpsert,
} from "../store.js";

interface AccountRecord { id: number; type: AccountType; password_hash: string | null }
interface RepoRecord { id: number; network_id: number }

function prepare(db: Database.Database) {
  return {
    account: db.prepare<[string], AccountRecord>("SELECT id, type, password_hash FROM users WHERE login = ?"),
    insertAccount: db.prepare<[string, AccountType, number | null, string], { id: number }>(
      "INSERT INTO users (login, type, external_id, created_at) VALUES (?, ?, ?, ?) RETURNING id"),
    setExternalId: db.prepare<[number, number]>("UPDATE users SET external_id = ? WHERE id = ? AND external_id IS NULL"),
    makeOrganization: db.prepare<[number]>("UPDATE users SET type = 'Organization' WHERE id = ? AND type <> 'Organization'"),
    setPassword: db.prepare<[string, number]>("UPDATE users SET password_hash = ? WHERE id = ?"),
    setOtpSecret: db.prepare<[string | null, number]>("UPDATE users SET otp_secret = ? WHERE id = ?"),
    setSiteAdmin: db.prepare<[number, number]>("UPDATE users SET site_admin = ? WHERE id = ?"),
    member: db.prepare<[number, number]>("INSERT OR IGNORE INTO org_members (org_id, user_id) VALUES (?, ?)"),
    repo: db.prepare<[number, string], RepoRecord>("SELECT id, network_id FROM repos WHERE owner_id = ? AND name = ?"),
    insertRepo: db.prepare<[number, string, number | null], { id: number }>(
      "INSERT INTO repos (owner_id, name, network_id, external_id) VALUES (?, ?, 0, ?) RETURNING id"),
    ownNetwork: db.prepare<[number]>("UPDATE repos SET network_id = id WHERE id = ?"),
    setRepoExternalId: db.prepare<[number, number]>("UPDATE repos SET external_id = ? WHERE id = ? AND external_id IS NULL"),
    setPrivate: db.prepare<[number, number]>("UPDATE repos SET private = ? WHERE id = ?"),
    setParent: db.prepare<[number, number]>("UPDATE repos SET parent_id = ? WHERE id = ?"),
    moveNetwork: db.prepare<[number, number]>("UPDATE repos SET network_id = ? WHERE network_id = ?"),
    addCollaborator: db.prepare<[number, number]>("INSERT OR IGNORE INTO collaborators (repo_id, user_id) VALUES (?, ?)"),
    removeCollaborator: db.prepare<[number, number]>("DELETE FROM collaborators WHERE repo_id = ? AND user_id = ?"),
    follow: db.prepare<[number, number]>("INSERT OR IGNORE INTO follows (follower_id, followee_id) VALUES (?, ?)"),
    watch: db.prepare<[number, number]>("INSERT OR IGNORE INTO watches (user_id, repo_id) VALUES (?, ?)"),
    tokenOwner: db.prepare<[string], { user_id: number }>("SELECT user_id FROM authorizations WHERE hashed_token = ?"),
    insertToken: db.prepare(
      `INSERT INTO authorizations (user_id, hashed_token, token_last_eight, scopes, note, note_url, fingerprint,
         created_at, updated_at) VALUES (?, ?, ?, ?, ?, NULL, NULL, ?, ?)`),
    insertEvent: db.prepare(
      `INSERT OR IGNORE INTO events (id, type, actor_id, repo_id, org_id, public, created_at, complete, body)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    insertIssueEvent: db.prepare(
      `INSERT OR IGNORE INTO issue_events (id, repo_id, actor_id, created_at, complete, body) VALUES (?, ?, ?, ?, ?, ?)`),
  };
}

type Statements = ReturnType<typeof prepare>;

/** One batch's writes, with look-up caches that live as long as its transaction. */
class BatchWriter {
  private readonly accounts = new Map<string, number>();
  private readonly repos = new Map<string, RepoRecord>();

  constructor(private readonly s: Statements, private readonly now: Date) {}

  private account(login: string, source: string, type: AccountType = "User", externalId?: number): number {
    const key = login.toLowerCase();
    let id = this.accounts.get(key);
    if (id === undefined) {
      const existing = this.s.account.get(login);
      id = existing?.id ?? this.s.insertAccount.get(login, type, externalId ?? null, this.now.toISOString())!.id;
      this.accounts.set(key, id);
      if (existing && externalId !== undefined) this.s.setExternalId.run(externalId, id);
      if (existing && type === "Organization" && existing.type !== "Organization") {
        if (existing.password_hash !== null && source.startsWith("orgs")) {
          throw new IngestConflictError(source, `${login} is a user who can log in, not an organization`);
        }
        this.s.makeOrganization.run(id);
      }
    } else if (type === "Organization") {
      this.s.makeOrganization.run(id);
    }
    return id;
  }

  private repo(fullName: string, source: string, externalId?: number): RepoRecord {
    const key = fullName.toLowerCase();
    let repo = this.repos.get(key);
    if (!repo) {
      const slash = fullName.indexOf("/");
      const ownerId = this.account(fullName.slice(0, slash), source);
      const name = fullName.slice(slash + 1);
      repo = this.s.repo.get(ownerId, name);
      if (repo) {
        if (externalId !== undefined) this.s.setRepoExternalId.run(externalId, repo.id);
      } else {
        const id = this.s.insertRepo.get(ownerId, name, externalId ?? null)!.id;
        this.s.ownNetwork.run(id);
        repo = { id, network_id: id };
      }
      this.repos.set(key, repo);
    }
    return repo;
  }

  private upsertAccount(a: AccountUpsert): void {
    const existing = this.s.account.get(a.login);
    if (a.type === "User" && existing?.type === "Organization") {
      throw new IngestConflictError(a.source, `${a.login} is an organization, not a user`);
    }
    const id = this.account(a.login, a.source, a.type, a.externalId);
    if (a.passwordHash !== undefined) this.s.setPassword.run(a.passwordHash, id);
    if (a.otpSecret !== undefined) this.s.setOtpSecret.run(a.otpSecret, id);
    if (a.siteAdmin !== undefined) this.s.setSiteAdmin.run(a.siteAdmin ? 1 : 0, id);
  }

  private upsertRepo(r: RepoUpsert): void {
    const repo = this.repo(r.fullName, r.source, r.externalId);
    if (r.private !== undefined) this.s.setPrivate.run(r.private ? 1 : 0, repo.id);
    if (r.forkOf === undefined) return;
    const parent = this.repo(r.forkOf, r.source);
    if (parent.id === repo.id) throw new IngestConflictError(r.source, `${r.fullName} cannot be a fork of itself`);
    this.s.setParent.run(parent.id, repo.id);
    if (parent.network_id !== repo.network_id) {
      // The fork and everything already forked from it join the parent's network.
      this.s.moveNetwork.run(parent.network_id, repo.network_id);
      for (const cached of this.repos.values()) if (cached.network_id === repo.network_id) cached.network_id = parent.network_id;
    }
  }

  write(batch: IngestBatch): IngestResult {
    const s = this.s;
    for (const a of batch.accounts) this.upsertAccount(a);
    for (const m of batch.memberships) s.member.run(this.account(m.org, m.source, "Organization"), this.account(m.member, m.source));
    for (const r of batch.repos) this.upsertRepo(r);
    for (const c of batch.collaborators) {
      const ids = [this.repo(c.repo, c.source).id, this.account(c.user, c.source)] as const;
      (c.remove ? s.removeCollaborator : s.addCollaborator).run(...ids);
    }
    for (const f of batch.follows) s.follow.run(this.account(f.follower, f.source), this.account(f.followee, f.source));
    for (const w of batch.watches) s.watch.run(this.account(w.user, w.source), this.repo(w.repo, w.source).id);
    for (const t of batch.tokens) {
      const user = s.account.get(t.login);
      if (!user || user.type !== "User") throw new IngestConflictError(t.source, `no user ${t.login}`);
      const owner = s.tokenOwner.get(t.hashedToken);
      if (owner && owner.user_id !== user.id) throw new IngestConflictError(t.source, "the token belongs to another user");
      if (!owner) {
        const at = this.now.toISOString();
        s.insertToken.run(user.id, t.hashedToken, t.tokenLastEight, JSON.stringify(t.scopes), t.note, at, at);
      }
    }

    const result: IngestResult = { eventsAdded: 0, eventsSkipped: 0, issueEventsAdded: 0, issueEventsSkipped: 0 };
    for (const e of batch.events) {
      const added = s.insertEvent.run(e.id, e.type, this.account(e.actorLogin, e.source), this.repo(e.repoName, e.source).id,
        e.orgLogin === null ? null : this.account(e.orgLogin, e.source, "Organization"), e.public ? 1 : 0,
        Math.floor(e.createdAt.getTime() / 1000), e.complete ? 1 : 0, e.body).changes;
      if (added) result.eventsAdded++;
      else result.eventsSkipped++;
    }
    for (const e of batch.issueEvents) {
      const added = s.insertIssueEvent.run(e.id, this.repo(e.repoName, e.source).id,
        e.actorLogin === null ? null : this.account(e.actorLogin, e.source), Math.floor(e.createdAt.getTime() / 1000),
        e.complete ? 1 : 0, e.body).changes;
      if (added) result.issueEventsAdded++;
      else result.issueEventsSkipped++;
    }
    return result;
  }
}

export class SqliteIngest implements IngestStore {
  private readonly statements: Statements;

  constructor(private readonly db: Database.Database) {
    this.statements = prepare(db);
  }

  async apply(batch: IngestBatch, now: Date): Promise<IngestResult> {
    // IMMEDIATE: take the write lock up front, so a concurrent writer waits instead of failing half-way.
    return this.db.transaction(() => new BatchWriter(this.statements, now).write(batch)).immediate();
  }
}
