/**
 * `GET /search/issues`: the query parsed (./issue-query.ts), its logins and repositories resolved, and the visible
 * issues that match. A `repo:`, `org:` or `user:` that names nothing the caller can see is GitHub's 422; a login named
 * by `author:` or `assignee:` that names nobody matches nothing, as on GitHub. No Fastify and no SQL.
 */
import { satisfies } from "../../../api/scopes.js";
import type { IssueFacts } from "../../convert/issue.js";
import { InvalidInputError } from "../../failures.js";
import type { IssueSearch, PageRequest, RepoRow, Store } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedService } from "../feeds.js";
import { hitFacts } from "./hit-facts.js";
import { parseIssueQuery } from "./issue-query.js";

/** GitHub's words for a `repo:`, `org:` or `user:` the caller cannot search. */
const CANNOT_SEARCH =
  "The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them.";

const SORTS = ["created", "updated", "comments"] as const;

export interface SearchResult {
  total: number;
  items: IssueFacts[];
}

export class IssueSearchService {
  constructor(
    private readonly store: Store,
    private readonly feeds: FeedService,
  ) {}

  async search(
    input: { q: string; sort?: string; order?: string },
    principal: Principal | null,
    window: PageRequest,
  ): Promise<SearchResult> {
    const parsed = parseIssueQuery(input.q);
    if (input.sort !== undefined && !(SORTS as readonly string[]).includes(input.sort))
      throw new InvalidInputError(`sort ${JSON.stringify(input.sort)} is not served: created, updated or comments`, {
        field: "sort",
        code: "invalid",
      });
    if (input.order !== undefined && input.order !== "asc" && input.order !== "desc")
      throw new InvalidInputError(`order must be asc or desc, got ${JSON.stringify(input.order)}`, {
        field: "order",
        code: "invalid",
      });
    const query: IssueSearch = {
      kind: parsed.kind,
      state: parsed.state,
      locked: parsed.locked,
      labels: parsed.labels,
      without: parsed.without,
      in: parsed.in,
      words: parsed.words,
      times: parsed.times,
      sort: (input.sort as IssueSearch["sort"]) ?? null,
      order: input.order === "asc" ? "asc" : "desc",
    };
    if (parsed.repos.length) {
      const repos: RepoRow[] = [];
      for (const { owner, name } of parsed.repos) {
        try {
          repos.push((await this.feeds.repository({ user: owner, repo: name }, principal)).repo);
        } catch {
          throw cannotSearch();
        }
      }
      query.repoIds = repos.map((r) => r.id);
    }
    if (parsed.owners.length) {
      const ids: number[] = [];
      for (const login of parsed.owners) {
        const account = await this.store.users.findByLogin(login);
        if (!account) throw cannotSearch();
        ids.push(account.id);
      }
      query.ownerIds = ids;
    }
    const idOf = async (login: string) => (await this.store.users.findByLogin(login))?.id ?? -1;
    if (parsed.author !== null) query.authorId = await idOf(parsed.author);
    if (parsed.assignee !== null) query.assigneeId = await idOf(parsed.assignee);
    if (parsed.mentions !== null) query.mentions = parsed.mentions;
    if (parsed.milestone !== null) query.milestone = parsed.milestone;
    const page = await this.store.issueSearch.search(query, readerOf(principal), window);
    return { total: page.total, items: (await hitFacts(this.store, page.rows)).map((hit) => hit.facts) };
  }
}

const cannotSearch = () => new InvalidInputError(CANNOT_SEARCH, { field: "q", code: "invalid" });

/**
 * Private repositories are searched for a password, or a classic token with `repo`; a fine-grained token, like an
 * anonymous caller, searches public ones (as its feeds do across owners).
 */
export function readerOf(principal: Principal | null) {
  if (!principal) return { userId: null, private: false };
  const reads =
    principal.kind === "password" ||
    (principal.authorization.fineGrained === null && satisfies(principal.authorization.scopes, ["repo"]));
  return { userId: principal.user.id, private: reads };
}
