/**
 * A real PgBouncer of a test's own: Debian's `pgbouncer` in transaction pooling, on a free port, in front of one
 * database of the machine's PostgreSQL, with its configuration, log and pid file in a temporary folder. Run as the
 * `postgres` account when the test runs as root (PgBouncer refuses to run as root). Its pool is smaller than
 * feedgate's, so that feedgate's connections share server connections, as under load, and anything a session keeps
 * between statements would show.
 */
import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort, postgresUid } from "./pg-cluster.js";
import { POSTGRES_ADMIN_URL, skipOutsideCi, skipUnlessPostgres } from "./services.js";
import { eventually } from "./wait.js";

const run = promisify(execFile);
const PGBOUNCER = "/usr/sbin/pgbouncer";

/** Why a PgBouncer of a test's own cannot run here, or false (in CI a reason fails the run: skipOutsideCi). */
export async function skipUnlessPgBouncer(): Promise<string | false> {
  const postgres = await skipUnlessPostgres();
  if (postgres) return postgres;
  if (!existsSync(PGBOUNCER))
    return skipOutsideCi(`PgBouncer is not installed (${PGBOUNCER}; apt-get install pgbouncer)`);
  if (userInfo().uid === 0 && !(await run("id", ["-u", "postgres"]).catch(() => undefined))) {
    return skipOutsideCi("running as root without a postgres account to run PgBouncer as (it refuses root)");
  }
  return false;
}

export interface PgBouncerOptions {
  /** The `[databases]` line's `connect_query`: what each server connection runs first (a statement_timeout). */
  connectQuery?: string;
  /** Server connections for the database (`default_pool_size`). */
  poolSize?: number;
  /** How long it waits after a failed login to the server before it tries again (`server_login_retry`; 15 s). */
  loginRetrySeconds?: number;
}

export class PgBouncer {
  private readonly dir = mkdtempSync(join(tmpdir(), "feedgate-pgbouncer-"));
  private readonly ini = join(this.dir, "pgbouncer.ini");
  private readonly pidFile = join(this.dir, "pgbouncer.pid");

  private constructor(
    readonly port: number,
    /** The database behind it, as PostgreSQL names it. */
    readonly database: string,
    private readonly options: PgBouncerOptions,
  ) {}

  /** A PgBouncer in front of the database `url` names (on the machine's PostgreSQL, or a cluster's), started. */
  static async start(url: string, options: PgBouncerOptions = {}): Promise<PgBouncer> {
    const database = decodeURIComponent(new URL(url).pathname.slice(1));
    const bouncer = new PgBouncer(await freePort(), database, options);
    bouncer.configure(url);
    // With auth_type trust the file lists who may connect; the password column is not read.
    const user = decodeURIComponent(new URL(url).username) || "postgres";
    writeFileSync(join(bouncer.dir, "userlist.txt"), `"${user}" ""\n`);
    if (userInfo().uid === 0) chownSync(bouncer.dir, postgresUid(), 0);
    await bouncer.start();
    return bouncer;
  }

  /** Writes its configuration, its `[databases]` line naming the server of `url`. */
  private configure(url: string): void {
    const target = new URL(url);
    const admin = new URL(POSTGRES_ADMIN_URL);
    const connectQuery = this.options.connectQuery ? ` connect_query='${this.options.connectQuery}'` : "";
    writeFileSync(
      this.ini,
      [
        "[databases]",
        `${this.database} = host=${target.hostname} port=${target.port || 5432} dbname=${this.database}${connectQuery}`,
        "[pgbouncer]",
        "listen_addr = 127.0.0.1",
        `listen_port = ${this.port}`,
        "unix_socket_dir =",
        "auth_type = trust",
        `auth_file = ${join(this.dir, "userlist.txt")}`,
        `admin_users = ${decodeURIComponent(admin.username) || "postgres"}`,
        "pool_mode = transaction",
        `default_pool_size = ${this.options.poolSize ?? 3}`,
        "max_client_conn = 200",
        ...(this.options.loginRetrySeconds === undefined
          ? []
          : [`server_login_retry = ${this.options.loginRetrySeconds}`]),
        `logfile = ${join(this.dir, "pgbouncer.log")}`,
        `pidfile = ${this.pidFile}`,
        "",
      ].join("\n"),
    );
  }

  /**
   * Points its `[databases]` line at the server of `url` and RELOADs, as an operator does after a promotion: PgBouncer
   * then closes the server connections to the old server as they are released and opens new ones to the new.
   */
  async retarget(url: string): Promise<void> {
    this.configure(url);
    await this.admin("RELOAD");
  }

  /** `url` with its host and port this PgBouncer's. */
  url(user = "postgres"): string {
    return `postgres://${user}@127.0.0.1:${this.port}/${this.database}`;
  }

  /** Starts it (again), as a daemon, and waits until it answers. */
  async start(): Promise<void> {
    const [file, args] =
      userInfo().uid === 0
        ? ["runuser", ["-u", "postgres", "--", PGBOUNCER, "-d", this.ini]]
        : [PGBOUNCER, ["-d", this.ini]];
    await run(file, args);
    const up = await eventually(
      () =>
        this.admin("SHOW VERSION").then(
          () => true,
          () => false,
        ),
      (ok) => ok,
      { ms: 10_000, every: 20 },
    );
    if (!up) throw new Error(`PgBouncer did not start on port ${this.port}: ${this.log()}`);
  }

  /**
   * SIGKILL: every client's and server's connection dropped at once, as on a crash. Its pid file is removed once it
   * is gone: a daemon whose parent does not reap it stays a zombie, which a new PgBouncer takes for itself running.
   */
  async kill(): Promise<void> {
    const pid = Number(readFileSync(this.pidFile, "utf8").trim());
    process.kill(pid, "SIGKILL");
    const state = () => {
      try {
        return /^State:\s+(\S)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
      } catch {
        return undefined; // reaped
      }
    };
    await eventually(state, (s) => s === undefined || s === "Z", { ms: 5000, every: 10 });
    rmSync(this.pidFile, { force: true });
  }

  /** A command of PgBouncer's admin console (`SHOW STATS`...), its rows. */
  async admin<R extends pg.QueryResultRow>(command: string): Promise<R[]> {
    const client = new pg.Client({
      connectionString: this.url().replace(/[^/]+$/, "pgbouncer"),
      connectionTimeoutMillis: 2000,
    });
    client.on("error", () => undefined);
    await client.connect();
    try {
      return (await client.query<R>(command)).rows;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  log(): string {
    return existsSync(join(this.dir, "pgbouncer.log")) ? readFileSync(join(this.dir, "pgbouncer.log"), "utf8") : "";
  }

  /** Stops it and removes its folder. */
  async destroy(): Promise<void> {
    await this.kill().catch(() => undefined); // not running
    rmSync(this.dir, { recursive: true, force: true });
  }
}
