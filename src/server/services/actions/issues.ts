/**
 * GitHub's issues API as actions: opening, editing, closing, reopening, labelling, assigning, locking. Each write is
 * one transaction of the action log (store/action-store.ts) holding the issue's state, the issue events, the Events
 * API event GitHub makes (IssuesEvent: opened, closed and reopened only, as GH Archive shows), and the `issues`
 * webhooks, built from the issue as the transaction left it (../shared/spec/github-actions-and-events.md).
 */
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import type { IssueFacts } from "../../convert/issue.js";
import { InvalidInputError } from "../../failures.js";
import type { IssueChanges, IssueFilter, IssueRow, Page, PageRequest, RepoRow, Store } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams, FeedService } from "../feeds.js";
import { Acting, numberOf, withoutAssociation, type ActionParts, type IssuePath } from "./acting.js";
import {
  assignable,
  assigned,
  labelDiff,
  labeled,
  labelNames,
  labelsMade,
  loginsOf,
  MAX_ASSIGNEES,
  milestoned,
  milestoneNamed,
} from "./issue-changes.js";
import { issueFacts } from "./issue-facts.js";
import { issueActivity, issueWebhook } from "../pulls/pull-made.js";
import { mentionsMade } from "./mentions.js";
import { issueTimeline, type TimelineEntry } from "./timeline.js";
import {
  mustHavePushAccess,
  writableRepository,
  type ActionAccess,
  type WritableRepository,
  issuesEnabled,
} from "./repository-access.js";

type CreateInput = RequestOf<Endpoints["issues"]["create"], "body">;
type UpdateInput = RequestOf<Endpoints["issues"]["update"], "body">;
type ListQuery = RequestOf<Endpoints["issues"]["listForRepo"], "query">;
export type { IssuePath };

const LOCK_REASONS = ["off-topic", "too heated", "resolved", "spam"];
const STATE_REASONS = { closed: ["completed", "not_planned"], open: ["reopened"] } as const;

/** The parts of every action service (acting.ts). */
export type IssueServiceParts = ActionParts;

export class IssueService {
  private readonly store: Store;
  private readonly feeds: FeedService;
  private readonly acting: Acting;

  constructor(parts: IssueServiceParts) {
    this.store = parts.store;
    this.feeds = parts.feeds;
    this.acting = new Acting(parts);
  }

  async create(params: FeedParams, input: CreateInput, access: ActionAccess): Promise<IssueView> {
    const w = await writableRepository(this.store, this.feeds, params, access);
    issuesEnabled(w.repo);
    const title = String(input.title).trim();
    if (title === "") throw new InvalidInputError("title must not be blank", { field: "title", code: "missing_field" });
    // GitHub drops what only those with triage access (or more) may set, silently, for everyone else.
    const names = w.triages ? (labelNames(input.labels) ?? []) : [];
    const logins = w.triages ? (loginsOf(input.assignees, input.assignee) ?? []) : [];
    const scene = await this.acting.sceneOf(w);
    const issue = await this.acting.perform(
      scene,
      async (making) => {
        const { tx } = making;
        const assignees = (await assignable(tx, w.repo, logins)).slice(0, MAX_ASSIGNEES);
        const milestone = w.triages ? await milestoneNamed(tx, w.repo, input.milestone) : null;
        const created = await tx.issues.insert({
          repoId: w.repo.id,
          userId: w.principal.user.id,
          title,
          body: input.body ?? null,
          milestoneId: milestone?.id ?? null,
          at: scene.at,
        });
        const labels = await labelsMade(tx, w.repo, names);
        await tx.issues.addLabels(
          created.id,
          labels.map((l) => l.id),
        );
        await tx.issues.addAssignees(
          created.id,
          assignees.map((u) => u.id),
        );
        // Just opened: no reactions yet, and no pull request (those open theirs in services/pulls).
        const about = await this.acting.wire(tx, scene, created, {
          labels: labels.length > 0,
          assignees: assignees.length > 0,
          reactions: false,
          pull: false,
        });
        await making.event("IssuesEvent", { action: "opened", issue: withoutAssociation(about.wire) });
        making.webhook("issues", "opened", { issue: about.wire });
        for (const label of labels) await labeled(making, about, label, "labeled");
        for (const user of assignees) await assigned(making, about, user, "assigned");
        if (milestone) await milestoned(making, about, milestone, "milestoned");
        await mentionsMade(making, about, created.body);
        // The issue as the answer shows it: what its events showed, as nothing after them changes it.
        return about.facts!;
      },
      // Labels, assignees and a milestone given make issue events too (`labeled`, `assigned`, `milestoned`).
      names.length || logins.length || (w.triages && input.milestone != null) ? ["events", "issue_events"] : ["events"],
    );
    return { facts: issue };
  }

  async update(path: IssuePath, input: UpdateInput, access: ActionAccess): Promise<IssueView> {
    const w = await writableRepository(this.store, this.feeds, path, access);
    issuesEnabled(w.repo);
    const before = await this.acting.issue(w.repo, path);
    // Its author edits an issue; triage closes, reopens, labels and assigns anyone's; editing anyone's is write's.
    const own = before.userId === w.principal.user.id;
    if (!own && !w.triages) throw mustHavePushAccess();
    if (!own && !w.pushes && (input.title !== undefined || input.body !== undefined)) throw mustHavePushAccess();
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
    const names = w.triages ? labelNames(input.labels) : undefined;
    const logins = w.triages ? loginsOf(input.assignees, input.assignee) : undefined;
    const scene = await this.acting.scene(w.repo, w.principal.user);
    const issue = await this.acting.perform(scene, async (making) => {
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
      const milestone = w.triages ? await milestoneNamed(tx, w.repo, input.milestone) : undefined;
      const moves = milestone !== undefined && (milestone?.id ?? null) !== current.milestoneId;
      if (moves) changes.milestoneId = milestone?.id ?? null;
      const left =
        moves && current.milestoneId !== null
          ? (await tx.milestones.byIds([current.milestoneId])).get(current.milestoneId)
          : undefined;
      const [labelsBefore] = (await tx.issues.labelsOf([current.id])).values();
      const labels = names === undefined ? undefined : await labelsMade(tx, w.repo, names);
      const { added, removed } = labels === undefined ? { added: [], removed: [] } : labelDiff(labelsBefore!, labels);
      const [assigneesBefore] = (await tx.issues.assigneesOf([current.id])).values();
      const assignees =
        logins === undefined ? undefined : (await assignable(tx, w.repo, logins)).slice(0, MAX_ASSIGNEES);
      const newlyAssigned = assignees?.filter((u) => !assigneesBefore!.includes(u.id)) ?? [];
      const unassignedIds =
        assignees === undefined ? [] : assigneesBefore!.filter((id) => !assignees.some((u) => u.id === id));
      const changed =
        Object.keys(changes).length > 1 ||
        added.length + removed.length + newlyAssigned.length + unassignedIds.length > 0;
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
        newlyAssigned.map((u) => u.id),
      );
      await tx.issues.removeAssignees(current.id, unassignedIds);
      const about = await this.acting.wire(tx, scene, updated);
      if (edited.title)
        await making.issueEvent(about, "renamed", { rename: { from: edited.title.from, to: updated.title } });
      if (Object.keys(edited).length) await issueWebhook(making, about, "edited", { changes: edited });
      if (closing || reopening) {
        const action = closing ? "closed" : "reopened";
        await making.issueEvent(about, action);
        await issueActivity(making, about, action);
        await issueWebhook(making, about, action);
      }
      for (const label of added) await labeled(making, about, label, "labeled");
      for (const label of removed) await labeled(making, about, label, "unlabeled");
      for (const user of newlyAssigned) await assigned(making, about, user, "assigned");
      for (const id of unassignedIds) await assigned(making, about, (await tx.users.findById(id))!, "unassigned");
      if (left) await milestoned(making, about, left, "demilestoned");
      if (moves && milestone) await milestoned(making, about, milestone, "milestoned");
      return updated;
    });
    return this.view(w.repo, issue);
  }

  /** Locks (`lock_reason` one of GitHub's four) or unlocks; those with push access only. */
  async setLocked(path: IssuePath, lock: { lock_reason?: string } | null, access: ActionAccess): Promise<void> {
    const w = await writableRepository(this.store, this.feeds, path, access);
    issuesEnabled(w.repo);
    const before = await this.acting.issue(w.repo, path);
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
    const scene = await this.acting.scene(w.repo, w.principal.user);
    await this.acting.perform(scene, async (making) => {
      const updated = await making.tx.issues.update(before.id, {
        locked: lock !== null,
        lockReason: lock === null ? null : (reason ?? null),
        updatedAt: scene.at,
      });
      const about = await this.acting.wire(making.tx, scene, updated);
      const action = lock === null ? "unlocked" : "locked";
      await making.issueEvent(about, action, {
        lock_reason: lock === null ? null : (reason ?? null),
      });
      await issueWebhook(making, about, action);
    });
  }

  /** A repository the caller sees, for the reads: 404 otherwise, as every repository resource. */
  private async readable(params: FeedParams, principal: Principal | null): Promise<RepoRow> {
    return issuesEnabled((await this.feeds.repository(params, principal)).repo);
  }

  async get(path: IssuePath, principal: Principal | null): Promise<IssueView> {
    const repo = await this.readable(path, principal);
    return this.view(repo, await this.acting.issue(repo, path));
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
    const issue = await this.acting.issue(repo, path);
    return this.store.issues.issueEventsOf(repo.id, issue.number, window);
  }

  /** The issue's timeline: its issue events and comments in the order they happened (./timeline.ts). */
  async timeline(path: IssuePath, principal: Principal | null, window: PageRequest): Promise<Page<TimelineEntry>> {
    const repo = await this.readable(path, principal);
    return issueTimeline(this.store, repo, await this.acting.issue(repo, path), window);
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
    const milestoneId = async (given: string) => {
      const number = /^[0-9]+$/.test(given) ? numberOf(given) : null;
      return number === null ? -1 : ((await this.store.milestones.find(repo.id, number))?.id ?? -1);
    };
    if (query.creator !== undefined) filter.creatorId = await userId(query.creator);
    if (query.assignee !== undefined)
      filter.assignee =
        query.assignee === "none" || query.assignee === "*" ? query.assignee : await userId(query.assignee);
    // A milestone is named by its number; one the repository lacks matches nothing, as a login that names nobody.
    if (query.milestone !== undefined)
      filter.milestone =
        query.milestone === "none" || query.milestone === "*" ? query.milestone : await milestoneId(query.milestone);
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
