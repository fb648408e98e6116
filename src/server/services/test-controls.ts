/**
 * What a test instance lets its tests do (`feedgate/testing`, `serve --test-controls`): put the database back as it
 * was at start, or as a snapshot took it; set and advance the clock; make requests fail (./faults.ts); read every
 * webhook delivery attempted. One object, used alike by the in-process API and by the `/_feedgate/` routes.
 */
import { randomBytes } from "node:crypto";
import type { ManualClock } from "../clock.js";
import type { WindowCounters } from "../counters/counters.js";
import type { DeliveryAttempt, DeliveryRow } from "../store/hook-store.js";
import type { Store } from "../store/store.js";
import type { FaultList } from "./faults.js";
import type { IngestService } from "./ingest.js";

/** The image every reset returns to: the database as it stood when the instance was ready (its world seeded). */
const AT_START = "at_start";
/** Attempts kept for `deliveries()`; the oldest go first. */
const ATTEMPTS_KEPT = 10_000;

export class SnapshotNotFoundError extends Error {
  override name = "SnapshotNotFoundError";
}

export interface TestControlParts {
  store: Store;
  clock: ManualClock;
  /** The rate-limit and login windows, emptied by a reset when they are this process's own. */
  counters: WindowCounters;
  faults: FaultList;
  /** The app's own ingest, so that what a test ingests reaches webhooks and streams as an admin ingest does. */
  ingest: IngestService;
  /** Seals a webhook secret as the app's hooks keep theirs: a test's app signs its deliveries with it. */
  sealSecret: (secret: string) => string;
  /** The contents service's commit of files as a person's push (`fg.commit`). */
  commitFiles: CommitFiles;
}

/** Files written (text) or deleted (null) in one commit of `login`'s on `repo` (`owner/name`), pushed. */
export type CommitFiles = (
  repo: string,
  login: string,
  change: { branch?: string; message: string; files: Readonly<Record<string, string | null>> },
) => Promise<{ sha: string; branch: string }>;

export class TestControls {
  readonly clock: ManualClock;
  readonly faults: FaultList;
  readonly ingest: IngestService;
  readonly sealSecret: (secret: string) => string;
  readonly commitFiles: CommitFiles;
  private readonly store: Store;
  private readonly counters: WindowCounters;
  private readonly attempts: DeliveryRow[] = [];
  private attemptsSeen = 0;
  /** Part of every snapshot's id: an id another instance handed out is refused here, even on a shared database. */
  private readonly instance = randomBytes(4).toString("hex");
  private snapshots = 0;

  constructor(parts: TestControlParts) {
    ({
      store: this.store,
      clock: this.clock,
      counters: this.counters,
      faults: this.faults,
      ingest: this.ingest,
      sealSecret: this.sealSecret,
      commitFiles: this.commitFiles,
    } = parts);
  }

  /** Takes the image resets return to; called once the instance is ready. */
  async markStart(): Promise<void> {
    await this.store.state.capture(AT_START);
  }

  recordAttempt(attempt: DeliveryAttempt): void {
    this.attempts.push({ ...attempt, id: ++this.attemptsSeen });
    if (this.attempts.length > ATTEMPTS_KEPT) this.attempts.shift();
  }

  /** Every delivery attempted since the start or the last reset, oldest first. */
  deliveries(): readonly DeliveryRow[] {
    return this.attempts;
  }

  /** Back to the start: the database as the world left it, the clock, no faults, empty rate-limit windows, no deliveries. */
  async reset(): Promise<void> {
    await this.store.state.replace(AT_START);
    this.clock.reset();
    this.faults.clear();
    this.counters.clear?.();
    this.attempts.length = 0;
  }

  /** Takes a snapshot of the database; returns its id. */
  async snapshot(): Promise<string> {
    const id = `s${this.instance}_${++this.snapshots}`;
    await this.store.state.capture(id);
    return id;
  }

  /** Puts the database back as the snapshot `id` took it; the clock, faults and deliveries stay as they are. */
  async restore(id: string): Promise<void> {
    if (
      !id.startsWith(`s${this.instance}_`) ||
      !/^s[0-9a-f]{8}_[0-9]+$/.test(id) ||
      !(await this.store.state.has(id))
    ) {
      throw new SnapshotNotFoundError(`no snapshot ${JSON.stringify(id).slice(0, 60)} was taken by this instance`);
    }
    await this.store.state.replace(id);
  }
}
