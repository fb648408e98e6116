/**
 * Applies an ingest program (store/ingest-plan.ts, in the protocol of store/ingest-protocol.ts) in one SQLite
 * transaction. better-sqlite3 transactions cannot span an await, so the program's operations are answered
 * synchronously with prepared statements; a bulk operation is a loop over one (in-process, a statement costs
 * microseconds, not a round trip).
 *
 * Not shared: better-sqlite3's synchronous statements; PostgreSQL's ingest is arrays, COPY and partitions.
 */
import type Database from "better-sqlite3";
import { ingestProgram } from "../ingest-plan.js";
import { runProgram, type IngestDriver } from "../ingest-protocol.js";
import type { AccountType } from "../user-store.js";
import type { OrgRole } from "../directory-store.js";
import type {
  BulkLoadProgress,
  EncodedBatch,
  IngestBatch,
  IngestOptions,
  IngestResult,
  IngestStore,
} from "../ingest-store.js";
import { plainBatch } from "../encoded-batch.js";
import { dropFeedIndexes, ensureFeedIndexes } from "./feed-indexes.js";
import { waitingForLock } from "./busy-retry.js";
import { LOG_INGEST, RAISE_GENERATION } from "../feed-sql.js";
import { HOOK_SQL, hookTargetsSql, toHookTarget, type HookTargetRecord } from "../hook-sql.js";
import { SET_PROFILE } from "../users.js";

/**
 * The statements of an ingest, each prepared when first used: every store prepares its own on its connection, and a
 * test double's (one per start) mostly runs a few of them or none.
 */
function prepare(db: Database.Database) {
  return preparedOnFirstUse({
    account: () =>
      db.prepare<[string], { id: number; type: AccountType; password_hash: string | null; external_id: number | null }>(
        "SELECT id, type, password_hash, external_id FROM users WHERE login = ?",
      ),
    insertAccount: () =>
      db.prepare<[string, AccountType, number | null, string], { id: number }>(
        "INSERT INTO users (login, type, external_id, created_at) VALUES (?, ?, ?, ?) RETURNING id",
      ),
    setExternalId: () =>
      db.prepare<[number, number]>("UPDATE users SET external_id = ? WHERE id = ? AND external_id IS NULL"),
    makeOrganization: () => db.prepare<[number]>("UPDATE users SET type = 'Organization' WHERE id = ?"),
    setPassword: () => db.prepare<[string, number]>("UPDATE users SET password_hash = ? WHERE id = ?"),
    setOtpSecret: () => db.prepare<[string | null, number]>("UPDATE users SET otp_secret = ? WHERE id = ?"),
    setSiteAdmin: () => db.prepare<[number, number]>("UPDATE users SET site_admin = ? WHERE id = ?"),
    setProfile: () =>
      db.prepare<{
        id: number;
        email: string | null;
        blog: string | null;
        billingEmail: string | null;
        now: string;
      }>(SET_PROFILE),
    // The role is updated only when it changes: an update raises the access number (migration 6's triggers).
    addMember: () =>
      db.prepare<[number, number, OrgRole]>(`INSERT INTO org_members (org_id, user_id, role) VALUES (?, ?, ?)
      ON CONFLICT (org_id, user_id) DO UPDATE SET role = excluded.role WHERE role <> excluded.role`),
    repo: () =>
      db.prepare<[number, string], { id: number; network_id: number; external_id: number | null; private: number }>(
        "SELECT id, network_id, external_id, private FROM repos WHERE owner_id = ? AND name = ?",
      ),
    // A new repository is the root of its own fork network.
    insertRepo: () =>
      db.prepare<[number, string, number | null], { id: number }>(
        "INSERT INTO repos (owner_id, name, network_id, external_id) VALUES (?, ?, 0, ?) RETURNING id",
      ),
    ownNetwork: () => db.prepare<[number]>("UPDATE repos SET network_id = id WHERE id = ?"),
    setRepoExternalId: () =>
      db.prepare<[number, number]>("UPDATE repos SET external_id = ? WHERE id = ? AND external_id IS NULL"),
    setPrivate: () => db.prepare<[number, number]>("UPDATE repos SET private = ? WHERE id = ?"),
    setParent: () => db.prepare<[number, number]>("UPDATE repos SET parent_id = ? WHERE id = ?"),
    moveNetwork: () => db.prepare<[number, number]>("UPDATE repos SET network_id = ? WHERE network_id = ?"),
    addCollaborator: () =>
      db.prepare<[number, number]>("INSERT OR IGNORE INTO collaborators (repo_id, user_id) VALUES (?, ?)"),
    removeCollaborator: () =>
      db.prepare<[number, number]>("DELETE FROM collaborators WHERE repo_id = ? AND user_id = ?"),
    addFollow: () =>
      db.prepare<[number, number]>("INSERT OR IGNORE INTO follows (follower_id, followee_id) VALUES (?, ?)"),
    addWatch: () => db.prepare<[number, number]>("INSERT OR IGNORE INTO watches (user_id, repo_id) VALUES (?, ?)"),
    tokenOwner: () =>
      db.prepare<[string], { user_id: number }>("SELECT user_id FROM authorizations WHERE hashed_token = ?"),
    insertToken: () =>
      db.prepare(
        `INSERT INTO authorizations (user_id, hashed_token, token_last_eight, scopes, note, note_url, fingerprint,
         created_at, updated_at) VALUES (?, ?, ?, ?, ?, NULL, NULL, ?, ?)`,
      ),
    // The last arrival number (migration 9), read once per ingest, under the write lock every ingest holds: each
    // event added takes the next.
    lastSeq: () => db.prepare<[], number>("SELECT coalesce(max(seq), 0) FROM events").pluck(),
    // A body given as bytes (EventText) is stored as the text they spell, as a string is.
    insertEvent: () =>
      db.prepare(
        `INSERT OR IGNORE INTO events (id, type, actor_id, repo_id, org_id, public, created_at, complete, body, seq)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS TEXT), ?)`,
      ),
    raiseGeneration: () => db.prepare(RAISE_GENERATION),
    hookTargets: () =>
      db.prepare<[{ active: number; repoIds: string }], HookTargetRecord>(
        hookTargetsSql("SELECT value FROM json_each(@repoIds)", "sqlite"),
      ),
    enqueue: () => db.prepare(HOOK_SQL.enqueue),
    logIngest: () => LOG_INGEST.map((sql) => db.prepare(sql)),
    insertIssueEvent: () =>
      db.prepare(
        "INSERT OR IGNORE INTO issue_events (id, repo_id, actor_id, created_at, complete, body, seq) " +
          "VALUES (?, ?, ?, ?, ?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM issue_events))",
      ),
  });
}

type Statements = ReturnType<typeof prepare>;

/** The ingest operations on prepared statements, answering at once (better-sqlite3 is synchronous). */
function driver(s: Statements): IngestDriver {
  return {
    findAccounts: (o) =>
      o.logins.map((login) => {
        const r = s.account.get(login);
        return r ? { id: r.id, type: r.type, passwordHash: r.password_hash, externalId: r.external_id } : null;
      }),
    insertAccounts: (o) => {
      const at = o.now.toISOString();
      return o.rows.map((a) => s.insertAccount.get(a.login, a.type, a.externalId, at)!.id);
    },
    setAccountExternalIds: (o) => {
      for (const p of o.pairs) s.setExternalId.run(p.b, p.a);
    },
    makeOrganizations: (o) => {
      for (const id of o.ids) s.makeOrganization.run(id);
    },
    setPassword: (o) => void s.setPassword.run(o.passwordHash, o.id),
    setOtpSecret: (o) => void s.setOtpSecret.run(o.otpSecret, o.id),
    setSiteAdmin: (o) => void s.setSiteAdmin.run(o.siteAdmin ? 1 : 0, o.id),
    setProfile: ({ id, email, blog, billingEmail, now }) =>
      void s.setProfile.run({ id, email, blog, billingEmail, now: now.toISOString() }),
    findRepos: (o) =>
      o.keys.map((k) => {
        const r = s.repo.get(k.ownerId, k.name);
        return r ? { id: r.id, networkId: r.network_id, externalId: r.external_id, private: r.private === 1 } : null;
      }),
    insertRepos: (o) =>
      o.rows.map((r) => {
        const id = s.insertRepo.get(r.ownerId, r.name, r.externalId)!.id;
        s.ownNetwork.run(id);
        return id;
      }),
    setRepoExternalIds: (o) => {
      for (const p of o.pairs) s.setRepoExternalId.run(p.b, p.a);
    },
    setPrivate: (o) => {
      for (const p of o.pairs) s.setPrivate.run(p.b, p.a);
    },
    setParents: (o) => {
      for (const p of o.pairs) s.setParent.run(p.b, p.a);
    },
    moveNetworks: (o) => {
      for (const p of o.pairs) s.moveNetwork.run(p.b, p.a);
    },
    addCollaborators: (o) => {
      for (const p of o.pairs) s.addCollaborator.run(p.a, p.b);
    },
    removeCollaborators: (o) => {
      for (const p of o.pairs) s.removeCollaborator.run(p.a, p.b);
    },
    addMembers: (o) => {
      for (const p of o.pairs) s.addMember.run(p.a, p.b, o.role);
    },
    addFollows: (o) => {
      for (const p of o.pairs) s.addFollow.run(p.a, p.b);
    },
    addWatches: (o) => {
      for (const p of o.pairs) s.addWatch.run(p.a, p.b);
    },
    tokenOwner: (o) => s.tokenOwner.get(o.hashedToken)?.user_id ?? null,
    insertToken: (o) => {
      const at = o.now.toISOString();
      s.insertToken.run(o.userId, o.hashedToken, o.tokenLastEight, JSON.stringify(o.scopes), o.note, at, at);
    },
    insertEvents: (o) => {
      let seq = s.lastSeq.get()!;
      const added: string[] = [];
      for (const e of o.rows) {
        if (
          s.insertEvent.run(
            e.id,
            e.type,
            e.actorId,
            e.repoId,
            e.orgId,
            e.public ? 1 : 0,
            e.createdAt,
            e.complete ? 1 : 0,
            e.body,
            seq + 1,
          ).changes === 1
        ) {
          seq += 1;
          added.push(e.id);
        }
      }
      return added;
    },
    findHookTargets: (o) => s.hookTargets.all({ active: 1, repoIds: JSON.stringify(o.repoIds) }).map(toHookTarget),
    queueDeliveries: (o) => {
      for (const d of o.rows) {
        s.enqueue.run({
          hookId: d.hookId,
          guid: d.guid,
          event: d.event,
          action: null,
          eventId: d.eventId,
          body: null,
          redelivery: 0,
          due: o.now.getTime(),
          now: o.now.toISOString(),
          installationId: d.installationId,
        });
      }
    },
    insertIssueEvents: (o) =>
      o.rows.reduce(
        (added, e) =>
          added + s.insertIssueEvent.run(e.id, e.repoId, e.actorId, e.createdAt, e.complete ? 1 : 0, e.body).changes,
        0,
      ),
    raiseGeneration: (o) => {
      s.raiseGeneration.run();
      for (const statement of s.logIngest)
        statement.run({ oldestEvent: o.oldestEvent, oldestIssueEvent: o.oldestIssueEvent });
    },
  };
}

/**
 * Applies one ingest, decoding an encoded batch where it writes; resolves with what it wrote (or rejects with what
 * refused it, and then nothing is written).
 */
export type IngestWriter = (
  batch: IngestBatch | EncodedBatch,
  now: Date,
  options?: IngestOptions,
) => Promise<IngestResult>;

/** The page cache of a bulk load: 64 MB (negative: KiB, as SQLite counts), not SQLite's default 2 MB. */
/** An object whose properties are made by their functions when first read, then kept as plain properties. */
function preparedOnFirstUse<T extends Record<string, unknown>>(makers: { [K in keyof T]: () => T[K] }): T {
  const made = {} as T;
  for (const name of Object.keys(makers) as (keyof T)[]) {
    Object.defineProperty(made, name, {
      configurable: true,
      enumerable: true,
      get() {
        const value = makers[name]();
        Object.defineProperty(made, name, { value, enumerable: true });
        return value;
      },
    });
  }
  return made;
}

const BULK_LOAD_CACHE_KIB = -65_536;
/** Bytes of the database file mapped while the feed indexes are built after a bulk load (capped by SQLite). */
const INDEX_BUILD_MMAP = 2 ** 36;

/** Ingests on `db`'s own thread, each one transaction: the write worker's, and the in-memory store's. */
export function applyingOn(
  db: Database.Database,
): (batch: IngestBatch, now: Date, options?: IngestOptions) => IngestResult {
  const ops = driver(prepare(db));
  // IMMEDIATE: take the write lock up front, so a concurrent writer waits instead of failing half-way.
  return (batch, now, options) => db.transaction(() => runProgram(ingestProgram(batch, now, options), ops)).immediate();
}

export class SqliteIngest implements IngestStore {
  /** While a bulk load runs: its ingests, on this connection (bulkLoad). */
  private bulkWriter: IngestWriter | null = null;

  private readonly write: IngestWriter;
  /** Only with a write worker: on this thread the caller decodes, letting the event loop turn (IngestStore). */
  readonly applyEncoded?: (encoded: EncodedBatch, now: Date, options?: IngestOptions) => Promise<IngestResult>;

  /**
   * @param worker where a file's ingests run (sqlite-store.ts); without one, on this thread.
   * @param inTurn runs a write when no transaction holds the connection (SqliteExecutor.exclusive).
   */
  constructor(
    private readonly db: Database.Database,
    worker?: IngestWriter,
    inTurn?: InTurn,
  ) {
    this.write = worker ?? inThread(db, false, inTurn);
    if (worker) this.applyEncoded = (encoded, now, options) => (this.bulkWriter ?? this.write)(encoded, now, options);
  }

  /**
   * Into a database without events, the feed indexes are dropped for the import and built once at the end:
   * 1.4x faster at a million events, more as the table grows. Feeds served meanwhile stay right, only slower.
   * Foreign keys are not checked meanwhile (three look-ups of each event): every id an ingest writes was read or
   * created in the same IMMEDIATE transaction, which no other writer can enter, so the check cannot fail.
   */
  async bulkLoad<T>(work: () => Promise<T>, progress?: BulkLoadProgress): Promise<T> {
    if (this.db.prepare("SELECT 1 FROM events LIMIT 1").get() !== undefined) return work();
    waitingForLock(this.db, () => dropFeedIndexes(this.db));
    // A bulk load is `feedgate import`'s alone (its envelopes parsed in a worker of its own): its batches are written
    // on this connection, where the settings below apply, not in the server's write worker.
    this.bulkWriter = inThread(this.db, true);
    this.db.pragma("foreign_keys = OFF");
    // Each batch looks its accounts and repositories up again; a page cache that holds their indexes while a
    // batch's event pages stream through spares a read() of the file per look-up.
    const cached = this.db.pragma("cache_size", { simple: true }) as number;
    this.db.pragma(`cache_size = ${BULK_LOAD_CACHE_KIB}`);
    // A commit does not wait for the disk (fsync) here, only a checkpoint does: in WAL mode the database stays
    // consistent whatever stops the import, a crash of the machine included; such a crash may lose the last batches
    // committed, which importing the file again adds (an import skips the events it finds stored).
    const synchronous = this.db.pragma("synchronous", { simple: true }) as number;
    this.db.pragma("synchronous = NORMAL");
    try {
      return await work();
    } finally {
      this.bulkWriter = null;
      this.db.pragma(`synchronous = ${synchronous}`);
      this.db.pragma(`cache_size = ${cached}`);
      this.db.pragma("foreign_keys = ON");
      // About 5 s per million events, with nothing else to show for it: say so.
      const done = progress?.("building feed indexes");
      // Each index is built by a scan of the whole table: read through a memory map, not with a read() per page
      // (a third less CPU; SQLite maps at most its compiled limit, 2 GB, and reads the rest as before).
      const mapped = this.db.pragma("mmap_size", { simple: true }) as number;
      this.db.pragma(`mmap_size = ${INDEX_BUILD_MMAP}`);
      try {
        waitingForLock(this.db, () => ensureFeedIndexes(this.db));
      } finally {
        this.db.pragma(`mmap_size = ${mapped}`);
      }
      done?.();
    }
  }

  apply(batch: IngestBatch, now: Date, options?: IngestOptions): Promise<IngestResult> {
    return (this.bulkWriter ?? this.write)(batch, now, options);
  }
}

/** Runs synchronous work on a connection once no transaction of another async chain holds it (sqlite/executor.ts). */
export type InTurn = <T>(work: () => T) => Promise<T>;

/**
 * Ingests on `db`'s thread. `waitForLock`: SQLite waits for another connection's lock itself, sleeping the thread
 * (a file's connection otherwise has no busy timeout: busy-retry.ts); while the write worker starts, and in a bulk load.
 */
export function inThread(
  db: Database.Database,
  waitForLock = false,
  inTurn: InTurn = async (work) => work(),
): IngestWriter {
  const apply = applyingOn(db);
  return async (encoded, now, options) => {
    const batch = await plainBatch(encoded, now);
    return inTurn(() =>
      waitForLock ? waitingForLock(db, () => apply(batch, now, options)) : apply(batch, now, options),
    );
  };
}
