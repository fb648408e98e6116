/** Seeding a world and ingesting events: shared by the CLI and the admin HTTP routes. */
import type { Counter } from "prom-client";
import type { EventText, IngestOptions, IngestResult, Store } from "../store/store.js";
import { addEvent, createdNowUnlessSaid, emptyBatch, parseEvent } from "./event-envelope.js";
import { loadWorld, type WorldContents, type WorldOptions } from "./world.js";

/** A seeded world: what was added, and what the document held. */
export interface SeedResult extends IngestResult {
  contents: WorldContents;
}

export class IngestService {
  /**
   * @param eventsIngested counts the events each ingest actually added (the serving process passes it).
   * @param ingested told after each ingest (the serving process wakes its webhook dispatcher: deliveries were queued).
   * @param options what the ingests queue for webhooks (`--webhook-max-queue`).
   */
  constructor(private readonly store: Store, private readonly clock: () => Date, private readonly eventsIngested?: Counter,
    private readonly ingested?: () => void, private readonly options?: IngestOptions) {}

  /** Loads a world document in one transaction: idempotent, and all or nothing. */
  async seedWorld(doc: unknown, options: WorldOptions): Promise<SeedResult> {
    const { batch, contents } = await loadWorld(this.store, doc, options);
    return { ...this.counted(await this.store.ingest.apply(batch, this.clock(), this.options)), contents };
  }

  /**
   * Ingests already-parsed events in one transaction; any bad entry refuses them all. An event without `created_at`
   * is stamped with the clock's now, one time for the whole body.
   * @param lines each event's text as sent (NDJSON), or its bytes, when there is one.
   */
  async ingestEvents(events: unknown[], lines?: readonly EventText[]): Promise<IngestResult> {
    const batch = emptyBatch();
    const now = this.clock();
    for (const [i, event] of events.entries()) {
      const stamped = createdNowUnlessSaid(event, now);
      // A complete event is stored as its line (as an import stores it), unless it was stamped with the time here.
      addEvent(batch, parseEvent(stamped, `events[${i}]`, stamped === event ? lines?.[i] : undefined));
    }
    return this.counted(await this.store.ingest.apply(batch, this.clock(), this.options));
  }

  private counted(result: IngestResult): IngestResult {
    this.eventsIngested?.inc(result.eventsAdded);
    this.ingested?.();
    return result;
  }
}
