/**
 * Feed queries in SQLite: the shared event reads (../events.ts), with the version read kept per turn of the event
 * loop, which needs SQLite's `PRAGMA data_version` and a read that answers without waiting.
 */
import { RECEIVED_VERSION, VERSION } from "../feed-sql.js";
import type { StoreVersion } from "../event-store.js";
import { EventReads } from "../events.js";
import type { SqliteExecutor } from "./executor.js";

export class SqliteEvents extends EventReads {
  /** What the version row said, and what told that nothing has been written since (see version()). */
  private lastVersion: { version: StoreVersion; dataVersion: number; totalChanges: number } | null = null;
  /** `PRAGMA data_version` as read for the requests of this turn of the event loop, null when none is kept (readDataVersion()). */
  private turnDataVersion: number | null = null;

  private readonly versionRow;
  private readonly dataVersion;
  private readonly totalChanges;

  constructor(private readonly connection: SqliteExecutor) {
    super(connection);
    this.versionRow = connection.db.prepare<[], StoreVersion>(VERSION);
    this.dataVersion = connection.db.prepare<[], number>("PRAGMA data_version").pluck();
    this.totalChanges = connection.db.prepare<[], number>("SELECT total_changes()").pluck();
  }

  /**
   * The version row is read only when something may have changed it: `PRAGMA data_version` moves when another
   * connection (the write worker, a command in another process) commits, and total_changes() when this one writes
   * (triggers included). Both are cheaper than reading a table, which every poll would otherwise do.
   */
  version(shareTurn = false): StoreVersion | Promise<StoreVersion> {
    // While a transaction holds the connection, its writes are not to be seen: the read waits its turn.
    if (this.connection.busy) return this.connection.exclusive(() => this.readVersion(shareTurn));
    return this.readVersion(shareTurn);
  }

  private readVersion(shareTurn: boolean): StoreVersion {
    const dataVersion = shareTurn ? (this.turnDataVersion ?? this.readDataVersion(true)) : this.readDataVersion(false);
    const totalChanges = this.totalChanges.get()!;
    const last = this.lastVersion;
    if (last && last.dataVersion === dataVersion && last.totalChanges === totalChanges) return last.version;
    const version = this.versionRow.get()!;
    this.lastVersion = { version, dataVersion, totalChanges };
    return version;
  }

  /**
   * Reads `PRAGMA data_version`, and keeps it for the requests handled in the rest of this turn of the event loop when
   * `keep` (or when a read is kept already, which this newer one replaces). Reading it starts a read transaction, two
   * locks and a stat of the file (three system calls, strace), which cost a repeated answer (repeats/) more than the
   * rest of its own work, while a busy server reads some thirty requests from its sockets in one turn. A kept read is
   * forgotten in the loop's check phase (setImmediate), and while one is kept the loop does not wait for I/O (an
   * immediate is pending), so a request is answered as of a read made at most one turn of the loop before it was
   * handled: in practice in the same poll for I/O, after its bytes had come. The write worker's commits do not wait
   * for the turn to end: their acknowledgement forgets the kept read (committed()) before anyone is told of the write.
   */
  private readDataVersion(keep: boolean): number {
    const read = this.dataVersion.get()!;
    if (keep && this.turnDataVersion === null) setImmediate(this.forgetTurn);
    if (keep || this.turnDataVersion !== null) this.turnDataVersion = read;
    return read;
  }

  private readonly forgetTurn = () => {
    this.turnDataVersion = null;
  };

  /** Another connection of this process committed (the write worker's ingest): the next version() reads afresh. */
  committed(): void {
    this.turnDataVersion = null;
  }

  async receivedVersion(userId: number): Promise<number> {
    return (await this.db.get<{ version: number }>(RECEIVED_VERSION, { user: userId }))!.version;
  }

  /** Nothing to listen to: writes of this process wake streams directly, other processes' show in version(). */
  async listenForChanges(): Promise<() => Promise<void>> {
    return async () => undefined;
  }
}
