/**
 * GitHub's starring, watching and following as actions. Starring is one transaction of the action log holding the
 * star, the WatchEvent GitHub makes (WatchEvent is its star, `action: "started"`) and the `star.created` and
 * `watch.started` webhooks; unstarring makes `star.deleted` (with `starred_at: null`) and no event. Watching (the
 * notifications subscription) and following make no event and no webhook (FollowEvent is gone since 2012), but go
 * through the log too, so that the numbers caches key on and the received feeds move with them in their transaction
 * (../shared/spec/github-actions-and-events.md). A write that changes nothing (starring a starred repository) makes
 * nothing, as on GitHub.
 */
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import type { RepositoryFacts } from "../../convert/repository.js";
import { isoSeconds } from "../../convert/time.js";
import { notFound } from "../../errors.js";
import { InvalidInputError } from "../../failures.js";
import type {
  ActionTransaction,
  Page,
  PageRequest,
  RepoRow,
  StargazerRow,
  StarRow,
  Store,
  SubscriptionRow,
  UserRow,
} from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams, FeedService } from "../feeds.js";
import { accountCaller, mayActOnRepository, privateReader } from "./account-access.js";
import { Acting, type ActionParts } from "./acting.js";
import type { ActionAccess } from "./repository-access.js";

type StarredQuery = RequestOf<Endpoints["activity"]["listStarred"], "query">;
type SubscriptionInput = RequestOf<Endpoints["activity"]["setSubscription"], "body">;

/** What the activity actions write through: the action log's parts (./acting.ts). */
export type ActivityServiceParts = ActionParts;

/** A starred repository with what its object shows. */
export interface StarredView {
  star: StarRow;
  facts: RepositoryFacts;
}

function oneOf<T extends string>(field: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new InvalidInputError(`${field} must be ${allowed.join(" or ")}, got ${JSON.stringify(value)}`, {
    field,
    code: "invalid",
  });
}

export class ActivityService {
  private readonly store: Store;
  private readonly feeds: FeedService;
  private readonly clock: () => Date;

  constructor(parts: ActivityServiceParts) {
    ({ store: this.store, feeds: this.feeds, clock: this.clock } = parts);
    this.acting = new Acting(parts);
  }

  private readonly acting: Acting;

  /** The repository the path names, for the caller to act on: one it sees, with a token allowed to (404 else). */
  private async actedOn(params: FeedParams, access: ActionAccess): Promise<{ principal: Principal; repo: RepoRow }> {
    const principal = accountCaller(access);
    const { repo } = await this.feeds.repository(params, principal);
    mayActOnRepository(principal, repo, access);
    return { principal, repo };
  }

  /** Runs state-only work in the log: the generation and the received numbers move in its transaction. */
  private async stateOnly<T>(work: (tx: ActionTransaction) => Promise<T>): Promise<T> {
    const performed = await this.store.actions.perform(async (tx) => ({ value: await work(tx) }), this.clock());
    return performed.value;
  }

  async star(params: FeedParams, access: ActionAccess): Promise<void> {
    const { principal, repo } = await this.actedOn(params, access);
    if (await this.store.relations.hasStarred(principal.user.id, repo.id)) return; // 204, and nothing made
    const scene = await this.acting.scene(repo, principal.user);
    await this.acting.perform(scene, async (making) => {
      if (!(await making.tx.relations.star(principal.user.id, repo.id, scene.at))) return;
      await making.event("WatchEvent", { action: "started" });
      making.webhook("star", "created", { starred_at: isoSeconds(scene.at) });
      making.webhook("watch", "started", {});
    });
  }

  async unstar(params: FeedParams, access: ActionAccess): Promise<void> {
    const { principal, repo } = await this.actedOn(params, access);
    if (!(await this.store.relations.hasStarred(principal.user.id, repo.id))) return;
    const scene = await this.acting.scene(repo, principal.user);
    await this.acting.perform(scene, async (making) => {
      if (await making.tx.relations.unstar(principal.user.id, repo.id))
        making.webhook("star", "deleted", { starred_at: null });
    });
  }

  /** 204 when the caller starred it; 404 otherwise, as for a repository the caller does not see. */
  async checkStarred(params: FeedParams, access: ActionAccess): Promise<void> {
    const principal = accountCaller(access);
    const { repo } = await this.feeds.repository(params, principal);
    if (!(await this.store.relations.hasStarred(principal.user.id, repo.id))) throw notFound();
  }

  /** The repositories `login` starred (the caller's own when null), those the caller sees. */
  async starred(
    login: string | null,
    query: StarredQuery,
    access: ActionAccess,
    window: PageRequest,
  ): Promise<Page<StarredView>> {
    const principal = login === null ? accountCaller(access) : access.principal;
    const account = login === null ? principal!.user : await this.feeds.account(login);
    const sort = oneOf("sort", query.sort, ["created", "updated"] as const, "created");
    const direction = oneOf("direction", query.direction, ["asc", "desc"] as const, "desc");
    const page = await this.store.relations.starred(
      account.id,
      { sort, direction, reader: privateReader(principal) },
      window,
    );
    const rows: StarredView[] = [];
    for (const star of page.rows) rows.push({ star, facts: await this.facts(star.repo) });
    return { rows, total: page.total };
  }

  async stargazers(params: FeedParams, principal: Principal | null, window: PageRequest): Promise<Page<StargazerRow>> {
    const { repo } = await this.feeds.repository(params, principal);
    return this.store.relations.stargazers(repo.id, window);
  }

  async subscription(params: FeedParams, access: ActionAccess): Promise<{ row: SubscriptionRow; repo: RepoRow }> {
    const { principal, repo } = await this.actedOn(params, access);
    const row = await this.store.relations.subscription(principal.user.id, repo.id);
    if (!row) throw notFound();
    return { row, repo };
  }

  async setSubscription(
    params: FeedParams,
    input: SubscriptionInput,
    access: ActionAccess,
  ): Promise<{ row: SubscriptionRow; repo: RepoRow }> {
    const { principal, repo } = await this.actedOn(params, access);
    const at = this.clock();
    const row = await this.stateOnly(async (tx) => {
      const before = await tx.relations.subscription(principal.user.id, repo.id);
      // GitHub's defaults: a PUT with neither switch watches; `ignored` alone mutes without watching.
      return tx.relations.setSubscription({
        userId: principal.user.id,
        repoId: repo.id,
        subscribed: input.subscribed ?? input.ignored !== true,
        ignored: input.ignored ?? false,
        createdAt: before?.createdAt ?? at,
      });
    });
    return { row, repo };
  }

  async deleteSubscription(params: FeedParams, access: ActionAccess): Promise<void> {
    const { principal, repo } = await this.actedOn(params, access);
    if (!(await this.store.relations.subscription(principal.user.id, repo.id))) return;
    await this.stateOnly((tx) => tx.relations.deleteSubscription(principal.user.id, repo.id));
  }

  async subscribers(params: FeedParams, principal: Principal | null, window: PageRequest): Promise<Page<UserRow>> {
    const { repo } = await this.feeds.repository(params, principal);
    return this.store.relations.subscribers(repo.id, window);
  }

  /** The repositories `login` watches (the caller's own when null), those the caller sees. */
  async watched(login: string | null, access: ActionAccess, window: PageRequest): Promise<Page<RepositoryFacts>> {
    const principal = login === null ? accountCaller(access) : access.principal;
    const account = login === null ? principal!.user : await this.feeds.account(login);
    const page = await this.store.relations.subscriptions(account.id, privateReader(principal), window);
    const rows: RepositoryFacts[] = [];
    for (const repo of page.rows) rows.push(await this.facts(repo));
    return { rows, total: page.total };
  }

  /** Following yourself answers 204 and follows no one, as GitHub does (github-tools/github#553). */
  async follow(login: string, access: ActionAccess): Promise<void> {
    const principal = accountCaller(access);
    const target = await this.feeds.account(login);
    if (target.id === principal.user.id || (await this.store.relations.follows(principal.user.id, target.id))) return;
    await this.stateOnly((tx) => tx.relations.follow(principal.user.id, target.id));
  }

  async unfollow(login: string, access: ActionAccess): Promise<void> {
    const principal = accountCaller(access);
    const target = await this.feeds.account(login);
    if (!(await this.store.relations.follows(principal.user.id, target.id))) return;
    await this.stateOnly((tx) => tx.relations.unfollow(principal.user.id, target.id));
  }

  /** 204 when `follower` (the caller when null) follows `login`; 404 otherwise. */
  async checkFollowing(follower: string | null, login: string, access: ActionAccess): Promise<void> {
    const who = follower === null ? accountCaller(access).user : await this.feeds.account(follower);
    const target = await this.feeds.account(login);
    if (!(await this.store.relations.follows(who.id, target.id))) throw notFound();
  }

  /** `login`'s followers, or whom it follows (the caller's when null). */
  async people(
    login: string | null,
    which: "followers" | "following",
    access: ActionAccess,
    window: PageRequest,
  ): Promise<Page<UserRow>> {
    const account = login === null ? accountCaller(access).user : await this.feeds.account(login);
    return this.store.relations[which](account.id, window);
  }

  private async facts(repo: RepoRow): Promise<RepositoryFacts> {
    const owner = await this.store.users.findById(repo.ownerId);
    return { repo, owner: owner!, stats: await this.store.directory.repoStats(repo.id) };
  }
}
