/**
 * `--db` naming several hosts (`postgres://feedgate@db-a:5432,db-b:5432/feedgate`, libpq's form): every new connection
 * goes to the one of them that is the primary, found by asking each `pg_is_in_recovery()`, so an instance follows a
 * promotion by itself. node-postgres connects to one host only; here the pool's client class takes the host found.
 *
 * While no host is a primary (the old one killed, the standby not promoted yet), connections go to a standby: reads
 * are served, and writes are refused by the server (SQLSTATE 25006), which outage.ts counts as the database being
 * away: 503, nothing applied. Connections to a primary that died break and leave the pool by themselves (pool.ts);
 * the check every CHECK_MS finds the new primary within that long of its promotion.
 *
 * Not shared: primaries, standbys and promotion are PostgreSQL's.
 */
import pg from "pg";

/** How often the current host is asked whether it is still the primary, and the others searched when it is not. */
const CHECK_MS = 500;

export interface HostPort {
  host: string;
  port: number;
}

const MULTI_HOST = /^(postgres(?:ql)?:\/\/(?:[^@/]*@)?)([^/?#]*)(.*)$/;

/** The hosts of a URL naming several (`h1:5432,h2:5433`); undefined for a URL of one host. */
export function hostsOf(url: string): HostPort[] | undefined {
  const match = MULTI_HOST.exec(url);
  if (!match?.[2]?.includes(",")) return undefined;
  return match[2].split(",").map((part) => {
    const at = part.lastIndexOf(":");
    const bracketed = part.startsWith("[");
    if (at > 0 && (!bracketed || part.lastIndexOf("]") < at)) {
      return { host: part.slice(0, at), port: Number(part.slice(at + 1)) };
    }
    return { host: part, port: 5432 };
  });
}

/** `url` with its hosts replaced by one. */
function urlFor(url: string, { host, port }: HostPort): string {
  return url.replace(MULTI_HOST, (_, head: string, _hosts: string, tail: string) => `${head}${host}:${port}${tail}`);
}

export class PrimaryFinder {
  /** The host new connections go to: the primary, or a standby while there is none. */
  private current: HostPort;
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  /** The pool's client class: each connection to the current host. */
  readonly Client: typeof pg.Client;

  constructor(
    private readonly url: string,
    private readonly hosts: readonly HostPort[],
    private readonly connectTimeoutMs: number,
  ) {
    this.current = hosts[0]!;
    const finder = this;
    this.Client = class extends pg.Client {
      constructor(config?: string | pg.ClientConfig) {
        const given = typeof config === "string" ? { connectionString: config } : (config ?? {});
        super({ ...given, connectionString: urlFor(finder.url, finder.current) });
      }
    };
  }

  /** The URL of the host connections go to now (for a connection of one's own, such as LISTEN). */
  get currentUrl(): string {
    return urlFor(this.url, this.current);
  }

  /** Finds the primary first (or a standby to read from), then keeps checking. */
  async start(): Promise<void> {
    await this.check();
    this.timer = setInterval(() => void this.check(), CHECK_MS).unref();
  }

  /** Whether the current host is the primary; otherwise each host asked in turn, the first primary taken. */
  check(): Promise<void> {
    this.checking ??= this.search().finally(() => (this.checking = undefined));
    return this.checking;
  }

  /** The pool whose connections go to the current host: asked first, so that a healthy check opens nothing. */
  pool: pg.Pool | undefined;

  private async search(): Promise<void> {
    if ((await this.poolRole()) === "primary") return;
    let standby: HostPort | undefined;
    for (const host of this.hosts) {
      const role = await this.role(host);
      if (role === "primary") {
        this.current = host;
        return;
      }
      if (role === "standby") standby ??= host;
    }
    if (standby) this.current = standby;
  }

  private async poolRole(): Promise<"primary" | "standby" | "away"> {
    if (!this.pool) return this.role(this.current);
    try {
      const { rows } = await this.pool.query<{ standby: boolean }>("SELECT pg_is_in_recovery() AS standby");
      return rows[0]?.standby ? "standby" : "primary";
    } catch {
      return "away";
    }
  }

  private async role(host: HostPort): Promise<"primary" | "standby" | "away"> {
    const client = new pg.Client({
      connectionString: urlFor(this.url, host),
      connectionTimeoutMillis: this.connectTimeoutMs,
    });
    client.on("error", () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ standby: boolean }>("SELECT pg_is_in_recovery() AS standby");
      return rows[0]?.standby ? "standby" : "primary";
    } catch {
      return "away";
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
