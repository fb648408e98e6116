/**
 * GitHub's commit statuses (https://docs.github.com/rest/commits/statuses): a report of a commit by anyone with push
 * access (or an app with the Commit statuses permission), each one action of the log with its `status` webhook
 * (GitHub makes no Events API event of a status); the reports of a commit newest first, and its combined status: the
 * latest of each context, `failure` when any is an error or a failure, else `pending` when any is pending or there is
 * none, else `success`.
 */
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import type { StatusFacts } from "../../convert/status.js";
import { validationFailed } from "../../errors.js";
import {
  STATUS_STATES,
  type CommitStatusRow,
  type PageRequest,
  type StatusState,
  type UserRow,
} from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams } from "../feeds.js";
import { Acting, type ActionParts } from "../actions/acting.js";
import type { ActionAccess } from "../actions/repository-access.js";
import type { CommitReports, RefPath } from "./commit-reports.js";

type Rows = Endpoints["statuses"];
type CreateInput = RequestOf<Rows["create"], "body">;

const READ = [{ statuses: "read" }] as const;
const DOCS = "https://docs.github.com/rest/commits/statuses#create-a-commit-status";
/** GitHub keeps at most this many statuses of one SHA and context. */
const MAX_PER_CONTEXT = 1000;

const invalid = (field: string, message: string) =>
  validationFailed([{ resource: "Status", code: "custom", field, message }], DOCS);

const isState = (value: string): value is StatusState => (STATUS_STATES as readonly string[]).includes(value);

/** GitHub's combined state of the latest status of each context. */
export function combinedState(latest: readonly { state: StatusState }[]): "failure" | "pending" | "success" {
  if (latest.some((s) => s.state === "error" || s.state === "failure")) return "failure";
  if (latest.length === 0 || latest.some((s) => s.state === "pending")) return "pending";
  return "success";
}

export class CommitStatusService {
  private readonly acting: Acting;

  constructor(
    private readonly parts: ActionParts,
    private readonly reports: CommitReports,
  ) {
    this.acting = new Acting(parts);
  }

  async create(path: FeedParams & { sha: string }, input: CreateInput, access: ActionAccess) {
    const { repo, user } = await this.reports.reportable(path, access);
    if (!isState(input.state)) throw invalid("state", "state is not included in the list");
    const { sha, fields } = await this.reports.namedCommit(repo, path.sha);
    const context = input.context || "default";
    if ((await this.parts.store.statuses.countInContext(repo.id, sha, context)) >= MAX_PER_CONTEXT)
      throw invalid("context", "This SHA and context has reached the maximum number of statuses.");
    const scene = await this.acting.scene(repo, user);
    // Read before the transaction, which reads nothing outside itself; only when a hook would receive the webhook.
    const about = scene.context
      ? {
          commit: await this.reports.webhookCommit(repo, sha, fields, scene.baseUrl),
          branches: await this.reports.branchesWith(repo, sha, scene.baseUrl),
        }
      : null;
    const status = await this.acting.perform(scene, async (making) => {
      const made = await making.tx.statuses.insert(
        {
          repoId: repo.id,
          sha,
          context,
          state: input.state as StatusState,
          targetUrl: input.target_url ?? null,
          description: input.description ?? null,
          creatorId: user.id,
        },
        scene.at,
      );
      if (about) making.webhook("status", null, statusPayload(made, repo.fullName, about));
      return made;
    });
    return { repo, facts: { status, creator: user } satisfies StatusFacts };
  }

  /** The statuses of the commit a ref names, newest first. */
  async list(path: RefPath, principal: Principal | null, window: PageRequest) {
    const repo = await this.reports.readable(path, principal, READ);
    const { sha } = await this.reports.commitOf(repo, path.ref);
    const page = await this.parts.store.statuses.page(repo.id, sha, window);
    return { repo, rows: await this.withCreators(page.rows), total: page.total };
  }

  async combined(path: RefPath, principal: Principal | null, window: PageRequest) {
    const repo = await this.reports.readable(path, principal, READ);
    const { sha } = await this.reports.commitOf(repo, path.ref);
    const latest = await this.parts.store.statuses.latest(repo.id, sha);
    const owner = await this.parts.store.users.findById(repo.ownerId);
    return {
      state: combinedState(latest),
      sha,
      statuses: await this.withCreators(latest.slice(window.offset, window.offset + window.limit)),
      totalCount: latest.length,
      repository: { repo, owner: owner!, stats: await this.parts.store.directory.repoStats(repo.id) },
    };
  }

  private async withCreators(rows: CommitStatusRow[]): Promise<StatusFacts[]> {
    const creators = new Map<number, UserRow | null>();
    for (const id of new Set(rows.map((r) => r.creatorId))) {
      if (id !== null) creators.set(id, await this.parts.store.users.findById(id));
    }
    return rows.map((status) => ({
      status,
      creator: status.creatorId === null ? null : (creators.get(status.creatorId) ?? null),
    }));
  }
}

/** The `status` webhook's payload before its repository and sender, in the order GitHub's example has. */
function statusPayload(
  status: CommitStatusRow,
  fullName: string,
  about: { commit: Record<string, unknown>; branches: unknown[] },
) {
  return {
    id: status.id,
    sha: status.sha,
    name: fullName,
    target_url: status.targetUrl,
    context: status.context,
    description: status.description,
    state: status.state,
    commit: about.commit,
    branches: about.branches,
    // The status webhook writes its times with an offset (`2019-05-15T15:20:55+00:00`), unlike the API's `Z`.
    created_at: status.createdAt.toISOString().replace(/\.\d{3}Z$/, "+00:00"),
    updated_at: status.updatedAt.toISOString().replace(/\.\d{3}Z$/, "+00:00"),
  };
}
