/**
 * An ingest driver over a few maps, for running the pure ingest plan without a database: it answers the operations
 * of the protocol (src/server/store/ingest-protocol.ts) as the SQL drivers do, and records every operation asked.
 */
import type { AccountType } from "../../../src/server/store/user-store.js";
import type {
  AccountRecord,
  HookTarget,
  IngestDriver,
  IngestOp,
  QueuedEventDelivery,
  RepoRecord,
} from "../../../src/server/store/ingest-protocol.js";

export class MemoryIngest {
  /** Every operation asked, in order. */
  readonly ops: IngestOp[] = [];
  readonly accounts = new Map<string, AccountRecord & { login: string }>();
  readonly repos = new Map<string, RepoRecord & { ownerId: number; name: string; parentId: number | null }>();
  readonly tokens = new Map<string, number>();
  readonly storedEvents = new Set<string>();
  readonly queued: QueuedEventDelivery[] = [];
  hooks: HookTarget[] = [];
  private nextId = 1;

  /** An account stored before the batch. */
  account(login: string, type: AccountType = "User", passwordHash: string | null = null): number {
    const id = this.nextId++;
    this.accounts.set(login.toLowerCase(), { id, login, type, passwordHash, externalId: null });
    return id;
  }

  /** A repository stored before the batch, the root of its own network. */
  repo(ownerId: number, name: string): number {
    const id = this.nextId++;
    this.repos.set(`${ownerId}/${name.toLowerCase()}`, {
      id,
      ownerId,
      name,
      networkId: id,
      externalId: null,
      private: false,
      parentId: null,
    });
    return id;
  }

  /** Operations of one kind, in order. */
  asked<N extends IngestOp["op"]>(op: N): Extract<IngestOp, { op: N }>[] {
    return this.ops.filter((o): o is Extract<IngestOp, { op: N }> => o.op === op);
  }

  readonly driver: IngestDriver = this.record({
    findAccounts: (o) => o.logins.map((login) => this.accounts.get(login.toLowerCase()) ?? null),
    insertAccounts: (o) =>
      o.rows.map((a) => {
        const id = this.nextId++;
        this.accounts.set(a.login.toLowerCase(), {
          id,
          login: a.login,
          type: a.type,
          passwordHash: null,
          externalId: a.externalId,
        });
        return id;
      }),
    setPassword: () => undefined,
    setOtpSecret: () => undefined,
    setSiteAdmin: () => undefined,
    setProfile: () => undefined,
    findRepos: (o) => o.keys.map((k) => this.repos.get(`${k.ownerId}/${k.name.toLowerCase()}`) ?? null),
    insertRepos: (o) =>
      o.rows.map((r) => {
        const id = this.nextId++;
        this.repos.set(`${r.ownerId}/${r.name.toLowerCase()}`, {
          id,
          ownerId: r.ownerId,
          name: r.name,
          networkId: id,
          externalId: r.externalId,
          private: false,
          parentId: null,
        });
        return id;
      }),
    makeOrganizations: () => undefined,
    setAccountExternalIds: () => undefined,
    setRepoExternalIds: () => undefined,
    setPrivate: () => undefined,
    setParents: () => undefined,
    moveNetworks: () => undefined,
    addMembers: () => undefined,
    addFollows: () => undefined,
    addWatches: () => undefined,
    addCollaborators: () => undefined,
    removeCollaborators: () => undefined,
    tokenOwner: (o) => this.tokens.get(o.hashedToken) ?? null,
    insertToken: (o) => void this.tokens.set(o.hashedToken, o.userId),
    insertEvents: (o) =>
      o.rows
        .filter((e) => !this.storedEvents.has(e.id))
        .map((e) => {
          this.storedEvents.add(e.id);
          return e.id;
        }),
    findHookTargets: (o) => this.hooks.filter((h) => o.repoIds.includes(h.repoId)),
    queueDeliveries: (o) => void this.queued.push(...o.rows),
    insertIssueEvents: (o) => o.rows.length,
    raiseGeneration: () => undefined,
  });

  /** The driver, each handler first noting the operation it answers. */
  private record(handlers: IngestDriver): IngestDriver {
    const recorded = { ...handlers };
    for (const name of Object.keys(handlers) as (keyof IngestDriver)[]) {
      const handler = handlers[name] as (op: IngestOp) => unknown;
      (recorded as Record<string, (op: IngestOp) => unknown>)[name] = (op: IngestOp) => {
        this.ops.push(op);
        return handler(op);
      };
    }
    return recorded;
  }
}
