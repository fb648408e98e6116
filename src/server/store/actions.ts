/**
 * The action log (action-store.ts), written once over the executor: the work's state writes, then the events and
 * issue events it made, written as an ingest writes them on the same transaction's connection (the driver's part:
 * sqlite/made-rows.ts, postgres/made-rows.ts), then the webhooks it made that no event carries. Ids continue after
 * the highest stored, read under the ingest's lock.
 */
import { randomUUID } from "node:crypto";
import { subscribes } from "../../api/webhook-events.js";
import type {
  Action,
  ActionDriver,
  ActionStore,
  ActionTransaction,
  IdTable,
  MadeWebhook,
  Performed,
} from "./action-store.js";
import type { Executor } from "./executor.js";
import { HOOK_SQL, hookTargetsSql, INSTALLATION_COVERS, toHookTarget, type HookTargetRecord } from "./hook-sql.js";
import { DEFAULT_INGEST_OPTIONS, type IngestOptions } from "./ingest-store.js";
import { Issues } from "./issues.js";
import { Users } from "./users.js";
import { Directory } from "./directory.js";
import { Comments, Reactions } from "./comments.js";
import { Relations } from "./relations.js";
import { Labels } from "./labels.js";
import { Milestones } from "./milestones.js";
import { Repositories } from "./repositories.js";
import { Collaborators } from "./collaborators.js";
import { GitObjects } from "./git.js";
import { Pulls } from "./pulls.js";
import { ReviewComments } from "./review-comments.js";
import { Hooks } from "./hooks.js";
import { Statuses } from "./statuses.js";
import { Checks } from "./checks.js";
import { Apps } from "./apps.js";
import { Releases } from "./releases.js";
import { CommitComments } from "./commit-comments.js";
import { Protections } from "./protections.js";

/** The hooks of one repository and of the organization owning it (hook-sql.ts), for a webhook no event carries. */
const ONE_REPO: Record<Executor["dialect"], string> = {
  sqlite: hookTargetsSql("SELECT @repoId", "sqlite"),
  postgres: hookTargetsSql("SELECT @repoId::int8", "postgres"),
};

/**
 * The hooks of one organization only, for a webhook its repository's own hooks must not receive (a repository
 * deleted): the organization's, and those of the apps installed on it (an account's event, whatever repositories the
 * installation selected), with the installation, whose accepted events are the ones it gets.
 */
const QUEUED = "(SELECT count(*) FROM hook_queue q WHERE q.hook_id = h.id) AS queued";
const ONE_ORG = `SELECT h.id AS hook_id, h.events AS events, ${QUEUED}, CAST(NULL AS BIGINT) AS installation_id
  FROM hooks h WHERE h.active = @active AND h.org_id = @orgId
  UNION ALL
  SELECT h.id AS hook_id, i.events AS events, ${QUEUED}, i.id AS installation_id
  FROM installations i JOIN hooks h ON h.app_id = i.app_id
  WHERE h.active = @active AND i.account_id = @orgId AND i.suspended_at IS NULL`;

/** The hook of one app, through its installation on the repository's owner when it covers the repository. */
const ONE_APP: Record<Executor["dialect"], string> = {
  sqlite: oneApp("sqlite"),
  postgres: oneApp("postgres"),
};

function oneApp(dialect: Executor["dialect"]): string {
  return `SELECT h.id AS hook_id, i.events AS events, ${QUEUED}, i.id AS installation_id
    FROM repos r JOIN installations i ON i.account_id = r.owner_id AND i.suspended_at IS NULL
      AND ${INSTALLATION_COVERS[dialect]}
    JOIN hooks h ON h.app_id = i.app_id WHERE h.active = @active AND r.id = @repoId AND i.app_id = @appId`;
}

/** The highest stored ids as a driver's opening read them (`highestIds`), by table; null for an empty table. */
type Highest = Partial<Record<IdTable, string | number | null>>;

/** The highest ids of the tables named, as one row with a column per table: read with an action's locks. */
const highestIds = (tables: readonly IdTable[]) =>
  `SELECT ${tables.map((table) => `(SELECT max(id) FROM ${table}) AS ${table}`).join(", ")}`;

/** Hands out ids after the highest stored one of a table, and after those it handed out already. */
class IdsAfterHighest {
  private next: bigint | null = null;

  constructor(
    private readonly tx: Executor,
    private readonly table: IdTable,
    /** The highest ids as the transaction's opening read them, when it did. */
    highest: Highest | undefined,
  ) {
    if (highest && this.table in highest) this.next = BigInt(highest[this.table] ?? 0) + 1n;
  }

  async take(): Promise<string> {
    if (this.next === null) {
      const row = await this.tx.get<{ id: string | number | null }>(`SELECT max(id) AS id FROM ${this.table}`);
      this.next = BigInt(row?.id ?? 0) + 1n;
    }
    return String(this.next++);
  }
}

export class Actions implements ActionStore {
  constructor(
    private readonly db: Executor,
    private readonly driver: ActionDriver,
  ) {}

  async perform<T>(
    work: (tx: ActionTransaction) => Promise<Action<T>>,
    now: Date,
    options: IngestOptions = DEFAULT_INGEST_OPTIONS,
    expects: readonly IdTable[] = [],
  ): Promise<Performed<T>> {
    await this.driver.prepare(now);
    // Where the driver sends its opening with BEGIN (PostgreSQL), the highest ids the action expects to need come back
    // with it, so that they cost no round trip of their own; only those: on a table of many partitions each is a
    // read of every partition's index, wasted on an action that makes no such row. Others are read when first asked.
    const { opening } = this.driver;
    const reads = opening === undefined ? [] : expects;
    let highest: Highest | undefined;
    const performed = await this.db.transaction(
      async (tx) => {
        const eventIds = new IdsAfterHighest(tx, "events", highest);
        const issueEventIds = new IdsAfterHighest(tx, "issue_events", highest);
        const action = await work({
          issues: new Issues(tx),
          comments: new Comments(tx),
          reactions: new Reactions(tx),
          users: new Users(tx),
          directory: new Directory(tx),
          relations: new Relations(tx),
          labels: new Labels(tx),
          milestones: new Milestones(tx),
          repositories: new Repositories(tx),
          collaborators: new Collaborators(tx),
          git: new GitObjects(tx, false),
          pulls: new Pulls(tx),
          reviewComments: new ReviewComments(tx),
          hooks: new Hooks(tx),
          statuses: new Statuses(tx),
          checks: new Checks(tx),
          apps: new Apps(tx),
          releases: new Releases(tx),
          commitComments: new CommitComments(tx),
          protections: new Protections(tx),
          nextEventId: () => eventIds.take(),
          nextIssueEventId: () => issueEventIds.take(),
        });
        // Always, even with nothing made: the generation is raised, which every cache keys on. No deliveries of the
        // events: an action's webhooks are its own (`webhooks`), built from the state it wrote, not from the event's
        // payload (an Events API payload lacks what webhooks carry, `author_association`, `changes`).
        await this.driver.write(tx, { events: action.events ?? [], issueEvents: action.issueEvents ?? [] }, now);
        const queued = options.webhooks
          ? await this.queue(tx, action.webhooks ?? [], now, options.webhooks.maxQueue)
          : 0;
        return { value: action.value, deliveriesQueued: queued };
      },
      {
        write: true,
        ...(reads.length
          ? { opening: `${opening}; ${highestIds(reads)}`, opened: (rows) => (highest = rows[0] as Highest) }
          : opening
            ? { opening }
            : {}),
      },
    );
    this.driver.committed();
    return performed;
  }

  /** Queues each webhook to every active hook of its repository (or owning organization) subscribed to its event. */
  private async queue(tx: Executor, webhooks: MadeWebhook[], now: Date, maxQueue: number): Promise<number> {
    let queued = 0;
    for (const webhook of webhooks) {
      const active = tx.values.bool(true);
      const records =
        webhook.toApp !== undefined
          ? await tx.all<HookTargetRecord>(ONE_APP[tx.dialect], {
              active,
              repoId: webhook.repoId,
              appId: webhook.toApp,
            })
          : webhook.toOrganization === undefined
            ? await tx.all<HookTargetRecord>(ONE_REPO[tx.dialect], { active, repoId: webhook.repoId })
            : await tx.all<HookTargetRecord>(ONE_ORG, { active, orgId: webhook.toOrganization });
      const targets = records.map(toHookTarget);
      const guid = randomUUID();
      for (const target of targets) {
        if (!subscribes(target.events, webhook.event) || target.queued >= maxQueue) continue;
        await tx.run(HOOK_SQL.enqueue, {
          hookId: target.hookId,
          guid,
          event: webhook.event,
          action: webhook.action,
          eventId: null,
          body: webhook.body,
          redelivery: tx.values.bool(false),
          due: now.getTime(),
          now: tx.values.time(now),
          installationId: target.installationId,
        });
        queued++;
      }
    }
    return queued;
  }
}
