/**
 * GitHub's lists of repositories: the caller's (`GET /user/repos`: `visibility`, `affiliation`, or the older `type`,
 * never both, as GitHub's 422 says), a user's public ones (`GET /users/{u}/repos`) and an organization's
 * (`GET /orgs/{org}/repos`, its private ones to those who read them). Each shows only what the caller may see.
 */
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import { InvalidInputError } from "../../failures.js";
import type { RepoAffiliation, Page, PageRequest, RepoListQuery, RepoRow, RepoSort, Store } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedService } from "../feeds.js";
import { privateReader } from "./account-access.js";
import { oneOf } from "./repository-input.js";

type OwnQuery = RequestOf<Endpoints["repos"]["listForAuthenticatedUser"], "query">;
type UserQuery = RequestOf<Endpoints["repos"]["listForUser"], "query">;
type OrgQuery = RequestOf<Endpoints["repos"]["listForOrg"], "query">;

const SORTS: readonly RepoSort[] = ["created", "updated", "pushed", "full_name"];
const AFFILIATIONS: readonly RepoAffiliation[] = ["owner", "collaborator", "organization_member"];

/** GitHub's order: `direction` defaults to asc for `full_name`, desc otherwise. */
function order(query: { sort?: string; direction?: string }, fallback: RepoSort) {
  const sort = oneOf("sort", query.sort, SORTS, fallback);
  const direction = oneOf(
    "direction",
    query.direction,
    ["asc", "desc"] as const,
    sort === "full_name" ? "asc" : "desc",
  );
  return { sort, direction };
}

function time(field: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const at = new Date(value);
  if (Number.isNaN(at.getTime()))
    throw new InvalidInputError(`${field} must be an ISO 8601 time, got ${JSON.stringify(value)}`, {
      field,
      code: "invalid",
    });
  return at;
}

/** `affiliation` as GitHub takes it: a comma-separated list of the three. */
function affiliations(value: string | undefined): readonly RepoAffiliation[] {
  if (value === undefined) return AFFILIATIONS;
  return value.split(",").map((one) => oneOf("affiliation", one.trim(), AFFILIATIONS, "owner"));
}

/** The older `type` of `GET /user/repos`, as the affiliations and visibility it stands for. */
const OWN_TYPES = {
  all: { affiliations: AFFILIATIONS, visibility: "all" },
  owner: { affiliations: ["owner"], visibility: "all" },
  public: { affiliations: AFFILIATIONS, visibility: "public" },
  private: { affiliations: AFFILIATIONS, visibility: "private" },
  member: { affiliations: ["collaborator", "organization_member"], visibility: "all" },
} as const;

export class RepositoryListService {
  constructor(
    private readonly store: Store,
    private readonly feeds: FeedService,
  ) {}

  async own(principal: Principal, query: OwnQuery, window: PageRequest): Promise<Page<RepoRow>> {
    if (query.type !== undefined && (query.visibility !== undefined || query.affiliation !== undefined))
      throw new InvalidInputError("type cannot be used with visibility or affiliation", {
        field: "type",
        code: "invalid",
      });
    const typed = OWN_TYPES[oneOf("type", query.type, ["all", "owner", "public", "private", "member"] as const, "all")];
    return this.store.repositories.list(
      {
        accountId: principal.user.id,
        affiliations: query.type === undefined ? affiliations(query.affiliation) : typed.affiliations,
        visibility:
          query.type === undefined
            ? oneOf("visibility", query.visibility, ["all", "public", "private"] as const, "all")
            : typed.visibility,
        reader: privateReader(principal),
        ...order(query, "full_name"),
        since: time("since", query.since),
        before: time("before", query.before),
      },
      window,
    );
  }

  /** A user's public repositories: those it owns (`type=owner`, the default), collaborates on, or both. */
  async ofUser(login: string, query: UserQuery, window: PageRequest): Promise<Page<RepoRow>> {
    const account = await this.feeds.account(login);
    const type = oneOf("type", query.type, ["all", "owner", "member"] as const, "owner");
    const chosen: Record<typeof type, readonly RepoAffiliation[]> = {
      all: ["owner", "collaborator"],
      owner: ["owner"],
      member: ["collaborator"],
    };
    const listed: RepoListQuery = {
      accountId: account.id,
      affiliations: chosen[type],
      visibility: "public",
      reader: null,
      ...order(query, "full_name"),
    };
    return this.store.repositories.list(listed, window);
  }

  /** An organization's repositories, its private ones to those who read them. */
  async ofOrg(login: string, query: OrgQuery, principal: Principal | null, window: PageRequest) {
    const org = await this.feeds.organization(login);
    const type = oneOf("type", query.type, ["all", "public", "private", "forks", "sources", "member"] as const, "all");
    const listed: RepoListQuery = {
      accountId: org.id,
      affiliations: ["owner"],
      visibility: type === "public" || type === "private" ? type : "all",
      ...(type === "forks" || type === "sources" ? { forks: type } : {}),
      reader: privateReader(principal),
      ...order(query, "created"),
    };
    return this.store.repositories.list(listed, window);
  }
}
