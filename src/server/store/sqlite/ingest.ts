/**
 * Applies an ingest program (store/ingest-plan.ts) in one SQLite transaction. better-sqlite3 transactions
 * cannot span an await, so the program's operations are answered synchronously, one prepared statement each.
 */
import type Database from "better-sqlite3";
import { ingestProgram, type AccountRecord, type IngestOp, type RepoRecord } from "../ingest-plan.js";
import type { AccountType, IngestBatch, IngestResult, IngestStore } from "../store.js";

function prepare(db: Database.Database) {
  return {
    account: db.prepare<[string], { id: number; type: AccountType; password_hash: string | null; external_id: number | null }>(
      "SELECT id, type, password_hash, external_id FROM users WHERE login = ?"),
    insertAccount: db.prepare<[string, AccountType, number | null, string], { id: number }>(
      "INSERT INTO users (login, type, external_id, created_at) VALUES (?, ?, ?, ?) RETURNING id"),
    setExternalId: db.prepare<[number, number]>("UPDATE users SET external_id = ? WHERE id = ? AND external_id IS NULL"),
    makeOrganization: db.prepare<[number]>("UPDATE users SET type = 'Organization' WHERE id = ?"),
    setPassword: db.prepare<[string, number]>("UPDATE users SET password_hash = ? WHERE id = ?"),
    setOtpSecret: db.prepare<[string | null, number]>("UPDATE users SET otp_secret = ? WHERE id = ?"),
    setSiteAdmin: db.prepare<[number, number]>("UPDATE users SET site_admin = ? WHERE id = ?"),
    member: db.prepare<[number, number]>("INSERT OR IGNORE INTO org_members (org_id, user_id) VALUES (?, ?)"),
    repo: db.prepare<[number, string], { id: number; network_id: number; external_id: number | null }>(
      "SELECT id, network_id, external_id FROM repos WHERE owner_id = ? AND name = ?"),
    // A new repository is the root of its own fork network.
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
    raiseGeneration: db.prepare("UPDATE ingest_state SET generation = generation + 1 WHERE id = 1"),
    insertIssueEvent: db.prepare(
      "INSERT OR IGNORE INTO issue_events (id, repo_id, actor_id, created_at, complete, body) VALUES (?, ?, ?, ?, ?, ?)"),
  };
}

type Statements = ReturnType<typeof prepare>;

function run(s: Statements, o: IngestOp): unknown {
  switch (o.op) {
    case "findAccount": {
      const r = s.account.get(o.login);
      return r ? ({ id: r.id, type: r.type, passwordHash: r.password_hash, externalId: r.external_id } satisfies AccountRecord) : null;
    }
    case "insertAccount": return s.insertAccount.get(o.login, o.type, o.externalId, o.now.toISOString())!.id;
    case "setAccountExternalId": return s.setExternalId.run(o.externalId, o.id);
    case "makeOrganization": return s.makeOrganization.run(o.id);
    case "setPassword": return s.setPassword.run(o.passwordHash, o.id);
    case "setOtpSecret": return s.setOtpSecret.run(o.otpSecret, o.id);
    case "setSiteAdmin": return s.setSiteAdmin.run(o.siteAdmin ? 1 : 0, o.id);
    case "addMember": return s.member.run(o.orgId, o.userId);
    case "findRepo": {
      const r = s.repo.get(o.ownerId, o.name);
      return r ? ({ id: r.id, networkId: r.network_id, externalId: r.external_id } satisfies RepoRecord) : null;
    }
    case "insertRepo": {
      const id = s.insertRepo.get(o.ownerId, o.name, o.externalId)!.id;
      s.ownNetwork.run(id);
      return id;
    }
    case "setRepoExternalId": return s.setRepoExternalId.run(o.externalId, o.id);
    case "setPrivate": return s.setPrivate.run(o.private ? 1 : 0, o.id);
    case "setParent": return s.setParent.run(o.parentId, o.id);
    case "moveNetwork": return s.moveNetwork.run(o.to, o.from);
    case "collaborator": return (o.remove ? s.removeCollaborator : s.addCollaborator).run(o.repoId, o.userId);
    case "follow": return s.follow.run(o.followerId, o.followeeId);
    case "watch": return s.watch.run(o.userId, o.repoId);
    case "tokenOwner": return s.tokenOwner.get(o.hashedToken)?.user_id ?? null;
    case "insertToken": {
      const at = o.now.toISOString();
      return s.insertToken.run(o.userId, o.hashedToken, o.tokenLastEight, JSON.stringify(o.scopes), o.note, at, at);
    }
    case "insertEvents":
      return o.rows.reduce((added, e) => added + s.insertEvent.run(e.id, e.type, e.actorId, e.repoId, e.orgId,
        e.public ? 1 : 0, e.createdAt, e.complete ? 1 : 0, e.body).changes, 0);
    case "raiseGeneration": return s.raiseGeneration.run();
    case "insertIssueEvents":
      return o.rows.reduce((added, e) => added + s.insertIssueEvent.run(e.id, e.repoId, e.actorId, e.createdAt,
        e.complete ? 1 : 0, e.body).changes, 0);
  }
}

export class SqliteIngest implements IngestStore {
  private readonly statements: Statements;

  constructor(private readonly db: Database.Database) {
    this.statements = prepare(db);
  }

  async apply(batch: IngestBatch, now: Date): Promise<IngestResult> {
    // IMMEDIATE: take the write lock up front, so a concurrent writer waits instead of failing half-way.
    return this.db.transaction(() => {
      const program = ingestProgram(batch, now);
      let step = program.next();
      while (!step.done) step = program.next(run(this.statements, step.value));
      return step.value;
    }).immediate();
  }
}
