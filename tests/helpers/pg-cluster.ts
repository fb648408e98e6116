/**
 * Real PostgreSQL clusters of a test's own: a primary and its streaming hot standbys, made with Debian's server
 * programs (initdb, pg_basebackup -R, pg_ctl) in a temporary folder, on free ports, so that a test can pause a
 * standby's replay, stop it, or kill the primary without touching the machine's own cluster. Made as the `postgres`
 * account when the test runs as root (PostgreSQL refuses to run as root).
 */
import { execFile } from "node:child_process";
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { skipOutsideCi } from "./services.js";

const run = promisify(execFile);

function serverBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root).sort((a, b) => Number(b) - Number(a))[0];
  const bin = version && join(root, version, "bin");
  return bin && existsSync(join(bin, "initdb")) ? bin : undefined;
}

/** Why clusters of a test's own cannot be made here, or false (in CI a reason fails the run: skipOutsideCi). */
export async function skipUnlessClusters(): Promise<string | false> {
  if (!serverBin()) return skipOutsideCi("PostgreSQL's server programs (initdb, pg_basebackup) are not installed");
  if (userInfo().uid === 0) {
    const postgres = await run("id", ["-u", "postgres"]).catch(() => undefined);
    if (!postgres) return skipOutsideCi("running as root without a postgres account to run PostgreSQL clusters as");
  }
  return false;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Cluster {
  readonly port: number;
  readonly dir: string;
  /** A URL of its `postgres` database. */
  readonly url: string;
  query<R extends pg.QueryResultRow>(sql: string): Promise<R[]>;
  start(): Promise<void>;
  /** pg_ctl stop -m fast: a clean shutdown. */
  stop(): Promise<void>;
  /** SIGKILL to the postmaster and its backends at once: the server dies mid-write, as on a crash. */
  kill(): Promise<void>;
  /** pg_ctl promote: a standby becomes a primary. */
  promote(): Promise<void>;
}

export class ClusterSet {
  private readonly root = mkdtempSync(join(tmpdir(), "feedgate-clusters-"));
  private readonly bin = serverBin()!;
  private readonly made: Cluster[] = [];

  /** Runs a server program as the account PostgreSQL runs as. */
  private async program(name: string, args: string[]): Promise<string> {
    const asRoot = userInfo().uid === 0;
    const [file, argv] = asRoot
      ? ["runuser", ["-u", "postgres", "--", join(this.bin, name), ...args]]
      : [join(this.bin, name), args];
    return (await run(file, argv, { maxBuffer: 16 * 1024 * 1024 })).stdout;
  }

  private owned(dir: string): void {
    if (userInfo().uid === 0) chownSync(dir, postgresUid(), 0);
  }

  private cluster(dir: string, port: number): Cluster {
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const cluster: Cluster = {
      port,
      dir,
      url,
      query: async <R extends pg.QueryResultRow>(sql: string) => {
        const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
        await client.connect();
        try {
          return (await client.query<R>(sql)).rows;
        } finally {
          await client.end();
        }
      },
      start: async () => {
        await this.program("pg_ctl", ["-D", dir, "-l", `${dir}.log`, "-w", "-t", "30", "start"]);
      },
      stop: async () => {
        await this.program("pg_ctl", ["-D", dir, "-m", "fast", "-w", "stop"]);
      },
      kill: async () => {
        const pid = Number(readFileSync(join(dir, "postmaster.pid"), "utf8").split("\n")[0]);
        process.kill(pid, "SIGSTOP"); // no new backend forked meanwhile
        await run("pkill", ["-KILL", "-P", String(pid)]).catch(() => undefined);
        process.kill(pid, "SIGKILL");
      },
      promote: async () => {
        await this.program("pg_ctl", ["-D", dir, "-w", "promote"]);
      },
    };
    this.made.push(cluster);
    return cluster;
  }

  /** A new primary that standbys may stream from (wal_level replica, a replication line for 127.0.0.1). */
  async primary(): Promise<Cluster> {
    this.owned(this.root);
    const dir = join(this.root, `primary-${this.made.length}`);
    await this.program("initdb", ["-D", dir, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
    const port = await freePort();
    appendFileSync(
      join(dir, "postgresql.conf"),
      `port = ${port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${this.root}'\nfsync = off\n` +
        "max_wal_senders = 10\nwal_level = replica\nmax_connections = 60\n",
    );
    appendFileSync(join(dir, "pg_hba.conf"), "host replication all 127.0.0.1/32 trust\n");
    const cluster = this.cluster(dir, port);
    await cluster.start();
    return cluster;
  }

  /** A hot standby of `primary`, streaming from it (pg_basebackup -R writes its primary_conninfo). */
  async standby(primary: Cluster): Promise<Cluster> {
    const dir = join(this.root, `standby-${this.made.length}`);
    const port = await freePort();
    await this.program("pg_basebackup", [
      "-h",
      "127.0.0.1",
      "-p",
      String(primary.port),
      "-U",
      "postgres",
      "-D",
      dir,
      "-R",
      "-X",
      "stream",
      "-c",
      "fast",
    ]);
    appendFileSync(join(dir, "postgresql.conf"), `port = ${port}\nhot_standby = on\n`);
    const cluster = this.cluster(dir, port);
    await cluster.start();
    return cluster;
  }

  /** Stops every cluster made (immediately: the data goes too) and removes the folder. */
  async destroy(): Promise<void> {
    for (const cluster of this.made.reverse()) {
      await this.program("pg_ctl", ["-D", cluster.dir, "-m", "immediate", "-w", "stop"]).catch(() => undefined);
    }
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** The postgres account's uid, from /etc/passwd (the folder PostgreSQL writes in must be its own). */
export function postgresUid(): number {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("postgres:"));
  return Number(line?.split(":")[2]);
}
