/** The search rows of the endpoint table (./endpoints.ts spreads them in): GitHub's issue search. No Node-only imports. */
import { paging } from "./params.js";

export const searchEndpoints = {
  issuesAndPullRequests: {
    method: "GET",
    path: "/search/issues",
    params: {
      q: {
        in: "query",
        type: "string",
        required: true,
        description: "GitHub's issue search syntax: words and qualifiers",
      },
      sort: { in: "query", type: "string" },
      order: { in: "query", type: "string" },
      ...paging,
    },
    auth: "optional",
    acceptedScopes: [],
    permissions: [],
    response: "IssueSearchResult",
    resource: "Search",
    documentationUrl: "https://docs.github.com/rest/search/search#search-issues-and-pull-requests",
    summary: "Search issues and pull requests",
    tag: "search",
    // GitHub's search resource: 30 requests a minute for a user, 10 for an anonymous caller.
    rateLimit: { resource: "search", limit: 30, windowSeconds: 60, status: 403, per: "user", anonymousLimit: 10 },
  },
} as const;
