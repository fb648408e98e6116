/**
 * What every service of the action log shares (issues, labels, milestones, assignees): the scene an action happens
 * in, one run of its work in the log (store/action-store.ts) with what it makes collected as it goes, and the issue
 * as its events and webhooks show it, read in the action's own transaction.
 */
import { toWireIssue, type IssueFacts } from "../../convert/issue.js";
import { notFound } from "../../errors.js";
import type {
  ActionTransaction,
  IdTable,
  MadeEvent,
  IngestOptions,
  IssueHas,
  IssueRow,
  MadeIssueEvent,
  MadeWebhook,
  RepoRow,
  Store,
  UserRow,
} from "../../store/store.js";
import type { ContextSources, PayloadBuilder } from "../../webhooks/payload.js";
import type { FeedParams, FeedService } from "../feeds.js";
import { issueFacts, knownToHave, readingOnce, type FactSources } from "./issue-facts.js";
import type { WritableRepository } from "./repository-access.js";
import { madeEvent, madeIssueEvent, madeWebhook, type ActionScene } from "./made.js";

export interface ActionParts {
  store: Store;
  feeds: FeedService;
  clock: () => Date;
  payloads: PayloadBuilder;
  /** The base of the URLs in what actions make: the webhooks' (webhooks/webhooks.ts). */
  baseUrl: () => string;
  /** Told after an action queued webhook deliveries: wakes the dispatcher. */
  queued: () => void;
  options: IngestOptions;
}

export type IssuePath = FeedParams & { issue_number: string };

/** An issue as an action's events carry it: its number (the per-issue feed's key) and its wire object. */
export interface IssueAbout {
  number: number;
  wire: Record<string, unknown>;
  /** What the wire object was made from, when it was read in the action's transaction (`Acting.wire`). */
  facts?: IssueFacts;
}

/** A webhook whose body waits for its scene's context, read when the action's work is done (`ActionScene.settle`). */
interface UnsettledWebhook {
  made: MadeWebhook;
  scene: ActionScene;
  payload: Record<string, unknown>;
}

/** What an action's work collects as it goes, for the log to write with its state. */
export class Making {
  readonly events: MadeEvent[];
  readonly issueEvents: MadeIssueEvent[];
  readonly webhooks: MadeWebhook[];
  private readonly unsettled: UnsettledWebhook[];

  constructor(
    readonly tx: ActionTransaction,
    readonly scene: ActionScene,
    /** The scene of the same actor in another repository, read in the transaction (for `in`). */
    private readonly scenes?: (repo: RepoRow) => Promise<ActionScene>,
    /** What another Making of the same action collects: this one adds to it. */
    collected?: Making,
  ) {
    this.events = collected?.events ?? [];
    this.issueEvents = collected?.issueEvents ?? [];
    this.webhooks = collected?.webhooks ?? [];
    this.unsettled = collected?.unsettled ?? [];
  }

  /**
   * The same action as it shows in another repository, whose events and webhooks it makes too (a push to a fork's
   * branch moves a pull request of its parent): what is made there is collected here, in the same transaction.
   */
  async in(repo: RepoRow): Promise<Making> {
    if (repo.id === this.scene.repo.id || !this.scenes) return this;
    return new Making(this.tx, { ...(await this.scenes(repo)), at: this.scene.at }, this.scenes, this);
  }

  /** An Events API event; its payload may be made from the event's id (a PushEvent's `push_id`). */
  async event(type: string, payload: Record<string, unknown> | ((id: string) => Record<string, unknown>)) {
    const id = await this.tx.nextEventId();
    this.events.push(madeEvent(this.scene, id, type, typeof payload === "function" ? payload(id) : payload));
  }

  /** An issue event; its `actor` is the scene's, or another's where GitHub names someone else (`mentioned`). */
  async issueEvent(issue: IssueAbout, event: string, fields = {}, actor = this.scene.actor) {
    const id = await this.tx.nextIssueEventId();
    this.issueEvents.push(madeIssueEvent({ ...this.scene, actor }, id, issue, event, fields));
  }

  /**
   * A webhook of the action (`action` null for an event that has none: `fork`, `public`); none when no hook would
   * receive it (the scene has no webhook context). `toApp`: for that GitHub App's hook alone.
   */
  webhook(event: string, action: string | null, payload: Record<string, unknown>, toApp?: number) {
    const { scene } = this;
    if (scene.context === null) return;
    const built = scene.settle
      ? { repoId: scene.repo.id, event, action, body: "" }
      : madeWebhook(scene, event, action, payload);
    const made = toApp === undefined ? built : { ...built, toApp };
    this.webhooks.push(made);
    if (scene.settle) this.unsettled.push({ made, scene, payload });
  }

  /** What the action made, its webhooks' bodies written with their repositories as the action left them. */
  async done<T>(value: T) {
    const contexts = new Map<number, Record<string, unknown>>();
    for (const { made, scene, payload } of this.unsettled) {
      let context = contexts.get(scene.repo.id);
      // One after another: the transaction's reads share one connection.
      if (!context) contexts.set(scene.repo.id, (context = await scene.settle!(this.tx)));
      made.body = madeWebhook({ ...scene, context }, made.event, made.action, payload).body;
    }
    return { value, events: this.events, issueEvents: this.issueEvents, webhooks: this.webhooks };
  }
}

/**
 * An issue's or a milestone's number, as a request writes it; null for one nothing can have: not a whole number
 * from 1, or past the `integer` columns hold (PostgreSQL would fail the look-up rather than find nothing).
 */
export function numberOf(value: string | number): number | null {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 2 ** 31 - 1 ? n : null;
}

/** The issue number of a path; 404 for one no issue can have. */
export const issueNumberOf = (path: IssuePath): number => {
  const n = numberOf(path.issue_number);
  if (n === null) throw notFound();
  return n;
};

/** An object as the Events API carries it: without `author_association`, which it no longer sends (CL25). */
export function withoutAssociation(wire: Record<string, unknown>): Record<string, unknown> {
  const { author_association: _, ...rest } = wire;
  return rest;
}

export class Acting {
  constructor(readonly parts: ActionParts) {}

  /**
   * Where the action happens. The webhook context (the repository's whole object, its counts read) is built only
   * when an active hook would receive the action's webhooks, and only once the action's work is done, in its
   * transaction (`ActionScene.settle`).
   */
  async scene(
    repo: RepoRow,
    actor: UserRow,
    /** An action's transaction, for a scene read inside it (the store's own reads would wait for it). */
    sources: Pick<ActionTransaction, "users" | "directory" | "hooks"> = this.parts.store,
  ): Promise<ActionScene> {
    const baseUrl = this.parts.baseUrl();
    const { payloads } = this.parts;
    const owner = await sources.users.findById(repo.ownerId);
    const hooked = await sources.hooks.hasActiveHook(repo.id);
    return {
      repo,
      org: owner?.type === "Organization" ? owner : null,
      actor,
      context: hooked ? {} : null,
      ...(hooked ? { settle: (tx: ContextSources) => payloads.context(repo.id, baseUrl, tx, owner) } : {}),
      baseUrl,
      at: this.parts.clock(),
    };
  }

  /**
   * The scene of an action by a caller on a repository it was admitted to write (repository-access.ts), with its role
   * there as the check found it. Not for an action that changes that role (collaborators, members, a transfer).
   */
  async sceneOf(w: WritableRepository): Promise<ActionScene> {
    return { ...(await this.scene(w.repo, w.principal.user)), actorRole: w.role };
  }

  /** What the action shows of its issues and comments, each user and role read once (issue-facts.ts). */
  factSources(tx: ActionTransaction, scene: ActionScene): FactSources {
    return readingOnce(tx, { actor: scene.actor, repoId: scene.repo.id, actorRole: scene.actorRole });
  }

  /**
   * Runs an action's work in the log, and wakes the dispatcher when it queued deliveries. `expects`: the tables it
   * will most likely take ids in (ActionStore.perform), read with its locks.
   */
  async perform<T>(scene: ActionScene, work: (making: Making) => Promise<T>, expects?: readonly IdTable[]): Promise<T> {
    const performed = await this.parts.store.actions.perform(
      async (tx) => {
        const making = new Making(tx, scene, (repo) => this.scene(repo, scene.actor, tx));
        return making.done(await work(making));
      },
      scene.at,
      this.parts.options,
      expects,
    );
    if (performed.deliveriesQueued) this.parts.queued();
    return performed.value;
  }

  /**
   * The issue as webhooks and events show it, read in the action's transaction; `has`, when the action knows which of
   * its labels, assignees, reactions and pull request the issue has, so that the others are not read (issue-facts.ts).
   */
  async wire(tx: ActionTransaction, scene: ActionScene, issue: IssueRow, has?: IssueHas): Promise<IssueAbout> {
    const sources = this.factSources(tx, scene);
    const [facts] = await issueFacts(has ? knownToHave(sources, issue.id, has) : sources, scene.repo, [issue]);
    return {
      number: issue.number,
      wire: toWireIssue(facts!, scene.baseUrl) as unknown as Record<string, unknown>,
      facts: facts!,
    };
  }

  /** The issue the path names in a repository the caller sees; 404 for anything else. */
  async issue(repo: RepoRow, path: IssuePath): Promise<IssueRow> {
    const issue = await this.parts.store.issues.find(repo.id, issueNumberOf(path));
    if (!issue) throw notFound();
    return issue;
  }
}
