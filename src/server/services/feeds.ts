/**
 * The feeds' rules (spec 4.2): which account or repository a feed names, who may see private events, and the
 * optional GitHub-style caps. No Fastify and no SQL; unknown or unreadable things are 404 (GitHub's
 * 404-not-403 rule, wire notes 3.1).
 */
import type { Counter } from "prom-client";
import { satisfies } from "../../api/scopes.js";
import { endpoints, PRIVATE_FEED_SCOPES, type Endpoint, type Endpoints } from "../../api/endpoints.js";
import type { AcceptedPermissions } from "../../api/permissions.js";
import type { RequestOf } from "../../api/schemas.js";
import { ApiError, notFound, RepositoryMoved } from "../errors.js";
import type {
  ArrivedEvent,
  FeedPage,
  FeedRequest,
  FeedTarget,
  PageRequest,
  RepoRow,
  Store,
  StoreVersion,
  UserRow,
  Visibility,
} from "../store/store.js";
import type { Principal } from "./authenticator.js";
import { FeedPageCache, type PageRows } from "./feed-cache.js";
import { feedStanding, FeedTotals, fromBoundary, type FeedTotal } from "./feed-totals.js";
import { FirstPages } from "./first-pages.js";
import {
  checkOrganization,
  grantOf,
  reachesRepository,
  readsPrivateOf,
  notAccessibleByToken,
} from "./fine-grained-access.js";

/** What reading a repository needs of a fine-grained token, unless its operation says more: Metadata, read. */
const METADATA: AcceptedPermissions = endpoints.repos.get.permissions;

/** The feeds, by their operation names in the endpoint table. */
export type FeedName = keyof Endpoints["events"];

/** Every path parameter any feed row names (`user`, `repo`, `org`), each present when the feed's path has it. */
type PathParamOf<E> = E extends Endpoint ? keyof RequestOf<E, "path"> : never;
export type FeedParams = { [K in PathParamOf<Endpoints["events"][FeedName]>]?: string };

/** What a numeric id names in GitHub's id-based paths. */
export type WireIdKind = "user" | "org" | "repo";

export interface FeedCaps {
  maxEvents: number | null;
  maxAgeSeconds: number | null;
  /** Memory for cached feed pages, in bytes; 0 turns the cache off. */
  cacheBytes: number;
}

const PAGINATION_LIMITED = () =>
  new ApiError(
    422,
    "In order to keep the API fast for everyone, pagination is limited for this resource. Check the " +
      "rel=last link relation in the Link response header to see how far back you can traverse.",
    { documentationUrl: "https://developer.github.com/v3/#pagination" },
  );

/** The age cap is applied at whole minutes, so a cached page stays valid for a minute rather than a millisecond. */
const MINUTE_MS = 60_000;

/**
 * A feed's name among the cached ones (a string built directly: JSON.stringify showed in a poll's profile); live
 * streams group their subscribers by it too.
 */
export function targetKey(target: FeedTarget): string {
  if ("issuesOf" in target) return `issues:${target.issuesOf}`;
  const { scope, visibility } = target;
  const reader = visibility.kind === "readable-by" ? visibility.userId : "";
  const id =
    scope.kind === "all"
      ? ""
      : scope.kind === "repo"
        ? scope.repoId
        : scope.kind === "network"
          ? scope.networkId
          : scope.kind === "org"
            ? scope.orgId
            : scope.kind === "actor"
              ? scope.actorId
              : scope.userId;
  return `${scope.kind}:${id}:${visibility.kind}:${reader}`;
}

/**
 * What a page's bytes depend on besides the request and the store's version (StoreVersion): a received feed's follows
 * and watches (their own number, raised apart from the version), and the time while the age cap names the same minute.
 * A server may give the same answer again while these stand (./repeats/).
 */
export interface PageDependence {
  /** The received feed's user and the number their follows and watches stood at when the page was read. */
  received: { userId: number; version: number } | null;
  /** Clock times (ms) between which the age cap (`--feed-max-age`) keeps the same first minute: [from, until). */
  from: number;
  until: number;
  /**
   * The answer depends on the version's `received` number too, which feeds other than a received one do not (a
   * repository object kept under the whole version: services/entry-points.ts).
   */
  wholeVersion?: true;
}

/** A page as the feeds serve it: its rows and total, and what they depend on (null: read uncached, never repeated). */
export interface ServedPage extends FeedPage {
  dependence: PageDependence | null;
}

/** What the feeds read and are bounded by. */
export interface FeedServiceParts {
  store: Store;
  caps: FeedCaps;
  clock: () => Date;
  /** The store's version as the current request read it (RememberingStore). */
  version: () => StoreVersion;
  /** Counts the page cache's hits and misses. */
  cacheRequests?: Counter<"result">;
}

export class FeedService {
  private readonly store: Store;
  private readonly caps: FeedCaps;
  private readonly clock: () => Date;
  private readonly version: () => StoreVersion;
  private readonly cache: FeedPageCache;
  private readonly totals: FeedTotals;
  private readonly firstPages = new FirstPages();

  constructor(parts: FeedServiceParts) {
    ({ store: this.store, caps: this.caps, clock: this.clock, version: this.version } = parts);
    this.cache = new FeedPageCache(parts.caps.cacheBytes, parts.cacheRequests);
    this.totals = new FeedTotals(parts.store.events);
  }

  /** The page cache's pages and bytes (`/metrics`). */
  get cacheSize(): { pages: number; bytes: number } {
    return this.cache.size;
  }

  /**
   * Whether the caller may see private events at all: password auth, or a classic token with GitHub's private-feed
   * scope. A fine-grained token sees them only repository by repository (readsPrivate), so never on the feeds that
   * span the repositories of several owners.
   */
  private mayReadPrivate(principal: Principal | null): principal is Principal {
    if (!principal) return false;
    if (principal.kind === "password") return true;
    return (
      principal.authorization.fineGrained === null && satisfies(principal.authorization.scopes, PRIVATE_FEED_SCOPES)
    );
  }

  /** Any account by login, organizations included; unknown is 404. The rule of feeds and `GET /users/:user` alike. */
  async account(login: string | undefined): Promise<UserRow> {
    const account = login ? await this.store.users.findByLogin(login) : null;
    if (!account) throw notFound();
    return account;
  }

  /** An organization by login; an unknown login, or a user's, is 404. */
  async organization(login: string | undefined): Promise<UserRow> {
    const org = await this.account(login);
    if (org.type !== "Organization") throw notFound();
    return org;
  }

  /**
   * Whether the caller may see the repository's private side: its private events, or the repository if it is private.
   * `needs`: what the operation asks of a fine-grained token, which must also cover the repository.
   */
  async readsPrivate(repo: RepoRow, principal: Principal | null, needs = METADATA): Promise<boolean> {
    const grant = grantOf(principal);
    const allowed = grant ? readsPrivateOf(grant, repo, needs) : this.mayReadPrivate(principal);
    return allowed && (await this.store.directory.canRead(principal!.user.id, repo.id));
  }

  /**
   * The repository and whether the caller may see its private events; a private one the caller cannot read is 404,
   * and 403 to a fine-grained token that covers it without the permission `needs` names. The rule of every repository
   * resource: its feeds and `GET /repos/:user/:repo` alike.
   */
  async repository(
    params: FeedParams,
    principal: Principal | null,
    needs = METADATA,
  ): Promise<{ repo: RepoRow; readable: boolean }> {
    const repo = params.user && params.repo ? await this.store.directory.findRepo(params.user, params.repo) : null;
    if (!repo) return this.moved(params, principal);
    const readable = await this.readsPrivate(repo, principal, needs);
    if (repo.private && !readable) {
      const grant = grantOf(principal);
      if (
        grant &&
        reachesRepository(grant, repo) &&
        (await this.store.directory.canRead(principal!.user.id, repo.id))
      ) {
        throw notAccessibleByToken(grant);
      }
      throw notFound();
    }
    return { repo, readable };
  }

  /** A name a repository was renamed from redirects to it (GitHub's 301), for a caller who may see it; else 404. */
  private async moved(params: FeedParams, principal: Principal | null): Promise<never> {
    const renamed = params.user && params.repo && (await this.store.repositories.renamedFrom(params.user, params.repo));
    if (renamed && (!renamed.private || (await this.readsPrivate(renamed, principal)))) {
      throw new RepositoryMoved(renamed.wireId);
    }
    throw notFound();
  }

  /** Whether the caller is `account` and may see its private events. */
  private isSelfWithPrivate(principal: Principal | null, account: UserRow): principal is Principal {
    return this.mayReadPrivate(principal) && principal.user.id === account.id;
  }

  /** What a feed covers and shows, after every access rule: 404 for a feed the caller may not see. */
  async plan(name: FeedName, params: FeedParams, principal: Principal | null): Promise<FeedTarget> {
    const PUBLIC: Visibility = { kind: "public" };
    switch (name) {
      case "get":
        return { scope: { kind: "all" }, visibility: PUBLIC };
      case "getFromRepo": {
        const { repo, readable } = await this.repository(params, principal);
        return { scope: { kind: "repo", repoId: repo.id }, visibility: readable ? { kind: "all" } : PUBLIC };
      }
      case "getFromRepoIssues":
        return {
          issuesOf: (await this.repository(params, principal, endpoints.events.getFromRepoIssues.permissions)).repo.id,
        };
      case "getFromRepoNetwork": {
        const { repo } = await this.repository(params, principal);
        return { scope: { kind: "network", networkId: repo.networkId }, visibility: PUBLIC };
      }
      case "getFromOrg":
        return { scope: { kind: "org", orgId: (await this.organization(params.org)).id }, visibility: PUBLIC };
      case "getReceived": {
        const user = await this.account(params.user);
        const visibility: Visibility = this.isSelfWithPrivate(principal, user)
          ? { kind: "readable-by", userId: user.id }
          : PUBLIC;
        return { scope: { kind: "received", userId: user.id }, visibility };
      }
      case "getReceivedPublic":
        return { scope: { kind: "received", userId: (await this.account(params.user)).id }, visibility: PUBLIC };
      case "getFromUser": {
        const user = await this.account(params.user);
        // Everything the user did is theirs to see.
        return {
          scope: { kind: "actor", actorId: user.id },
          visibility: this.isSelfWithPrivate(principal, user) ? { kind: "all" } : PUBLIC,
        };
      }
      case "getFromUserPublic":
        return { scope: { kind: "actor", actorId: (await this.account(params.user)).id }, visibility: PUBLIC };
      case "getFromUserOrg": {
        // "You must be authenticated as the user to view this"; anyone else, or a non-member, gets 404.
        const user = await this.account(params.user);
        if (!principal || principal.user.id !== user.id) throw notFound();
        const org = await this.organization(params.org);
        if (!(await this.store.directory.isMember(org.id, user.id))) throw notFound();
        const grant = grantOf(principal);
        if (grant) checkOrganization(grant, org.id, endpoints.events.getFromUserOrg.permissions);
        // A fine-grained token sees the private events of every repository it reads only when it selected them all.
        const privateToo = grant ? grant.repositorySelection === "all" : this.mayReadPrivate(principal);
        return {
          scope: { kind: "org", orgId: org.id },
          visibility: privateToo ? { kind: "readable-by", userId: user.id } : PUBLIC,
        };
      }
    }
  }

  /** The named parameters an id-based path stands for; an unknown or malformed id is 404. */
  async paramsByWireId(kind: WireIdKind, id: string): Promise<FeedParams> {
    if (!/^[0-9]{1,15}$/.test(id)) throw notFound();
    if (kind === "repo") {
      const fullName = await this.store.directory.repoNameByWireId(Number(id));
      if (!fullName) throw notFound();
      const [user, repo] = [fullName.slice(0, fullName.indexOf("/")), fullName.slice(fullName.indexOf("/") + 1)];
      return { user, repo };
    }
    const login = await this.store.directory.loginByWireId(Number(id));
    if (!login) throw notFound();
    return kind === "org" ? { org: login } : { user: login };
  }

  async page(
    name: FeedName,
    params: FeedParams,
    principal: Principal | null,
    window: PageRequest,
  ): Promise<ServedPage> {
    const { maxEvents } = this.caps;
    // Access first: a feed the caller may not see is 404 on every page, never the pagination 422 (spec 4.2 rule 3).
    const plan = await this.plan(name, params, principal);
    if (maxEvents !== null && window.offset >= maxEvents) throw PAGINATION_LIMITED();
    const now = this.clock().getTime();
    const notBefore = this.notBefore(now);
    const request = {
      offset: window.offset,
      limit: maxEvents === null ? window.limit : Math.min(window.limit, maxEvents - window.offset),
      notBefore,
    };
    const page = await this.read(plan, request, now);
    return { ...page, total: maxEvents === null ? page.total : Math.min(page.total, maxEvents) };
  }

  /** The oldest time the age cap (`--feed-max-age`) lets a feed show at `now` (ms); null without the cap. */
  private notBefore(now = this.clock().getTime()): Date | null {
    const { maxAgeSeconds } = this.caps;
    return maxAgeSeconds === null ? null : new Date(Math.floor((now - maxAgeSeconds * 1000) / MINUTE_MS) * MINUTE_MS);
  }

  /** The clock times around `now` (ms) that give the same notBefore: all time without the cap, else its minute. */
  private sameNotBefore(now: number): { from: number; until: number } {
    const { maxAgeSeconds } = this.caps;
    if (maxAgeSeconds === null) return { from: -Infinity, until: Infinity };
    const from = Math.floor((now - maxAgeSeconds * 1000) / MINUTE_MS) * MINUTE_MS + maxAgeSeconds * 1000;
    return { from, until: from + MINUTE_MS };
  }

  /**
   * What a live stream of the feed shows next: its events that arrived in (after, upTo], as a page of the feed would
   * show them (the same target, the same age cap). The event-count cap is about paging back, not about new events.
   */
  arrivals(target: FeedTarget, after: number, upTo: number, limit: number): Promise<ArrivedEvent[]> {
    return this.store.events.arrivals(target, { after, upTo, limit, notBefore: this.notBefore() });
  }

  /**
   * A page's rows as of `total` or newer, loaded into the page cache under `pageKey`: a first page carried forward
   * from an earlier one when it can be (./first-pages.ts), and noted as the one to carry forward next.
   */
  private async rows(
    target: FeedTarget,
    request: Omit<FeedRequest, "visibility">,
    total: FeedTotal,
    line: string,
    pageKey: string,
  ): Promise<PageRows> {
    if (request.offset !== 0) return this.store.events.feedRows(target, fromBoundary(request, total));
    const rows =
      (await this.firstPages.carried(line, total, request.limit, {
        cached: (key) => this.cache.peek(key),
        arrivals: (after, upTo, limit) =>
          this.store.events.arrivals(target, { after, upTo, limit, notBefore: request.notBefore }),
      })) ?? (await this.store.events.feedRows(target, fromBoundary(request, total)));
    this.firstPages.note(line, pageKey, total);
    return rows;
  }

  /**
   * The page as of the version the request read, or newer. Its total is kept across ingests (./feed-totals.ts), and
   * its rows while the total says the feed holds the same events; both are counted before the rows are read, so
   * rows never lag behind the state they are kept under.
   */
  private async read(target: FeedTarget, request: Omit<FeedRequest, "visibility">, now: number): Promise<ServedPage> {
    if (!this.cache.enabled) {
      const page = await ("issuesOf" in target
        ? this.store.events.issueFeed(target.issuesOf, request)
        : this.store.events.feed(target.scope, { ...request, visibility: target.visibility }));
      return { ...page, dependence: null };
    }
    const received =
      "scope" in target && target.scope.kind === "received"
        ? await this.store.events.receivedVersion(target.scope.userId)
        : 0;
    const standing = feedStanding(target, this.version(), received);
    const notBefore = request.notBefore ? Math.floor(request.notBefore.getTime() / 1000) : 0;
    const feedKey = `${targetKey(target)}|${notBefore}`;
    const kept = await this.totals.get(feedKey, target, notBefore, standing);
    const line = `${feedKey}|${request.limit}|${standing.standing}`;
    const slot = `${line}|${request.offset}`;
    const pageKey = `${slot}|${kept.epoch}|${kept.above}`;
    const rows = await this.cache.get(pageKey, slot, () => this.rows(target, request, kept, line, pageKey));
    const dependence: PageDependence = {
      received:
        "scope" in target && target.scope.kind === "received"
          ? { userId: target.scope.userId, version: received }
          : null,
      ...this.sameNotBefore(now),
    };
    return { ...rows, total: kept.total, dependence };
  }
}
