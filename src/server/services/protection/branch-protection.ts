/**
 * GitHub's branch protection API (https://docs.github.com/rest/branches/branch-protection): a branch's rules read,
 * replaced whole and removed by the repository's administrators (its owner, an owner of its organization, an admin
 * collaborator, a site administrator; an app with the Administration permission). Anyone else is told nothing is there
 * (404), as GitHub answers them. Each write is one action of the log; GitHub makes no Events API event of it, and the
 * `branch_protection_rule` webhook is not sent (../shared/data/webhooks has no payload of it to follow).
 */
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import { ApiError, notFound } from "../../errors.js";
import type { BranchProtectionRow, RepoRow, UserRow } from "../../store/store.js";
import type { FeedParams } from "../feeds.js";
import { grantOf } from "../fine-grained-access.js";
import { Acting, type ActionParts } from "../actions/acting.js";
import { writableRepository, type ActionAccess } from "../actions/repository-access.js";
import { rulesFrom } from "./protection-input.js";

type PutInput = RequestOf<Endpoints["branchProtection"]["update"], "body">;

export type BranchPath = FeedParams & { branch: string };

/** A protection with the users its restrictions name, as its answer lists them. */
export interface ProtectionView {
  repo: RepoRow;
  row: BranchProtectionRow;
  pushers: UserRow[];
}

const branchNotFound = () => new ApiError(404, "Branch not found");
const notProtected = () => new ApiError(404, "Branch not protected");

export class BranchProtectionService {
  private readonly acting: Acting;

  constructor(private readonly parts: ActionParts) {
    this.acting = new Acting(parts);
  }

  private get store() {
    return this.parts.store;
  }

  /**
   * The repository, when the caller administers it: 404 for anyone else (an anonymous caller too), the token's own
   * 403 where its permissions fall short (writableRepository); an app's installation by its Administration permission.
   */
  private async administered(path: BranchPath, access: ActionAccess, write: boolean) {
    if (!access.principal) throw notFound();
    const w = await writableRepository(this.store, this.parts.feeds, path, access, write ? "refused" : "allowed");
    const app = grantOf(w.principal)?.installationId !== undefined;
    if (!w.administers && !app) throw notFound();
    if (!(await this.store.git.ref(w.repo.id, `refs/heads/${path.branch}`))) throw branchNotFound();
    return w;
  }

  private async view(repo: RepoRow, row: BranchProtectionRow): Promise<ProtectionView> {
    const pushers: UserRow[] = [];
    for (const id of row.rules.restrictions?.userIds ?? []) {
      const user = await this.store.users.findById(id);
      if (user) pushers.push(user);
    }
    return { repo, row, pushers };
  }

  async get(path: BranchPath, access: ActionAccess): Promise<ProtectionView> {
    const { repo } = await this.administered(path, access, false);
    const row = await this.store.protections.find(repo.id, path.branch);
    if (!row) throw notProtected();
    return this.view(repo, row);
  }

  /** The required status checks; 404 where the branch has none. */
  async statusChecks(path: BranchPath, access: ActionAccess) {
    const { repo, row } = await this.get(path, access);
    const checks = row.rules.requiredStatusChecks;
    if (!checks) throw new ApiError(404, "Required status checks not enabled");
    return { repo, branch: row.branch, checks };
  }

  /** The required reviews; 404 where the branch has none. */
  async reviews(path: BranchPath, access: ActionAccess) {
    const { repo, row } = await this.get(path, access);
    const reviews = row.rules.requiredPullRequestReviews;
    if (!reviews) throw new ApiError(404, "Required pull request reviews not enabled");
    return { repo, branch: row.branch, reviews };
  }

  /** The branch's rules replaced whole by the body's (GitHub's PUT): made where there were none. */
  async put(path: BranchPath, input: PutInput, access: ActionAccess): Promise<ProtectionView> {
    const w = await this.administered(path, access, true);
    const owner = (await this.store.users.findById(w.repo.ownerId))!;
    const rules = await rulesFrom(input, owner, this.store.users);
    const scene = await this.acting.scene(w.repo, w.principal.user);
    const row = await this.acting.perform(scene, (making) =>
      making.tx.protections.put(w.repo.id, path.branch, rules, scene.at),
    );
    return this.view(w.repo, row);
  }

  async delete(path: BranchPath, access: ActionAccess): Promise<void> {
    const w = await this.administered(path, access, true);
    if (!(await this.store.protections.find(w.repo.id, path.branch))) throw notProtected();
    const scene = await this.acting.scene(w.repo, w.principal.user);
    await this.acting.perform(scene, (making) => making.tx.protections.delete(w.repo.id, path.branch));
  }
}
