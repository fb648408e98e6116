/**
 * The action log as a service sees it: the scene of an action (where, who, when, what webhook bodies carry), the
 * Making collector of what its work makes, and perform(), which runs the work in one transaction of the log
 * (store/action-store.ts) and wakes the dispatcher when deliveries were queued. Shared by the action services;
 * IssueService's private Making, scene() and perform() are the same and can give way to these.
 */
import type { ActionTransaction, EventInsert, IngestOptions, MadeIssueEvent, MadeWebhook } from "../../store/store.js";
import type { RepoRow, Store, UserRow } from "../../store/store.js";
import type { PayloadBuilder } from "../../webhooks/payload.js";
import { madeEvent, madeIssueEvent, madeWebhook, type ActionScene } from "./made.js";

export interface ActionLogParts {
  store: Store;
  clock: () => Date;
  payloads: PayloadBuilder;
  /** The base of the URLs in what actions make: the webhooks' (webhooks/webhooks.ts). */
  baseUrl: () => string;
  /** Told after an action queued webhook deliveries: wakes the dispatcher. */
  queued: () => void;
  options: IngestOptions;
}

/** What an action's work collects as it goes, for the log to write with its state. */
export class Making {
  readonly events: EventInsert[] = [];
  readonly issueEvents: MadeIssueEvent[] = [];
  readonly webhooks: MadeWebhook[] = [];

  constructor(
    readonly tx: ActionTransaction,
    readonly scene: ActionScene,
  ) {}

  async event(type: string, payload: Record<string, unknown>) {
    this.events.push(madeEvent(this.scene, await this.tx.nextEventId(), type, payload));
  }

  async issueEvent(issue: { number: number; wire: Record<string, unknown> }, event: string, fields = {}) {
    this.issueEvents.push(madeIssueEvent(this.scene, await this.tx.nextIssueEventId(), issue, event, fields));
  }

  webhook(event: string, action: string, payload: Record<string, unknown>) {
    this.webhooks.push(madeWebhook(this.scene, event, action, payload));
  }

  done<T>(value: T) {
    return { value, events: this.events, issueEvents: this.issueEvents, webhooks: this.webhooks };
  }
}

/** An object as the Events API carries it: without `author_association`, which it no longer sends (CL25). */
export function withoutAssociation(wire: Record<string, unknown>): Record<string, unknown> {
  const { author_association: _, ...rest } = wire;
  return rest;
}

export class ActionLog {
  constructor(private readonly parts: ActionLogParts) {}

  async scene(repo: RepoRow, actor: UserRow): Promise<ActionScene> {
    const baseUrl = this.parts.baseUrl();
    const owner = await this.parts.store.users.findById(repo.ownerId);
    return {
      repo,
      org: owner?.type === "Organization" ? owner : null,
      actor,
      context: await this.parts.payloads.context(repo.id, baseUrl),
      baseUrl,
      at: this.parts.clock(),
    };
  }

  /** Runs an action's work in the log, and wakes the dispatcher when it queued deliveries. */
  async perform<T>(scene: ActionScene, work: (making: Making) => Promise<T>): Promise<T> {
    const performed = await this.parts.store.actions.perform(
      async (tx) => {
        const making = new Making(tx, scene);
        return making.done(await work(making));
      },
      scene.at,
      this.parts.options,
    );
    if (performed.deliveriesQueued) this.parts.queued();
    return performed.value;
  }
}
