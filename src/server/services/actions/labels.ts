/**
 * GitHub's labels API as actions: a repository's labels (created, edited, deleted: `label` webhooks, no Events API
 * event and no issue event) and an issue's labels (added, set, removed: `labeled` / `unlabeled` issue events and
 * `issues` webhooks, as an issue's update makes them). Writes need push access; reads, a repository the caller sees.
 */
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import { toWireLabel } from "../../convert/issue.js";
import { ApiError, notFound } from "../../errors.js";
import { InvalidInputError } from "../../failures.js";
import type { LabelChanges, LabelRow, Page, PageRequest, RepoRow, Store } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams, FeedService } from "../feeds.js";
import { Acting, type ActionParts, type IssuePath, type Making } from "./acting.js";
import { labelDiff, labeled, labelNames, labelsMade, NEW_LABEL_COLOR } from "./issue-changes.js";
import {
  mustHavePushAccess,
  writableRepository,
  type ActionAccess,
  type WritableRepository,
} from "./repository-access.js";

type CreateInput = RequestOf<Endpoints["labels"]["create"], "body">;
type UpdateInput = RequestOf<Endpoints["labels"]["update"], "body">;
export type LabelPath = FeedParams & { name: string };
export type IssueLabelPath = IssuePath & { name: string };

/** GitHub's colour: six hex digits without `#` ("#f29513" is its 422, as label-sync bots found). */
const COLOR = /^[0-9a-fA-F]{6}$/;
/** "Must be 100 characters or fewer" (GitHub's create-a-label documentation). */
const DESCRIPTION_MAX = 100;

/** GitHub's 404 for a label the issue does not have (`DELETE /issues/{n}/labels/{name}`). */
const labelNotOnIssue = () =>
  new ApiError(404, "Label does not exist", {
    documentationUrl: "https://docs.github.com/rest/issues/labels#remove-a-label-from-an-issue",
  });

function labelName(value: string, field: string): string {
  const name = value.trim();
  if (name === "") throw new InvalidInputError(`${field} must not be blank`, { field, code: "missing_field" });
  return name;
}

function color(value: string | undefined): string | undefined {
  if (value !== undefined && !COLOR.test(value))
    throw new InvalidInputError(`color must be six hex digits without #, got ${JSON.stringify(value)}`, {
      field: "color",
      code: "invalid",
    });
  return value?.toLowerCase();
}

function description(value: string | null | undefined): string | null | undefined {
  if (value && value.length > DESCRIPTION_MAX)
    throw new InvalidInputError(`description must be ${DESCRIPTION_MAX} characters or fewer`, {
      field: "description",
      code: "invalid",
    });
  return value;
}

/** 422 `already_exists` on `name`, GitHub's answer to a second label of one name (case-insensitively). */
async function nameFree(making: Making, repo: RepoRow, name: string, except?: LabelRow) {
  const taken = await making.tx.labels.named(repo.id, name);
  if (taken && taken.id !== except?.id)
    throw new InvalidInputError(`label ${name} already exists`, { field: "name", code: "already_exists" });
}

export class LabelService {
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

  /** A repository the caller may change labels of: push access, else 403 (404 when it cannot see it). */
  private async pushable(params: FeedParams, access: ActionAccess): Promise<WritableRepository> {
    const w = await writableRepository(this.store, this.feeds, params, access);
    if (!w.pushes) throw mustHavePushAccess();
    return w;
  }

  private async label(repo: RepoRow, name: string): Promise<LabelRow> {
    const label = await this.store.labels.named(repo.id, name);
    if (!label) throw notFound();
    return label;
  }

  private wire(making: Making, label: LabelRow) {
    return toWireLabel(label, making.scene.repo.fullName, making.scene.baseUrl);
  }

  async list(params: FeedParams, principal: Principal | null, window: PageRequest): Promise<LabelPage> {
    const repo = await this.readable(params, principal);
    return { repo, ...(await this.store.labels.page(repo.id, window)) };
  }

  async get(path: LabelPath, principal: Principal | null): Promise<LabelView> {
    const repo = await this.readable(path, principal);
    return { repo, label: await this.label(repo, path.name) };
  }

  async create(params: FeedParams, input: CreateInput, access: ActionAccess): Promise<LabelView> {
    const w = await this.pushable(params, access);
    const name = labelName(input.name, "name");
    const fields = {
      color: color(input.color) ?? NEW_LABEL_COLOR,
      description: description(input.description) ?? null,
    };
    const scene = await this.acting.scene(w.repo, w.principal.user);
    const label = await this.acting.perform(scene, async (making) => {
      await nameFree(making, w.repo, name);
      const made = await making.tx.labels.insert({ repoId: w.repo.id, name, ...fields, isDefault: false });
      making.webhook("label", "created", { label: this.wire(making, made) });
      return made;
    });
    return { repo: w.repo, label };
  }

  async update(path: LabelPath, input: UpdateInput, access: ActionAccess): Promise<LabelView> {
    const w = await this.pushable(path, access);
    const before = await this.label(w.repo, path.name);
    // Before `new_name`, GitHub took the new name as `name` (Octokit 16's updateLabel sends it so); it still does.
    const older = (input as { name?: unknown }).name;
    const renamed = input.new_name ?? (typeof older === "string" ? older : undefined);
    const name = renamed === undefined ? undefined : labelName(renamed, "new_name");
    const asked: LabelChanges = { name, color: color(input.color), description: description(input.description) };
    const scene = await this.acting.scene(w.repo, w.principal.user);
    const label = await this.acting.perform(scene, async (making) => {
      const current = (await making.tx.labels.named(w.repo.id, before.name)) ?? before;
      const changes: LabelChanges = {};
      const from: Record<string, { from: string }> = {};
      for (const key of ["name", "color", "description"] as const) {
        const value = asked[key];
        if (value === undefined || value === current[key]) continue;
        Object.assign(changes, { [key]: value });
        from[key] = { from: current[key] ?? "" };
      }
      if (!Object.keys(changes).length) return current; // GitHub answers the label and sends no webhook
      if (changes.name !== undefined) await nameFree(making, w.repo, changes.name, current);
      const updated = await making.tx.labels.update(current.id, changes);
      making.webhook("label", "edited", { label: this.wire(making, updated), changes: from });
      return updated;
    });
    return { repo: w.repo, label };
  }

  /** Deletes the label and takes it off every issue, as GitHub does; the issues make no `unlabeled` of it. */
  async delete(path: LabelPath, access: ActionAccess): Promise<void> {
    const w = await this.pushable(path, access);
    const label = await this.label(w.repo, path.name);
    const scene = await this.acting.scene(w.repo, w.principal.user);
    await this.acting.perform(scene, async (making) => {
      await making.tx.labels.delete(label.id);
      making.webhook("label", "deleted", { label: this.wire(making, label) });
    });
  }

  /** An issue's labels, by name; GitHub pages them as any list. */
  async listOnIssue(path: IssuePath, principal: Principal | null, window: PageRequest): Promise<LabelPage> {
    const repo = await this.readable(path, principal);
    const issue = await this.acting.issue(repo, path);
    const [labels] = (await this.store.issues.labelsOf([issue.id])).values();
    return { repo, rows: labels!.slice(window.offset, window.offset + window.limit), total: labels!.length };
  }

  /** Adds labels (made grey where the repository has none of the name) and answers all the issue has. */
  addToIssue(path: IssuePath, labels: unknown[] | undefined, access: ActionAccess): Promise<LabelPage> {
    const names = labelNames(labels ?? []) ?? [];
    if (!names.length)
      throw new InvalidInputError("labels must name at least one label", { field: "labels", code: "missing_field" });
    return this.relabel(path, access, async (making, repo, before) => [
      ...before,
      ...(await labelsMade(making.tx, repo, names)),
    ]);
  }

  /** Replaces the issue's labels with these (none: removes them all). */
  setForIssue(path: IssuePath, labels: unknown[] | undefined, access: ActionAccess): Promise<LabelPage> {
    const names = labelNames(labels ?? []) ?? [];
    return this.relabel(path, access, (making, repo) => labelsMade(making.tx, repo, names));
  }

  /** Removes one label; 404 "Label does not exist" when the issue does not have it. */
  removeFromIssue(path: IssueLabelPath, access: ActionAccess): Promise<LabelPage> {
    return this.relabel(path, access, async (_making, _repo, before) => {
      const name = path.name.toLowerCase();
      if (!before.some((l) => l.name.toLowerCase() === name)) throw labelNotOnIssue();
      return before.filter((l) => l.name.toLowerCase() !== name);
    });
  }

  async removeAllFromIssue(path: IssuePath, access: ActionAccess): Promise<void> {
    await this.relabel(path, access, async () => []);
  }

  /**
   * One change of an issue's labels, in one action: `next` says what they become from what they are; the issue's
   * `updated_at` moves, and each label added or removed makes its issue event and webhook. Answers the labels after.
   */
  private async relabel(
    path: IssuePath,
    access: ActionAccess,
    next: (making: Making, repo: RepoRow, before: LabelRow[]) => Promise<LabelRow[]>,
  ): Promise<LabelPage> {
    // GitHub's triage role applies and dismisses labels; creating and changing a repository's labels is write's.
    const w = await writableRepository(this.store, this.feeds, path, access);
    if (!w.triages) throw mustHavePushAccess();
    const issue = await this.acting.issue(w.repo, path);
    const scene = await this.acting.sceneOf(w);
    const labels = await this.acting.perform(
      scene,
      async (making) => {
        const { tx } = making;
        const [before] = (await tx.issues.labelsOf([issue.id])).values();
        const { added, removed } = labelDiff(before!, await next(making, w.repo, before!));
        if (!added.length && !removed.length) return before!;
        await tx.issues.addLabels(
          issue.id,
          added.map((l) => l.id),
        );
        await tx.issues.removeLabels(
          issue.id,
          removed.map((l) => l.id),
        );
        const touched = await tx.issues.touched(issue.id, scene.at);
        const about = await this.acting.wire(tx, scene, touched.issue, touched.has);
        for (const label of added) await labeled(making, about, label, "labeled");
        for (const label of removed) await labeled(making, about, label, "unlabeled");
        // The labels as the events show them, read after the change.
        return about.facts!.labels;
      },
      ["issue_events"],
    );
    return { repo: w.repo, rows: labels, total: labels.length };
  }
}

export interface LabelView {
  repo: RepoRow;
  label: LabelRow;
}

export type LabelPage = Page<LabelRow> & { repo: RepoRow };
