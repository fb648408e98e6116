/** Seeding a world and ingesting events: shared by the CLI and the admin HTTP routes. */
import type { Counter } from "prom-client";
import type { EventText, IngestOptions, IngestResult, Store } from "../store/store.js";
import { drained } from "../store/encoded-batch.js";
import { batchOfEvents, decodingBatch, inSlices, NDJSON_DECODER } from "./ingest-body.js";
import { registerWorldOAuthApps } from "./world-oauth-apps.js";
import { checkSealable, storeWorldApps } from "./world-apps.js";
import { loadWorld, type WorldContents, type WorldOptions } from "./world.js";
import { storeWorldIssues } from "./world-issues.js";
import { storeWorldFiles } from "./world-files.js";

/** A seeded world: what was added, and what the document held. */
export interface SeedResult extends IngestResult {
  contents: WorldContents;
}

/** What the serving process adds to an ingest; the CLI and tests ingest without it. */
export interface IngestWiring {
  /** Counts the events each ingest actually added. */
  eventsIngested?: Counter;
  /**
   * Told after each ingest that queued webhook deliveries: the serving process wakes its dispatcher, whose every
   * wake-up claims from the outbox in a write transaction.
   */
  ingested?: () => void;
  /** What the ingests queue for webhooks (`--webhook-max-queue`). */
  options?: IngestOptions;
}

export class IngestService {
  private readonly eventsIngested: Counter | undefined;
  private readonly ingested: (() => void) | undefined;
  private readonly options: IngestOptions | undefined;

  constructor(
    private readonly store: Store,
    private readonly clock: () => Date,
    wiring: IngestWiring = {},
  ) {
    ({ eventsIngested: this.eventsIngested, ingested: this.ingested, options: this.options } = wiring);
  }

  /**
   * Loads a world document: its batch in one transaction, then its issues and its repositories' files in others
   * (nothing in them can be refused once the document is checked: world-issues.ts, world-files.ts), then its OAuth
   * apps (world-oauth-apps.ts); idempotent.
   */
  async seedWorld(doc: unknown, options: WorldOptions): Promise<SeedResult> {
    const { batch, issues, oauthApps, apps, files, contents } = await loadWorld(this.store, doc, options, this.clock());
    checkSealable(apps, options.sealSecret); // before anything of the world is stored
    const result = this.counted(await this.store.ingest.apply(batch, this.clock(), this.options));
    if (issues.length)
      await this.store.actions.perform(async (tx) => ({ value: await storeWorldIssues(tx, issues) }), this.clock());
    if (files.length)
      await this.store.actions.perform(
        async (tx) => ({ value: await storeWorldFiles(tx, files, this.clock()) }),
        this.clock(),
      );
    await registerWorldOAuthApps(this.store, oauthApps, this.clock);
    await storeWorldApps(this.store, apps, this.clock, options.sealSecret);
    return { ...result, contents };
  }

  /**
   * Ingests already-parsed events in one transaction; any bad entry refuses them all. An event without `created_at`
   * is stamped with the clock's now, one time for the whole body.
   * @param lines each event's text as sent (NDJSON), or its bytes, when there is one.
   */
  async ingestEvents(events: unknown[], lines?: readonly EventText[]): Promise<IngestResult> {
    const batch = drained(batchOfEvents(events, lines, this.clock()));
    return this.counted(await this.store.ingest.apply(batch, this.clock(), this.options));
  }

  /**
   * ingestEvents of an NDJSON body's events and lines (one whose first entry is an object: isNdjsonOfObjects), given
   * as received: parsed where the store writes, when it writes on a thread of its own (SQLite's write worker), else
   * here, a few milliseconds at a time. An entry that is not JSON refuses the body with UnparsableEntryError.
   */
  async ingestNdjson(body: Uint8Array): Promise<IngestResult> {
    const now = this.clock();
    const { ingest } = this.store;
    const result = ingest.applyEncoded
      ? await ingest.applyEncoded({ bytes: body, decoder: NDJSON_DECODER }, now, this.options)
      : await ingest.apply(await inSlices(decodingBatch(body, now)), this.clock(), this.options);
    return this.counted(result);
  }

  private counted(result: IngestResult): IngestResult {
    this.eventsIngested?.inc(result.eventsAdded);
    if (result.deliveriesQueued) this.ingested?.();
    return result;
  }
}
