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

/** How long a lost LISTEN connection waits before connecting again (the version checks cover the gap). */
const RELISTEN_MS = 1000;

export class PostgresEvents extends EventReads {
  /** Read by every request: concurrent requests share a read that started after they arrived (shared-reads.ts). */
  private readonly versions = new SharedReads<null, StoreVersion>(
    async () => (await this.db.get<StoreVersion>(VERSION))!,
  );
  private readonly receivedVersions = new SharedReads<number, number>(async (userId) =>
    Number((await this.db.get<{ version: number }>(RECEIVED_VERSION, { user: userId }))!.version),
  );

  constructor(
    db: Executor,
    private readonly pool: pg.Pool,
  ) {
    super(db);
  }

  version(): Promise<StoreVersion> {
    return this.versions.get(null);
  }

  receivedVersion(userId: number): Promise<number> {
    return this.receivedVersions.get(userId);
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
      const next = new pg.Client(this.pool.options);
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
