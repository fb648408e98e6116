/** The document's opening text (`info.description`), what every operation shares, which /docs shows first. */
import { SUPPORTED_VERSION } from "../../api/versions.js";

export const API_DESCRIPTION = `GitHub's REST v3 wire format for access authorizations and activity event feeds.

- **Authentication** on every route: Basic (login:password, or a token as the password), \`Authorization: token X\`,
  \`Authorization: Bearer X\`, or \`?access_token=X\`; two-factor accounts add their one-time code in
  \`X-GitHub-OTP\` or \`X-Service-OTP\`. Authorizations are managed with a password only.
- **Versions**: \`Accept: application/vnd.github.v3+json\`, \`application/json\`, \`*/*\` or none select ${SUPPORTED_VERSION};
  another version is refused, naming this one. \`X-GitHub-Api-Version\` picks GitHub's calendar version, \`2022-11-28\`
  (the default) or \`2026-03-10\` (without \`rate\` in \`/rate_limit\`, the root's \`authorizations_url\` and \`hub_url\`, and
  a repository's \`has_downloads\`); answers name it in \`X-GitHub-Api-Version-Selected\`.
- **Errors** always have the shape \`{message, documentation_url, errors?}\` (the \`ErrorBody\` schema).
- **Rate limits** are reported in \`X-RateLimit-*\` on every response; a 304 costs nothing.
- **Lists** are paged with \`page\` and \`per_page\` and carry a \`Link\` header when they span pages.`;

/** The tags operations are listed under, in this order; table rows name theirs (`Endpoint["tag"]`). */
export const TAGS = [
  { name: "authorization", description: "OAuth-style tokens with scopes, managed with the account's password" },
  {
    name: "personal-access-tokens",
    description:
      "Fine-grained personal access tokens (feedgate's own routes: GitHub makes them " +
      "on its web pages), limited to one owner, chosen repositories and permissions; managed with the account's password",
  },
  {
    name: "credentials",
    description: "Revoking tokens found exposed: anonymous callers only, a rate limit of its own",
  },
  {
    name: "apps",
    description: "An OAuth app managing the tokens it was granted, with its client id and secret as Basic auth",
  },
  { name: "events", description: "Activity feeds, newest first, paged" },
  { name: "admin", description: "Ingest for site administrators; 404 for everyone else" },
  { name: "users", description: "Accounts, as GitHub's user objects: the caller's own, or any by login or id" },
  { name: "orgs", description: "Organizations, as GitHub's organization objects, by login or id" },
  {
    name: "repos",
    description: "Repositories, as GitHub's repository objects, by name or id; private ones only to their readers",
  },
  {
    name: "hooks",
    description: "Repository and organization webhooks and their deliveries; 404 for anyone who may not manage them",
  },
  {
    name: "issues",
    description:
      "Issues of a repository, their labels, milestones, assignees, comments and reactions: each write one action, making its state, GitHub's issue " +
      "events, Events API event and webhooks at once",
  },
  { name: "search", description: "GitHub's issue search, with a rate-limit window of its own (30 a minute)" },
  {
    name: "activity",
    description: "Starring, watching and following: the caller's own relations, and anyone's as lists",
  },
  {
    name: "collaborators",
    description:
      "A repository's collaborators with their roles, and the invitations that make them; accepting one makes " +
      "MemberEvent and the member webhook",
  },
  {
    name: "git",
    description:
      "Git data: blobs, trees, commits and annotated tags under the SHA-1s git gives them, and refs, whose every " +
      "write is a push (CreateEvent, PushEvent or DeleteEvent, and the create, push and delete webhooks)",
  },
  {
    name: "contents",
    description: "A repository's files at a ref, and files written or deleted as commits pushed to a branch",
  },
  {
    name: "pulls",
    description:
      "Pull requests: opened from a branch (PullRequestEvent, pull_request webhooks), followed by pushes to it " +
      "(synchronize), reviewed, and merged as a push on the base, mergeability computed on paths",
  },
  {
    name: "checks",
    description:
      "What CI reports of a commit: commit statuses and their combined state, and GitHub Apps' check runs and " +
      "suites, each write one action with its status, check_run or check_suite webhook",
  },
  {
    name: "releases",
    description:
      "Releases of a tag (ReleaseEvent and the release webhooks; a new tag made as a push) and their assets, " +
      "uploaded as raw bytes to the release's upload_url and downloaded with Accept: application/octet-stream",
  },
  {
    name: "graphql",
    description:
      "GitHub's GraphQL interface, over the viewer, users, organizations and repositories (docs/api.md#graphql)",
  },
  {
    name: "apps",
    description:
      "GitHub Apps: the app and its installations with its JWT, installation tokens (`ghs_`, an hour) minted for them, and what those tokens reach",
  },
  { name: "rateLimit", description: "The caller's rate-limit window; not counted against it" },
  {
    name: "testControls",
    description: "The test double's controls: reset, clock, faults, snapshots, deliveries (only under --test-controls)",
  },
  {
    name: "meta",
    description: "The API root's URL templates, GitHub's meta information, probes, metrics and this description",
  },
];
