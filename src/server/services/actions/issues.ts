/**
 * GitHub's issues API as actions: opening, editing, closing, reopening, labelling, assigning, locking. Each write is
 * one transaction of the action log (store/action-store.ts) holding the issue's state, the issue events, the Events
 * API event GitHub makes (IssuesEvent: opened, closed and reopened only, as GH Archive shows), and the `issues`
 * webhooks, built from the issue as the transaction left it (../shared/spec/github-actions-and-events.md).
 */
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import { toWireIssue, toWireLabel, type IssueFacts } from "../../convert/issue.js";
import { toWireSimpleUser } from "../../convert/user.js";
import { notFound } from "../../errors.js";
import { InvalidInputError } from "../../failures.js";
import type {
  ActionTransaction,
  EventInsert,
  IngestOptions,
  IssueChanges,
  IssueFilter,
  IssueRow,
  LabelRow,
  MadeIssueEvent,
  MadeWebhook,
  Page,
  PageRequest,
  RepoRow,
  Store,
  UserRow,
} from "../../store/store.js";
import type { PayloadBuilder } from "../../webhooks/payload.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams, FeedService } from "../feeds.js";
import { issueFacts } from "./issue-facts.js";
import { madeEvent, madeIssueEvent, madeWebhook, type ActionScene } from "./made.js";
import {
  mustHavePushAccess,
  writableRepository,
  type ActionAccess,
  type WritableRepository,
} from "./repository-access.js";

type CreateInput = RequestOf<Endpoints["issues"]["create"], "body">;
type UpdateInput = RequestOf<Endpoints["issues"]["update"], "body">;
type ListQuery = RequestOf<Endpoints["issues"]["listForRepo"], "query">;
export type IssuePath = FeedParams & { issue_number: string };

/** The colour GitHub gives a label an issue names that the repository does not have yet. */
const NEW_LABEL_COLOR = "ededed";
const LOCK_REASONS = ["off-topic", "too heated", "resolved", "spam"];
const STATE_REASONS = { closed: ["completed", "not_planned"], open: ["reopened"] } as const;

export interface IssueServiceParts {
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

/** What an action's work collects as it goes, for the log to write with its state. */
class Making {
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

/** The Events API's issue: the webhook's without `author_association`, which it no longer sends (CL25). */
function eventIssue(wire: Record<string, unknown>): Record<string, unknown> {
  const { author_association: _, ...rest } = wire;
  return rest;
}

const issueNumberOf = (path: IssuePath): number => {
  const n = Number(path.issue_number);
  if (!Number.isSafeInteger(n) || n < 1) throw notFound();
  return n;
};

/** Label names as create and update take them: strings, or objects with a `name` (Octokit's older form). */
function labelNames(labels: unknown[] | undefined): string[] | undefined {
  if (labels === undefined) return undefined;
  return labels.map((label, i) => {
    const name = typeof label === "object" && label !== null ? (label as { name?: unknown }).name : label;
    if (typeof name !== "string" || name.trim() === "")
      throw new InvalidInputError(`labels[${i}] must be a label name`, { field: "labels" });
    return name.trim();
  });
}

function loginsOf(assignees: unknown[] | undefined, assignee: string | null | undefined): string[] | undefined {
  if (assignees !== undefined) {
    return assignees.map((login, i) => {
      if (typeof login !== "string")
        throw new InvalidInputError(`assignees[${i}] must be a login`, { field: "assignees" });
      return login;
    });
  }
  if (assignee === undefined) return undefined;
  return assignee === null ? [] : [assignee];
}

export class IssueService {
  private readonly store: Store;
  private readonly feeds: FeedService;
  private readonly clock: () => Date;
  private readonly payloads: PayloadBuilder;
  private readonly baseUrl: () => string;
  private readonly queued: () => void;
  private readonly options: IngestOptions;

  constructor(parts: IssueServiceParts) {
    ({
      store: this.store,
      feeds: this.feeds,
      clock: this.clock,
      payloads: this.payloads,
      baseUrl: this.baseUrl,
      queued: this.queued,
      options: this.options,
    } = parts);
  }

  private async scene(repo: RepoRow, actor: UserRow): Promise<ActionScene> {
    const baseUrl = this.baseUrl();
    const owner = await this.store.users.findById(repo.ownerId);
    return {
      repo,
      org: owner?.type === "Organization" ? owner : null,
      actor,
      context: await this.payloads.context(repo.id, baseUrl),
      baseUrl,
      at: this.clock(),
    };
  }

  /** Runs an action's work in the log, and wakes the dispatcher when it queued deliveries. */
  private async perform<T>(scene: ActionScene, work: (making: Making) => Promise<T>): Promise<T> {
    const performed = await this.store.actions.perform(
      async (tx) => {
        const making = new Making(tx, scene);
        return making.done(await work(making));
      },
      scene.at,
      this.options,
    );
    if (performed.deliveriesQueued) this.queued();
    return performed.value;
  }

  /** The issue as webhooks and events show it, read in the action's transaction. */
  private async wire(tx: ActionTransaction, scene: ActionScene, issue: IssueRow) {
    const [facts] = await issueFacts(tx, scene.repo, [issue]);
    return toWireIssue(facts!, scene.baseUrl) as unknown as Record<string, unknown>;
  }

  /** The repository's labels of these names, made (grey, as GitHub makes them) where missing. */
  private async labels(tx: ActionTransaction, repo: RepoRow, names: string[]): Promise<LabelRow[]> {
    const found = await tx.issues.labelsNamed(repo.id, names);
    const byName = new Map(found.map((l) => [l.name.toLowerCase(), l]));
    for (const name of names) {
      if (byName.has(name.toLowerCase())) continue;
      byName.set(
        name.toLowerCase(),
        await tx.issues.insertLabel({
          repoId: repo.id,
          name,
          color: NEW_LABEL_COLOR,
          description: null,
          isDefault: false,
        }),
      );
    }
    return [...new Set(names.map((n) => n.toLowerCase()))].map((n) => byName.get(n)!);
  }

  /** The accounts of these logins, each one GitHub lets be assigned here (who has push access); else 422. */
  private async assignable(tx: ActionTransaction, repo: RepoRow, logins: string[]): Promise<UserRow[]> {
    const users: UserRow[] = [];
    for (const login of new Set(logins.map((l) => l.toLowerCase()))) {
      const user = await tx.users.findByLogin(login);
      const role = user && (await tx.directory.repoRole(user.id, repo.id));
      if (user?.type !== "User" || !(role === "owner" || role === "collaborator" || role === "member"))
        throw new InvalidInputError(`${login} cannot be assigned to issues of ${repo.fullName}`, {
          field: "assignees",
          code: "invalid",
        });
      users.push(user);
    }
    return users;
  }

  async create(params: FeedParams, input: CreateInput, access: ActionAccess): Promise<IssueView> {
    const w = await writableRepository(this.store, this.feeds, params, access);
    const title = String(input.title).trim();
    if (title === "") throw new InvalidInputError("title must not be blank", { field: "title", code: "missing_field" });
    // GitHub drops what only those with push access may set, silently, for everyone else.
    const names = w.pushes ? (labelNames(input.labels) ?? []) : [];
    const logins = w.pushes ? (loginsOf(input.assignees, input.assignee) ?? []) : [];
    if (w.pushes && input.milestone !== undefined && input.milestone !== null)
      throw new InvalidInputError(`milestone ${String(input.milestone)} does not exist`, {
        field: "milestone",
        code: "invalid",
      });
    const scene = await this.scene(w.repo, w.principal.user);
    const issue = await this.perform(scene, async (making) => {
      const { tx } = making;
      const assignees = await this.assignable(tx, w.repo, logins);
      const created = await tx.issues.insert({
        repoId: w.repo.id,
        userId: w.principal.user.id,
        title,
        body: input.body ?? null,
        milestoneId: null,
        at: scene.at,
      });
      const labels = await this.labels(tx, w.repo, names);
      await tx.issues.addLabels(
        created.id,
        labels.map((l) => l.id),
      );
      await tx.issues.addAssignees(
        created.id,
        assignees.map((u) => u.id),
      );
      const wire = await this.wire(tx, scene, created);
      await making.event("IssuesEvent", { action: "opened", issue: eventIssue(wire) });
      making.webhook("issues", "opened", { issue: wire });
      const about = { number: created.number, wire };
      for (const label of labels) await this.labeled(making, about, label, "labeled");
      for (const user of assignees) await this.assigned(making, about, user, "assigned");
      return created;
    });
    return this.view(w.repo, issue);
  }

  private async labeled(
    making: Making,
    issue: { number: number; wire: Record<string, unknown> },
    label: LabelRow,
    event: "labeled" | "unlabeled",
  ) {
    await making.issueEvent(issue, event, { label: { name: label.name, color: label.color } });
    making.webhook("issues", event, {
      issue: issue.wire,
      label: toWireLabel(label, making.scene.repo.fullName, making.scene.baseUrl),
    });
  }

  private async assigned(
    making: Making,
    issue: { number: number; wire: Record<string, unknown> },
    user: UserRow,
    event: "assigned" | "unassigned",
  ) {
    const { baseUrl, actor } = making.scene;
    const assignee = toWireSimpleUser(user, baseUrl);
    await making.issueEvent(issue, event, { assignee, assigner: toWireSimpleUser(actor, baseUrl) });
    making.webhook("issues", event, { issue: issue.wire, assignee });
  }

  /** The issue the path names in a repository the caller sees; 404 for anything else. */
  private async found(w: { repo: RepoRow }, path: IssuePath): Promise<IssueRow> {
    const issue = await this.store.issues.find(w.repo.id, issueNumberOf(path));
    if (!issue) throw notFound();
    return issue;
  }

  async update(path: IssuePath, input: UpdateInput, access: ActionAccess): Promise<IssueView> {
    const w = await writableRepository(this.store, this.feeds, path, access);
    const before = await this.found(w, path);
    if (!w.pushes && before.userId !== w.principal.user.id) throw mustHavePushAccess();
    const state = input.state;
    if (state !== undefined && state !== "open" && state !== "closed")
      throw new InvalidInputError(`state must be open or closed, got ${JSON.stringify(state)}`, {
        field: "state",
        code: "invalid",
      });
    const reason = input.state_reason;
    const target = state ?? before.state;
    if (reason !== undefined && reason !== null && !(STATE_REASONS[target] as readonly string[]).includes(reason))
      throw new InvalidInputError(`state_reason ${JSON.stringify(reason)} is not one for a ${target} issue`, {
        field: "state_reason",
        code: "invalid",
      });
    const title = input.title === undefined ? undefined : String(input.title).trim();
    if (title === "") throw new InvalidInputError("title must not be blank", { field: "title", code: "missing_field" });
    const names = w.pushes ? labelNames(input.labels) : undefined;
    const logins = w.pushes ? loginsOf(input.assignees, input.assignee) : undefined;
    if (w.pushes && input.milestone !== undefined && input.milestone !== null)
      throw new InvalidInputError(`milestone ${String(input.milestone)} does not exist`, {
        field: "milestone",
        code: "invalid",
      });
    const scene = await this.scene(w.repo, w.principal.user);
    const issue = await this.perform(scene, async (making) => {
      const { tx } = making;
      const current = (await tx.issues.findById(before.id))!;
      const changes: IssueChanges = { updatedAt: scene.at };
      const edited: Record<string, { from: string }> = {};
      if (title !== undefined && title !== current.title) {
        changes.title = title;
        edited.title = { from: current.title };
      }
      if (input.body !== undefined && (input.body ?? null) !== current.body) {
        changes.body = input.body ?? null;
        edited.body = { from: current.body ?? "" };
      }
      const closing = state === "closed" && current.state === "open";
      const reopening = state === "open" && current.state === "closed";
      if (closing)
        Object.assign(changes, {
          state,
          stateReason: reason ?? "completed",
          closedAt: scene.at,
          closedById: scene.actor.id,
        });
      if (reopening) Object.assign(changes, { state, stateReason: "reopened", closedAt: null, closedById: null });
      if (!closing && !reopening && reason !== undefined && reason !== current.stateReason)
        changes.stateReason = reason;
      const [labelsBefore] = (await tx.issues.labelsOf([current.id])).values();
      const labels = names === undefined ? undefined : await this.labels(tx, w.repo, names);
      const added = labels?.filter((l) => !labelsBefore!.some((b) => b.id === l.id)) ?? [];
      const removed = labels === undefined ? [] : labelsBefore!.filter((b) => !labels.some((l) => l.id === b.id));
      const [assigneesBefore] = (await tx.issues.assigneesOf([current.id])).values();
      const assignees = logins === undefined ? undefined : await this.assignable(tx, w.repo, logins);
      const assigned = assignees?.filter((u) => !assigneesBefore!.includes(u.id)) ?? [];
      const unassignedIds =
        assignees === undefined ? [] : assigneesBefore!.filter((id) => !assignees.some((u) => u.id === id));
      const changed =
        Object.keys(changes).length > 1 || added.length + removed.length + assigned.length + unassignedIds.length > 0;
      if (!changed) return current;
      const updated = await tx.issues.update(current.id, changes);
      await tx.issues.addLabels(
        current.id,
        added.map((l) => l.id),
      );
      await tx.issues.removeLabels(
        current.id,
        removed.map((l) => l.id),
      );
      await tx.issues.addAssignees(
        current.id,
        assigned.map((u) => u.id),
      );
      await tx.issues.removeAssignees(current.id, unassignedIds);
      const wire = await this.wire(tx, scene, updated);
      const about = { number: updated.number, wire };
      if (edited.title)
        await making.issueEvent(about, "renamed", { rename: { from: edited.title.from, to: updated.title } });
      if (Object.keys(edited).length) making.webhook("issues", "edited", { issue: wire, changes: edited });
      if (closing || reopening) {
        const action = closing ? "closed" : "reopened";
        await making.issueEvent(about, action);
        await making.event("IssuesEvent", { action, issue: eventIssue(wire) });
        making.webhook("issues", action, { issue: wire });
      }
      for (const label of added) await this.labeled(making, about, label, "labeled");
      for (const label of removed) await this.labeled(making, about, label, "unlabeled");
      for (const user of assigned) await this.assigned(making, about, user, "assigned");
      for (const id of unassignedIds) await this.assigned(making, about, (await tx.users.findById(id))!, "unassigned");
      return updated;
    });
    return this.view(w.repo, issue);
  }

  /** Locks (`lock_reason` one of GitHub's four) or unlocks; those with push access only. */
  async setLocked(path: IssuePath, lock: { lock_reason?: string } | null, access: ActionAccess): Promise<void> {
    const w = await writableRepository(this.store, this.feeds, path, access);
    const before = await this.found(w, path);
    if (!w.pushes) throw mustHavePushAccess();
    const reason = lock?.lock_reason;
    if (reason !== undefined && !LOCK_REASONS.includes(reason))
      throw new InvalidInputError(
        `lock_reason must be one of ${LOCK_REASONS.join(", ")}, got ${JSON.stringify(reason)}`,
        {
          field: "lock_reason",
          code: "invalid",
        },
      );
    if (before.locked === (lock !== null)) return; // GitHub answers 204 and makes nothing
    const scene = await this.scene(w.repo, w.principal.user);
    await this.perform(scene, async (making) => {
      const updated = await making.tx.issues.update(before.id, {
        locked: lock !== null,
        lockReason: lock === null ? null : (reason ?? null),
        updatedAt: scene.at,
      });
      const wire = await this.wire(making.tx, scene, updated);
      const action = lock === null ? "unlocked" : "locked";
      await making.issueEvent({ number: updated.number, wire }, action, {
        lock_reason: lock === null ? null : (reason ?? null),
      });
      making.webhook("issues", action, { issue: wire });
    });
  }

  /** A repository the caller sees, for the reads: 404 otherwise, as every repository resource. */
  private async readable(params: FeedParams, principal: Principal | null): Promise<RepoRow> {
    return (await this.feeds.repository(params, principal)).repo;
  }

  async get(path: IssuePath, principal: Principal | null): Promise<IssueView> {
    const repo = await this.readable(path, principal);
    return this.view(repo, await this.found({ repo }, path));
  }

  async list(
    params: FeedParams,
    query: ListQuery,
    principal: Principal | null,
    window: PageRequest,
  ): Promise<IssuePage> {
    const repo = await this.readable(params, principal);
    const filter = await this.filter(repo, query);
    const page = await this.store.issues.page(filter, window);
    return { rows: await issueFacts(this.store, repo, page.rows), total: page.total };
  }

  /** The per-issue events feed: the issue events made on it, oldest first, without the issue (GitHub's). */
  async events(path: IssuePath, principal: Principal | null, window: PageRequest): Promise<Page<string>> {
    const repo = await this.readable(path, principal);
    const issue = await this.found({ repo }, path);
    return this.store.issues.issueEventsOf(repo.id, issue.number, window);
  }

  private async filter(repo: RepoRow, query: ListQuery): Promise<IssueFilter> {
    const state = query.state ?? "open";
    if (state !== "open" && state !== "closed" && state !== "all")
      throw new InvalidInputError(`state must be open, closed or all, got ${JSON.stringify(state)}`, {
        field: "state",
        code: "invalid",
      });
    const sort = query.sort ?? "created";
    if (sort !== "created" && sort !== "updated" && sort !== "comments")
      throw new InvalidInputError(`sort must be created, updated or comments, got ${JSON.stringify(sort)}`, {
        field: "sort",
        code: "invalid",
      });
    const direction = query.direction ?? "desc";
    if (direction !== "asc" && direction !== "desc")
      throw new InvalidInputError(`direction must be asc or desc, got ${JSON.stringify(direction)}`, {
        field: "direction",
        code: "invalid",
      });
    const filter: IssueFilter = { repoId: repo.id, state, sort, direction };
    // A login that names nobody matches nothing, as on GitHub (an empty list, not a 404).
    const userId = async (login: string) => (await this.store.users.findByLogin(login))?.id ?? -1;
    if (query.creator !== undefined) filter.creatorId = await userId(query.creator);
    if (query.assignee !== undefined)
      filter.assignee =
        query.assignee === "none" || query.assignee === "*" ? query.assignee : await userId(query.assignee);
    if (query.milestone !== undefined)
      filter.milestone = query.milestone === "none" || query.milestone === "*" ? query.milestone : -1;
    if (query.labels !== undefined)
      filter.labels = query.labels
        .split(",")
        .map((l) => l.trim())
        .filter(Boolean);
    if (query.mentioned !== undefined) filter.mentioned = query.mentioned;
    if (query.since !== undefined) {
      const since = new Date(query.since);
      if (Number.isNaN(since.getTime()))
        throw new InvalidInputError(`since must be an ISO 8601 time, got ${JSON.stringify(query.since)}`, {
          field: "since",
          code: "invalid",
        });
      filter.since = since;
    }
    return filter;
  }

  private async view(repo: RepoRow, issue: IssueRow): Promise<IssueView> {
    const [facts] = await issueFacts(this.store, repo, [issue]);
    return { facts: facts! };
  }
}

export interface IssueView {
  facts: IssueFacts;
}

export type IssuePage = Page<IssueFacts>;

export type { WritableRepository };
