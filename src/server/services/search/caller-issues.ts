/**
 * The caller's issues across repositories: `GET /issues` (the repositories it owns or collaborates on, and those of
 * its organizations), `/user/issues` (without the organizations') and `/orgs/{org}/issues` (the organization's). Each
 * is a search over the issues the caller may see (store/issue-search.ts) with GitHub's `filter`: assigned to it
 * (the default), created by it, mentioning it, involving it (`subscribed`: authored, assigned, mentioned or
 * commented on), or every issue there (`repos`, `all`). No Fastify and no SQL.
 */
import { InvalidInputError } from "../../failures.js";
import type { IssueFacts } from "../../convert/issue.js";
import type { RepositoryFacts } from "../../convert/repository.js";
import { notFound } from "../../errors.js";
import type { IssueSearch, PageRequest, Store } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedService } from "../feeds.js";
import { hitFacts, hitRepositories } from "./hit-facts.js";
import { readerOf } from "./issue-search.js";

export type CallerScope = { kind: "all" } | { kind: "own" } | { kind: "org"; org: string };

export interface CallerIssuesQuery {
  filter?: string;
  state?: string;
  labels?: string;
  sort?: string;
  direction?: string;
  since?: string;
}

/** An issue of the caller's, with the repository object GitHub adds to each item of these lists. */
export interface CallerIssue {
  facts: IssueFacts;
  repository: RepositoryFacts;
}

const FILTERS = ["assigned", "created", "mentioned", "subscribed", "repos", "all"] as const;

function oneOf<const T extends readonly string[]>(
  value: string | undefined,
  allowed: T,
  field: string,
  fallback: T[number],
) {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value))
    throw new InvalidInputError(`${field} must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`, {
      field,
      code: "invalid",
    });
  return value as T[number];
}

export class CallerIssueService {
  constructor(
    private readonly store: Store,
    private readonly feeds: FeedService,
  ) {}

  async list(
    scope: CallerScope,
    input: CallerIssuesQuery,
    principal: Principal,
    window: PageRequest,
  ): Promise<{ total: number; items: CallerIssue[] }> {
    const filter = oneOf(input.filter, FILTERS, "filter", "assigned");
    const state = oneOf(input.state, ["open", "closed", "all"] as const, "state", "open");
    const sort = oneOf(input.sort, ["created", "updated", "comments"] as const, "sort", "created");
    const direction = oneOf(input.direction, ["asc", "desc"] as const, "direction", "desc");
    const me = principal.user;
    const query: IssueSearch = {
      kind: null,
      state: state === "all" ? null : state,
      locked: null,
      labels:
        input.labels
          ?.split(",")
          .map((l) => l.trim())
          .filter(Boolean) ?? [],
      without: [],
      in: ["title", "body"],
      words: [],
      times: [],
      sort,
      order: direction,
    };
    if (scope.kind === "org") {
      const org = await this.feeds.organization(scope.org).catch(() => null);
      if (!org) throw notFound();
      query.ownerIds = [org.id];
    } else query.relatedTo = { userId: me.id, organizations: scope.kind === "all" };
    if (filter === "assigned") query.assigneeId = me.id;
    if (filter === "created") query.authorId = me.id;
    if (filter === "mentioned") query.mentions = me.login;
    if (filter === "subscribed") query.involves = { userId: me.id, login: me.login };
    if (input.since !== undefined) {
      const since = new Date(input.since);
      if (Number.isNaN(since.getTime()))
        throw new InvalidInputError(`since must be an ISO 8601 time, got ${JSON.stringify(input.since)}`, {
          field: "since",
          code: "invalid",
        });
      query.times.push({ field: "updated", from: { at: since, inclusive: true } });
    }
    const page = await this.store.issueSearch.search(query, readerOf(principal), window);
    const hits = await hitFacts(this.store, page.rows);
    const repositories = await hitRepositories(this.store, hits);
    return {
      total: page.total,
      items: hits.map(({ facts, repo }) => ({ facts, repository: repositories.get(repo.id)! })),
    };
  }
}
