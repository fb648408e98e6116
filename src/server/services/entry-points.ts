/**
 * The rules of the entry-point resources (`/user`, `/users/:user`, `/orgs/:org`, `/repos/:user/:repo`): which
 * account or repository a request names, what the caller may see of it, and what the caller may do with a
 * repository. Visibility and GitHub's id-based paths are the feeds' own (services/feeds.ts): a repository whose
 * feeds are 404 to a caller is 404 here too. No Fastify and no SQL; unknown things are 404.
 */
import { permissionSwitches } from "../../api/collaborator-schemas.js";
import { satisfies } from "../../api/scopes.js";
import type { RepositoryContext, RepositoryFacts } from "../convert/repository.js";
import type { AccountCounts, RepoRow, Store, UserRow } from "../store/store.js";
import type { Principal } from "./authenticator.js";
import type { FeedParams, FeedService, WireIdKind } from "./feeds.js";
import { VersionedAnswers } from "../versioned-answers.js";

/** Repository objects kept per instance: the repositories a busy instance's callers read, with their views. */
const REPOSITORY_ANSWERS = 10_000;

export interface AccountView {
  account: UserRow;
  counts: AccountCounts;
}

export interface RepositoryView extends RepositoryContext {
  facts: RepositoryFacts;
}

export class EntryPointService {
  /**
   * What `GET /repos/:owner/:repo` answered (the object and its Last-Modified), kept for the routes under the store's
   * version (../versioned-answers.ts); the key says who asked and how (entry-points route).
   */
  readonly repositoryAnswers = new VersionedAnswers<{ wire: object; lastModified: Date }>(REPOSITORY_ANSWERS);

  constructor(
    private readonly store: Store,
    private readonly feeds: FeedService,
  ) {}

  private async view(account: UserRow): Promise<AccountView> {
    return { account, counts: await this.store.directory.accountCounts(account.id) };
  }

  /** Any account by login, organizations included (GitHub's `/users/:org` answers with `type: "Organization"`). */
  async account(login: string): Promise<AccountView> {
    return this.view(await this.feeds.account(login));
  }

  /** The caller's own account; the route lets no anonymous caller through. */
  async self(principal: Principal): Promise<AccountView> {
    return this.view(principal.user);
  }

  /**
   * An organization, and whether the caller sees it as its owners with `admin:org` do (a password, or a token with
   * that scope): GitHub shows its owners the organization's plan and settings, and its other members nothing more.
   */
  async organization(login: string, principal: Principal | null = null): Promise<AccountView & { asMember: boolean }> {
    const org = await this.feeds.organization(login);
    const mayAdminister =
      principal !== null && (principal.kind === "password" || satisfies(principal.authorization.scopes, ["admin:org"]));
    const asMember = mayAdminister && (await this.store.directory.orgRole(org.id, principal.user.id)) === "admin";
    return { ...(await this.view(org)), asMember };
  }

  /** Whether the caller is a member of the organization, its owners included. */
  isMember(org: UserRow, principal: Principal): Promise<boolean> {
    return this.store.directory.isMember(org.id, principal.user.id);
  }

  /** The named parameters an id-based path stands for (`/user/:id`, `/organizations/:id`, `/repositories/:id`). */
  byWireId(kind: WireIdKind, id: string): Promise<FeedParams> {
    return this.feeds.paramsByWireId(kind, id);
  }

  private async facts(repo: RepoRow): Promise<RepositoryFacts> {
    const [owner, stats] = await Promise.all([
      this.store.users.findById(repo.ownerId),
      this.store.directory.repoStats(repo.id),
    ]);
    return { repo, owner: owner!, stats };
  }

  /** A fork's parent or its network's root, when the caller may see it (a private one only to its readers). */
  private async related(id: number | null, principal: Principal | null): Promise<RepositoryFacts | undefined> {
    const repo = id === null ? null : await this.store.directory.findRepoById(id);
    if (!repo || (repo.private && !(await this.feeds.readsPrivate(repo, principal)))) return undefined;
    return this.facts(repo);
  }

  async repository(params: FeedParams, principal: Principal | null): Promise<RepositoryView> {
    const { repo } = await this.feeds.repository(params, principal);
    const fork = repo.parentId !== null;
    // GitHub's roles, from what feedgate stores (store/directory.ts repoAccess): an owner administers, a collaborator
    // has the role stored for them, a member of the owning organization its base role (read); any other signed-in
    // caller may pull a repository it can see.
    const [facts, access, parent] = await Promise.all([
      this.facts(repo),
      principal ? this.store.directory.repoAccess(principal.user.id, repo.id) : null,
      fork ? this.related(repo.parentId, principal) : undefined,
    ]);
    // A direct fork's parent is its network's root: read once.
    const source = fork && repo.networkId !== repo.parentId ? await this.related(repo.networkId, principal) : parent;
    return {
      facts,
      ...(principal ? { permissions: permissionSwitches(access?.permission ?? "pull") } : {}),
      ...(parent ? { parent } : {}),
      ...(source ? { source } : {}),
    };
  }
}
