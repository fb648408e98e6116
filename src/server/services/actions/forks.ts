/**
 * GitHub's forks as actions: `POST /repos/{o}/{r}/forks` makes the caller's (or an organization's) fork in the
 * source's network, with the ForkEvent GitHub puts on the source's feed and the `fork` webhook to the source's hooks;
 * forking again answers the fork that account has in the network, and makes nothing. GitHub makes a fork's issues off
 * and takes its other settings from the source; the name is the source's unless `name` says another (a name the
 * account has already gets `-1`, `-2`... as on GitHub). `GET .../forks` lists the direct forks the caller sees.
 */
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import { toWireNestedRepository } from "../../convert/repository.js";
import { ApiError } from "../../errors.js";
import type { ActionTransaction, ForkSort, Page, PageRequest, RepoRow, UserRow } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import { checkOrganization, grantOf } from "../fine-grained-access.js";
import type { FeedParams } from "../feeds.js";
import { accountCaller, mayActOnRepository, privateReader } from "./account-access.js";
import { Acting, type ActionParts } from "./acting.js";
import type { ActionAccess } from "./repository-access.js";
import { nameTaken, oneOf, repositoryName } from "./repository-input.js";
import { NEW_REPO_STATS } from "./repository-scene.js";

type ForkInput = RequestOf<Endpoints["repos"]["createFork"], "body">;

const FORK_SORTS: readonly ForkSort[] = ["newest", "oldest", "stargazers", "watchers"];

/** GitHub's 403 for a fork into an organization the caller is no member of. */
const notOrgMember = () => new ApiError(403, "You do not have permission to create a fork in this organization.");

export class ForkService {
  private readonly acting: Acting;

  constructor(private readonly parts: ActionParts) {
    this.acting = new Acting(parts);
  }

  async fork(params: FeedParams, input: ForkInput, access: ActionAccess): Promise<RepoRow> {
    const principal = accountCaller(access);
    const { store, feeds } = this.parts;
    const { repo: source } = await feeds.repository(params, principal);
    mayActOnRepository(principal, source, access);
    const owner = input.organization ? await feeds.organization(input.organization) : principal.user;
    if (owner.id !== principal.user.id && !(await store.directory.isMember(owner.id, principal.user.id)))
      throw notOrgMember();
    const grant = grantOf(principal);
    if (grant) checkOrganization(grant, owner.id, access.permissions);
    const existing = await store.repositories.inNetwork(source.networkId, owner.id);
    if (existing) return existing;
    const asked = input.name === undefined ? null : repositoryName(input.name, "Validation Failed");
    const scene = await this.acting.scene(source, principal.user);
    return this.acting.perform(scene, async (making) => {
      const { tx } = making;
      const fork = await tx.repositories.insert({
        ownerId: owner.id,
        name: await this.freeName(tx, owner, asked, source),
        private: source.private,
        fork: { parentId: source.id, networkId: source.networkId },
        settings: { ...source.settings, hasIssues: false, archived: false, createdAt: scene.at, updatedAt: scene.at },
      });
      // A fork starts with its source's branches and tags (its default branch alone with `default_branch_only`),
      // pointing at the objects the network already holds.
      const defaultRef = `refs/heads/${source.settings.defaultBranch ?? "main"}`;
      for (const ref of await tx.git.refs(source.id, "refs/"))
        if (input.default_branch_only ? ref.name === defaultRef : /^refs\/(heads|tags)\//.test(ref.name))
          await tx.git.setRef(fork.id, ref.name, ref.sha, null);
      // As ForkEvent and the `fork` webhook carry it: the new repository's nested object, with GitHub's `public`. No
      // `organization` object for an organization's fork: GitHub's schema of `fork` has a string there, and its
      // examples and GH Archive's ForkEvents none (../shared/data/webhooks/examples/fork.json).
      const facts = { repo: fork, owner, stats: NEW_REPO_STATS };
      const forkee = { ...toWireNestedRepository(facts, scene.baseUrl), public: !fork.private };
      await making.event("ForkEvent", { forkee });
      making.webhook("fork", null, { forkee });
      return fork;
    });
  }

  /** The name asked for (422 when the account has it), or the source's, made free with a number as GitHub does. */
  private async freeName(tx: ActionTransaction, owner: UserRow, asked: string | null, source: RepoRow) {
    if (asked !== null) {
      if (await tx.directory.findRepo(owner.login, asked)) throw nameTaken("Validation Failed");
      return asked;
    }
    const name = source.fullName.slice(source.fullName.indexOf("/") + 1);
    let candidate = name;
    for (let n = 1; await tx.directory.findRepo(owner.login, candidate); n++) candidate = `${name}-${n}`;
    return candidate;
  }

  async forks(
    params: FeedParams,
    sort: string | undefined,
    principal: Principal | null,
    window: PageRequest,
  ): Promise<Page<RepoRow>> {
    const order = { sort: oneOf("sort", sort, FORK_SORTS, "newest"), reader: privateReader(principal) };
    const { repo } = await this.parts.feeds.repository(params, principal);
    return this.parts.store.repositories.forks(repo.id, order, window);
  }
}
