/**
 * The live scenarios' feeder: while a feed is polled, events flow in through `POST /admin/events` at a steady
 * 1,000 events/s (ten batches of 100 a second), as a GH Archive follower would bring them. The events are the
 * generated file's own lines, under new ids, stamped with the current time, so they land in the busiest
 * repositories and actors the feeds show.
 */
import { createReadStream, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { createGunzip } from "node:zlib";
import { createHash } from "node:crypto";

export const LIVE_EVENTS_PER_SECOND = 1000;
const BATCHES_PER_SECOND = 10;

/** The site administrator the feeder (by token) and the webhook measurement (by password, to create hooks) act as. */
export const ADMIN_CREDENTIALS = { login: "bench-admin", password: "bench-admin-password" };

/** The site administrator whose token the feeder uses: seeded by the bench next to the world. */
export function adminWorld(seed: number): { world: object; token: string } {
  const token = createHash("sha1").update(`feedgate-bench:${seed}:admin`).digest("hex");
  return {
    token,
    world: {
      users: [{ login: ADMIN_CREDENTIALS.login, password: ADMIN_CREDENTIALS.password, site_admin: true }],
      tokens: [{ user: ADMIN_CREDENTIALS.login, token, scopes: ["site_admin"], note: "feedgate bench feeder" }],
    },
  };
}

export function writeAdminWorld(file: string, seed: number): string {
  const { world, token } = adminWorld(seed);
  writeFileSync(file, `${JSON.stringify(world)}\n`);
  return token;
}

/** The first `count` events of the generated file, parsed (gzipped or not). */
export async function readTemplates(file: string, count: number): Promise<Record<string, unknown>[]> {
  const raw = createReadStream(file);
  const lines = createInterface({ input: file.endsWith(".gz") ? raw.pipe(createGunzip()) : raw, crlfDelay: Infinity });
  const templates: Record<string, unknown>[] = [];
  for await (const line of lines) {
    if (line.trim()) templates.push(JSON.parse(line) as Record<string, unknown>);
    if (templates.length >= count) break;
  }
  lines.close();
  raw.destroy();
  return templates;
}

export interface FeedResult {
  events: number;
  /** From start() to stop(). */
  seconds: number;
  /** Batches refused or failed. */
  errors: number;
}

export class LiveFeeder {
  private timer: NodeJS.Timeout | undefined;
  private next = 0;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly result = { events: 0, errors: 0 };
  private started = 0;

  /**
   * @param firstId ids from here on are free (past the generated file's).
   * @param exclude a repository the feeder leaves alone (the 304 scenario polls it: its page must not change).
   */
  constructor(
    private readonly url: string,
    private readonly token: string,
    private readonly templates: Record<string, unknown>[],
    private nextId: number,
    private readonly exclude?: string,
  ) {}

  start(): void {
    this.started = performance.now();
    const usable = this.exclude
      ? this.templates.filter((t) => (t.repo as { name?: string } | undefined)?.name !== this.exclude)
      : this.templates;
    const perBatch = LIVE_EVENTS_PER_SECOND / BATCHES_PER_SECOND;
    this.timer = setInterval(() => {
      const now = new Date().toISOString();
      const batch: string[] = [];
      for (let i = 0; i < perBatch; i++) {
        const template = usable[this.next++ % usable.length]!;
        batch.push(JSON.stringify({ ...template, id: String(this.nextId++), created_at: now }));
      }
      const sent = this.post(batch.join("\n")).finally(() => this.inFlight.delete(sent));
      this.inFlight.add(sent);
    }, 1000 / BATCHES_PER_SECOND);
  }

  private async post(body: string): Promise<void> {
    try {
      const response = await fetch(`${this.url}/admin/events`, {
        method: "POST",
        body,
        headers: { Authorization: `token ${this.token}`, "Content-Type": "application/x-ndjson" },
      });
      const text = await response.text();
      if (response.status !== 200 && response.status !== 201)
        throw new Error(`${response.status}: ${text.slice(0, 200)}`);
      this.result.events += (JSON.parse(text) as { events_added?: number }).events_added ?? 0;
    } catch {
      this.result.errors++;
    }
  }

  /** Stops feeding and waits for the batches sent to be answered. */
  async stop(): Promise<FeedResult> {
    clearInterval(this.timer);
    await Promise.all(this.inFlight);
    return { ...this.result, seconds: (performance.now() - this.started) / 1000 };
  }
}
