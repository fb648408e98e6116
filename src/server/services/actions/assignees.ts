/**
 * GitHub's assignees API: who may be assigned to a repository's issues (the owner, collaborators and members of the
 * owning organization: issue-changes.ts's rule), and adding or removing an issue's assignees as actions, each change
 * making its `assigned` / `unassigned` issue event and `issues` webhook. As GitHub documents, logins that cannot be
 * assigned, those past the ten an issue keeps, and the whole request of a caller without push access, are silently
 * ignored: the answer is the issue.
 */
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import { notFound } from "../../errors.js";
import { InvalidInputError } from "../../failures.js";
import type { IssueRow, Page, PageRequest, RepoRow, Store, UserRow } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams, FeedService } from "../feeds.js";
import { Acting, type ActionParts, type IssuePath } from "./acting.js";
import { assignable, assigned, canBeAssigned, loginsOf, MAX_ASSIGNEES } from "./issue-changes.js";
import { issueFacts } from "./issue-facts.js";
import type { IssueView } from "./issues.js";
import { writableRepository, type ActionAccess } from "./repository-access.js";

type AddInput = RequestOf<Endpoints["labels"]["addAssignees"], "body">;

export class AssigneeService {
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

  async list(params: FeedParams, principal: Principal | null, window: PageRequest): Promise<Page<UserRow>> {
    const repo = await this.readable(params, principal);
    return this.store.assignees.page(repo.id, window);
  }

  /** Resolves when the user may be assigned here; GitHub's 404 otherwise. */
  async check(params: FeedParams & { assignee: string }, principal: Principal | null): Promise<void> {
    const repo = await this.readable(params, principal);
    const user = await this.store.users.findByLogin(params.assignee);
    if (!(await canBeAssigned(this.store, user, repo))) throw notFound();
  }

  add(path: IssuePath, input: AddInput, access: ActionAccess): Promise<IssueView> {
    const logins = loginsOf(input.assignees) ?? [];
    return this.reassign(path, access, async (tx, repo, before) => {
      const users = await assignable(tx, repo, logins, { dropping: true });
      const room = Math.max(0, MAX_ASSIGNEES - before.length);
      return { assign: users.filter((u) => !before.includes(u.id)).slice(0, room), unassign: [] };
    });
  }

  /** `body` unchecked: Fastify takes no body schema on a DELETE, so `assignees` is checked here. */
  remove(path: IssuePath, body: unknown, access: ActionAccess): Promise<IssueView> {
    const list = typeof body === "object" && body !== null ? (body as { assignees?: unknown }).assignees : undefined;
    if (!Array.isArray(list))
      throw new InvalidInputError("assignees must be a list of logins", { field: "assignees", code: "missing_field" });
    const logins = new Set((loginsOf(list) ?? []).map((l) => l.toLowerCase()));
    return this.reassign(path, access, async (tx, _repo, before) => {
      const unassign: UserRow[] = [];
      for (const id of before) {
        const user = await tx.users.findById(id);
        if (user && logins.has(user.login.toLowerCase())) unassign.push(user);
      }
      return { assign: [], unassign };
    });
  }

  /** One change of an issue's assignees, in one action; the issue's `updated_at` moves when anything changed. */
  private async reassign(
    path: IssuePath,
    access: ActionAccess,
    change: (
      tx: Parameters<typeof assignable>[0],
      repo: RepoRow,
      before: number[],
    ) => Promise<{ assign: UserRow[]; unassign: UserRow[] }>,
  ): Promise<IssueView> {
    const w = await writableRepository(this.store, this.feeds, path, access);
    const issue = await this.acting.issue(w.repo, path);
    if (!w.triages) return this.view(w.repo, issue); // GitHub's triage role assigns
    const scene = await this.acting.sceneOf(w);
    const after = await this.acting.perform(
      scene,
      async (making) => {
        const { tx } = making;
        const [before] = (await tx.issues.assigneesOf([issue.id])).values();
        const { assign, unassign } = await change(tx, w.repo, before!);
        if (!assign.length && !unassign.length) return null;
        await tx.issues.addAssignees(
          issue.id,
          assign.map((u) => u.id),
        );
        await tx.issues.removeAssignees(
          issue.id,
          unassign.map((u) => u.id),
        );
        const touched = await tx.issues.touched(issue.id, scene.at);
        const about = await this.acting.wire(tx, scene, touched.issue, touched.has);
        for (const user of assign) await assigned(making, about, user, "assigned");
        for (const user of unassign) await assigned(making, about, user, "unassigned");
        // The issue as the answer shows it: what its events showed, read after the change.
        return about.facts!;
      },
      ["issue_events"],
    );
    return after ? { facts: after } : this.view(w.repo, issue);
  }

  private async view(repo: RepoRow, issue: IssueRow): Promise<IssueView> {
    const [facts] = await issueFacts(this.store, repo, [issue]);
    return { facts: facts! };
  }
}
