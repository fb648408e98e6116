/**
 * Feed queries in PostgreSQL: the shared event reads (../events.ts), with version reads shared in flight and a wake-up
 * by LISTEN/NOTIFY, which are PostgreSQL's: its reads are round trips, and other instances write the same database.
 */
import pg from "pg";
import { RECEIVED_VERSION, VERSION } from "../feed-sql.js";
import { CHANGES_CHANNEL } from "../migrations/index.js";
import type { StoreVersion } from "../event-store.js";
import { EventReads } from "../events.js";
import type { Executor } from "../executor.js";
import { SharedReads } from "./shared-reads.js";
import type { PostgresExecutor } from "./executor.js";
import { readScopes } from "./read-scope.js";

/** How long a lost LISTEN connection waits before connecting again (the version checks cover the gap). */
const RELISTEN_MS = 1000;

/** Whether `read` is older than `seen` in any number: a standby that has not replayed what this instance saw. */
const olderThan = (read: StoreVersion, seen: StoreVersion) =>
  read.generation < seen.generation ||
  read.credentials < seen.credentials ||
  read.repos < seen.repos ||
  read.access < seen.access ||
  read.received < seen.received ||
  read.hooks < seen.hooks;

/** Each number at its highest of the two. */
const newest = (a: StoreVersion, b: StoreVersion): StoreVersion => ({
  generation: Math.max(a.generation, b.generation),
  credentials: Math.max(a.credentials, b.credentials),
  repos: Math.max(a.repos, b.repos),
  access: Math.max(a.access, b.access),
  received: Math.max(a.received, b.received),
  hooks: Math.max(a.hooks, b.hooks),
});

export class PostgresEvents extends EventReads {
  /**
   * Read by every request: concurrent requests share a read that started after they arrived (shared-reads.ts), one
   * read per server (the primary, each standby), in the context of a request that reads from that server.
   */
  private readonly versions = new SharedReads<string, StoreVersion>(
    async () => (await this.db.get<StoreVersion>(VERSION))!,
  );
  /** The newest version this instance has handed out: what its remembered answers and pages are keyed on. */
  private seen: StoreVersion | undefined;
  /** Keyed by server and user: a user's number as one server has it. */
  private readonly receivedVersions = new SharedReads<string, number>(async (key) =>
    Number((await this.db.get<{ version: number }>(RECEIVED_VERSION, { user: Number(key.split(":")[1]) }))!.version),
  );

  /** @param Client the pool's connection class: a PrimaryFinder's follows the primary (primary-finder.ts). */
  constructor(
    private readonly executor: PostgresExecutor,
    private readonly pool: pg.Pool,
    private readonly Client: typeof pg.Client = pg.Client,
  ) {
    super(executor satisfies Executor);
  }

  /**
   * The version, from the server this request reads from. A standby's that is older than one this instance already
   * handed out is not used (remembered answers, ETags and cached totals would go backwards): the request reads the
   * primary instead.
   */
  async version(): Promise<StoreVersion> {
    const scope = readScopes.getStore();
    const standby = scope ? this.executor.readServer(scope) : null;
    let read = await this.versions.get(standby?.name ?? "primary");
    if (standby && this.seen && olderThan(read, this.seen)) {
      scope!.server = null;
      read = await this.versions.get("primary");
    }
    this.seen = this.seen ? newest(this.seen, read) : read;
    return read;
  }

  receivedVersion(userId: number): Promise<number> {
    const scope = readScopes.getStore();
    const standby = scope ? this.executor.readServer(scope) : null;
    return this.receivedVersions.get(`${standby?.name ?? "primary"}:${userId}`);
  }

  /**
   * A connection of its own, outside the pool (a LISTEN holds its connection for as long as it listens, and the
   * pool's are for requests). A lost connection is opened again after a pause, and `onChange` is called when it
   * is back, since a notification sent meanwhile was lost with it.
   */
  async listenForChanges(onChange: () => void): Promise<() => Promise<void>> {
    let stopped = false;
    let client: pg.Client | undefined;
    let retry: NodeJS.Timeout | undefined;
    const schedule = () => {
      if (!stopped) retry = setTimeout(() => void connect().then(onChange, () => undefined), RELISTEN_MS);
    };
    const connect = async (): Promise<void> => {
      const next = new this.Client(this.pool.options);
      client = next;
      let gone = false;
      const lost = () => {
        if (gone) return;
        gone = true;
        next.on("error", () => undefined); // a closing connection may still report its loss
        void next.end().catch(() => undefined);
        if (client === next) schedule();
      };
      next.on("notification", () => onChange());
      next.on("error", lost);
      next.on("end", lost);
      try {
        await next.connect();
        await next.query(`LISTEN ${CHANGES_CHANNEL}`);
      } catch (error) {
        lost();
        throw error;
      }
    };
    await connect().catch((error: unknown) => {
      stopped = true; // the caller learns of the failure; nothing keeps trying behind its back
      clearTimeout(retry);
      throw error;
    });
    return async () => {
      stopped = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    };
  }
}
