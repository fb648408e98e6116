/**
 * GitHub's milestones API as actions: created, edited, closed, reopened and deleted, each making its `milestone`
 * webhook (`edited` with `changes` of what changed; `closed` / `opened` for a change of state) and no Events API event
 * nor issue event (../shared/spec/github-actions-and-events.md). Numbers are per repository; the issue counts are
 * counted when read. Writes need push access; reads, a repository the caller sees.
 */
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import { toWireMilestone, type MilestoneFacts } from "../../convert/milestone.js";
import { isoSeconds } from "../../convert/time.js";
import { notFound } from "../../errors.js";
import { InvalidInputError } from "../../failures.js";
import type {
  IssueState,
  MilestoneChanges,
  MilestoneFilter,
  MilestoneRow,
  Page,
  PageRequest,
  RepoRow,
  Store,
} from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams, FeedService } from "../feeds.js";
import { Acting, numberOf, type ActionParts, type Making } from "./acting.js";
import {
  mustHavePushAccess,
  writableRepository,
  type ActionAccess,
  type WritableRepository,
} from "./repository-access.js";

type CreateInput = RequestOf<Endpoints["labels"]["createMilestone"], "body">;
type UpdateInput = RequestOf<Endpoints["labels"]["updateMilestone"], "body">;
type ListQuery = RequestOf<Endpoints["labels"]["listMilestones"], "query">;
export type MilestonePath = FeedParams & { milestone_number: string };

/** One of `allowed`, or GitHub's 422 `invalid` on `field`. */
function oneOf<const T extends string>(value: string | undefined, allowed: readonly T[], field: string): T | undefined {
  if (value !== undefined && !(allowed as readonly string[]).includes(value))
    throw new InvalidInputError(`${field} must be ${allowed.join(", ")}, got ${JSON.stringify(value)}`, {
      field,
      code: "invalid",
    });
  return value as T | undefined;
}

/** `due_on` as an ISO 8601 time, null clearing it; to the second, as GitHub shows it. */
function dueOn(value: string | null | undefined): Date | null | undefined {
  if (value === undefined || value === null) return value;
  const time = new Date(value);
  if (Number.isNaN(time.getTime()))
    throw new InvalidInputError(`due_on must be an ISO 8601 time, got ${JSON.stringify(value)}`, {
      field: "due_on",
      code: "invalid",
    });
  return new Date(Math.floor(time.getTime() / 1000) * 1000);
}

function title(value: string): string {
  const trimmed = value.trim();
  if (trimmed === "") throw new InvalidInputError("title must not be blank", { field: "title", code: "missing_field" });
  return trimmed;
}

/** 422 `already_exists` on `title`: a repository's milestone titles are unique. */
async function titleFree(making: Making, repo: RepoRow, wanted: string, except?: MilestoneRow) {
  const taken = await making.tx.milestones.titled(repo.id, wanted);
  if (taken && taken.id !== except?.id)
    throw new InvalidInputError(`milestone ${wanted} already exists`, { field: "title", code: "already_exists" });
}

const milestoneNumberOf = (path: MilestonePath): number => {
  const n = numberOf(path.milestone_number);
  if (n === null) throw notFound();
  return n;
};

export class MilestoneService {
  private readonly store: Store;
  private readonly feeds: FeedService;
  private readonly acting: Acting;

  constructor(parts: ActionParts) {
    this.store = parts.store;
    this.feeds = parts.feeds;
    this.acting = new Acting(parts);
  }

  private async readable(params: FeedParams, principal: Principal | null): Promise<RepoRow> {
    return (await this.feeds.repository(params, principal)).repo;
  }

  private async pushable(params: FeedParams, access: ActionAccess): Promise<WritableRepository> {
    const w = await writableRepository(this.store, this.feeds, params, access);
    if (!w.pushes) throw mustHavePushAccess();
    return w;
  }

  private async milestone(repo: RepoRow, path: MilestonePath): Promise<MilestoneRow> {
    const milestone = await this.store.milestones.find(repo.id, milestoneNumberOf(path));
    if (!milestone) throw notFound();
    return milestone;
  }

  /** Milestones with their creators, read through the store or an action's transaction. */
  private async facts(sources: Pick<Store, "users">, rows: MilestoneRow[]): Promise<MilestoneFacts[]> {
    const facts: MilestoneFacts[] = [];
    for (const milestone of rows) facts.push({ milestone, creator: await sources.users.findById(milestone.creatorId) });
    return facts;
  }

  private async wire(making: Making, milestone: MilestoneRow) {
    const [facts] = await this.facts(making.tx, [milestone]);
    return toWireMilestone(facts!, making.scene.repo.fullName, making.scene.baseUrl);
  }

  async list(
    params: FeedParams,
    query: ListQuery,
    principal: Principal | null,
    window: PageRequest,
  ): Promise<MilestonePage> {
    const repo = await this.readable(params, principal);
    const filter: MilestoneFilter = {
      repoId: repo.id,
      state: oneOf(query.state, ["open", "closed", "all"], "state") ?? "open",
      sort: oneOf(query.sort, ["due_on", "completeness"], "sort") ?? "due_on",
      direction: oneOf(query.direction, ["asc", "desc"], "direction") ?? "asc",
    };
    const page = await this.store.milestones.page(filter, window);
    return { repo, rows: await this.facts(this.store, page.rows), total: page.total };
  }

  async get(path: MilestonePath, principal: Principal | null): Promise<MilestoneView> {
    const repo = await this.readable(path, principal);
    const [facts] = await this.facts(this.store, [await this.milestone(repo, path)]);
    return { repo, facts: facts! };
  }

  async create(params: FeedParams, input: CreateInput, access: ActionAccess): Promise<MilestoneView> {
    const w = await this.pushable(params, access);
    const wanted = {
      title: title(input.title),
      state: oneOf(input.state, ["open", "closed"], "state") ?? "open",
      description: input.description ?? null,
      dueOn: dueOn(input.due_on) ?? null,
    };
    const scene = await this.acting.scene(w.repo, w.principal.user);
    const milestone = await this.acting.perform(scene, async (making) => {
      await titleFree(making, w.repo, wanted.title);
      const made = await making.tx.milestones.insert({
        repoId: w.repo.id,
        ...wanted,
        creatorId: w.principal.user.id,
        at: scene.at,
      });
      making.webhook("milestone", "created", { milestone: await this.wire(making, made) });
      return made;
    });
    return this.view(w.repo, milestone);
  }

  async update(path: MilestonePath, input: UpdateInput, access: ActionAccess): Promise<MilestoneView> {
    const w = await this.pushable(path, access);
    const before = await this.milestone(w.repo, path);
    const asked = {
      title: input.title === undefined ? undefined : title(input.title),
      description: input.description,
      dueOn: dueOn(input.due_on),
    };
    const state: IssueState | undefined = oneOf(input.state, ["open", "closed"], "state");
    const scene = await this.acting.scene(w.repo, w.principal.user);
    const milestone = await this.acting.perform(scene, async (making) => {
      const current = (await making.tx.milestones.find(w.repo.id, before.number)) ?? before;
      const changes: MilestoneChanges = { updatedAt: scene.at };
      const from: Record<string, { from: string }> = {};
      if (asked.title !== undefined && asked.title !== current.title) {
        await titleFree(making, w.repo, asked.title, current);
        changes.title = asked.title;
        from.title = { from: current.title };
      }
      if (asked.description !== undefined && asked.description !== current.description) {
        changes.description = asked.description;
        from.description = { from: current.description ?? "" };
      }
      if (asked.dueOn !== undefined && asked.dueOn?.getTime() !== current.dueOn?.getTime()) {
        changes.dueOn = asked.dueOn;
        from.due_on = { from: current.dueOn ? isoSeconds(current.dueOn) : "" };
      }
      const toggles = state !== undefined && state !== current.state;
      if (toggles) Object.assign(changes, { state, closedAt: state === "closed" ? scene.at : null });
      if (Object.keys(changes).length === 1) return current; // nothing changed: no webhook, updated_at stays
      const updated = await making.tx.milestones.update(current.id, changes);
      const wire = await this.wire(making, updated);
      if (Object.keys(from).length) making.webhook("milestone", "edited", { milestone: wire, changes: from });
      if (toggles) making.webhook("milestone", state === "closed" ? "closed" : "opened", { milestone: wire });
      return updated;
    });
    return this.view(w.repo, milestone);
  }

  /** Deletes the milestone; its issues keep none (GitHub's), without issue events of it. */
  async delete(path: MilestonePath, access: ActionAccess): Promise<void> {
    const w = await this.pushable(path, access);
    const milestone = await this.milestone(w.repo, path);
    const scene = await this.acting.scene(w.repo, w.principal.user);
    await this.acting.perform(scene, async (making) => {
      const wire = await this.wire(making, milestone);
      await making.tx.milestones.delete(milestone.id);
      making.webhook("milestone", "deleted", { milestone: wire });
    });
  }

  private async view(repo: RepoRow, milestone: MilestoneRow): Promise<MilestoneView> {
    const [facts] = await this.facts(this.store, [milestone]);
    return { repo, facts: facts! };
  }
}

export interface MilestoneView {
  repo: RepoRow;
  facts: MilestoneFacts;
}

export type MilestonePage = Page<MilestoneFacts> & { repo: RepoRow };
