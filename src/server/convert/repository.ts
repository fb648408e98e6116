/**
 * Stored repositories -> GitHub's full-repository object (and the repository objects of a fork's `parent` and
 * `source`). Counts are the stored relations: stargazers (`watches`, which WatchEvent, GitHub's star, creates: GitHub's
 * `watchers_count` is its stars), subscribers (watching, the notifications subscription), direct forks, the fork
 * network. Settings are the stored ones (migration 26); times are the stored ones, else the repository's stored events';
 * what feedgate does not store is GitHub's neutral value.
 */
import type {
  NestedRepository,
  REPOSITORY_URL_KEYS,
  ParentRepository,
  Repository,
  RepositoryPermissions,
} from "../../api/schemas.js";
import type { RepoRow, RepoStats, UserRow } from "../store/store.js";
import { type ApiVersion, DEFAULT_API_VERSION, keepsRemovedFields } from "../../api/versions.js";
import { isoSeconds } from "./time.js";
import { toWireSimpleUser } from "./user.js";
import { webOrigin } from "./urls.js";
import { legacyNodeId } from "./node-ids.js";

/** A repository with what its object shows: its owner and its counts. */
export interface RepositoryFacts {
  repo: RepoRow;
  owner: UserRow;
  stats: RepoStats;
}

/** What `GET /repos/:user/:repo` shows beyond the repository itself; each part only when it applies. */
export interface RepositoryContext {
  /** Absent for anonymous callers, as on GitHub. */
  permissions?: RepositoryPermissions;
  parent?: RepositoryFacts;
  source?: RepositoryFacts;
}

/**
 * A repository made otherwise than through the API has no creation stored: its first stored event (a CreateEvent,
 * when history has it) is the best record of it; with no event at all, the epoch, which full-repository allows where
 * null it does not.
 */
const UNKNOWN_TIME = new Date(0);

const createdAt = ({ repo, stats }: RepositoryFacts): Date =>
  repo.settings.createdAt ?? stats.firstEventAt ?? UNKNOWN_TIME;

/**
 * A repository's `updated_at`, which GitHub also sends as its `Last-Modified`: its last edit or its newest stored
 * event, whichever is later.
 */
export function repositoryUpdatedAt(facts: RepositoryFacts): Date {
  const { settings } = facts.repo;
  const last = facts.stats.lastEventAt;
  if (settings.updatedAt && (!last || settings.updatedAt > last)) return settings.updatedAt;
  return last ?? createdAt(facts);
}

/**
 * The repository object GitHub nests as a fork's `parent` and `source`. One literal, every key in GitHub's order: an
 * object V8 builds from a literal keeps fast properties, where one assembled by spreading (the URLs were a spread of
 * their own) fell into dictionary mode past a dozen keys, and every later spread of it copied key by key: a
 * repository object took 150-190 µs of CPU to build, GET /repos/o/r's largest single cost.
 */
export function toWireParentRepository(facts: RepositoryFacts, baseUrl: string): ParentRepository {
  const { repo, owner, stats } = facts;
  const { settings, fullName } = repo;
  const created = createdAt(facts);
  const api = `${baseUrl}/repos/${fullName}`;
  const web = webOrigin(baseUrl);
  const { host } = new URL(baseUrl);
  return {
    id: repo.wireId,
    node_id: legacyNodeId("Repository", repo.wireId),
    name: fullName.slice(fullName.indexOf("/") + 1),
    full_name: fullName,
    owner: toWireSimpleUser(owner, baseUrl),
    private: repo.private,
    html_url: `${web}/${fullName}`,
    description: settings.description,
    fork: repo.parentId !== null,
    url: api,
    archive_url: `${api}/{archive_format}{/ref}`,
    assignees_url: `${api}/assignees{/user}`,
    blobs_url: `${api}/git/blobs{/sha}`,
    branches_url: `${api}/branches{/branch}`,
    collaborators_url: `${api}/collaborators{/collaborator}`,
    comments_url: `${api}/comments{/number}`,
    commits_url: `${api}/commits{/sha}`,
    compare_url: `${api}/compare/{base}...{head}`,
    contents_url: `${api}/contents/{+path}`,
    contributors_url: `${api}/contributors`,
    deployments_url: `${api}/deployments`,
    downloads_url: `${api}/downloads`,
    events_url: `${api}/events`,
    forks_url: `${api}/forks`,
    git_commits_url: `${api}/git/commits{/sha}`,
    git_refs_url: `${api}/git/refs{/sha}`,
    git_tags_url: `${api}/git/tags{/sha}`,
    git_url: `git://${host}/${fullName}.git`,
    issue_comment_url: `${api}/issues/comments{/number}`,
    issue_events_url: `${api}/issues/events{/number}`,
    issues_url: `${api}/issues{/number}`,
    keys_url: `${api}/keys{/key_id}`,
    labels_url: `${api}/labels{/name}`,
    languages_url: `${api}/languages`,
    merges_url: `${api}/merges`,
    milestones_url: `${api}/milestones{/number}`,
    notifications_url: `${api}/notifications{?since,all,participating}`,
    pulls_url: `${api}/pulls{/number}`,
    releases_url: `${api}/releases{/id}`,
    ssh_url: `git@${host}:${fullName}.git`,
    stargazers_url: `${api}/stargazers`,
    statuses_url: `${api}/statuses/{sha}`,
    subscribers_url: `${api}/subscribers`,
    subscription_url: `${api}/subscription`,
    tags_url: `${api}/tags`,
    teams_url: `${api}/teams`,
    trees_url: `${api}/git/trees{/sha}`,
    clone_url: `${web}/${fullName}.git`,
    mirror_url: null,
    hooks_url: `${api}/hooks`,
    svn_url: `${web}/${fullName}`,
    homepage: settings.homepage,
    language: null,
    forks_count: stats.forks,
    stargazers_count: stats.watchers,
    watchers_count: stats.watchers,
    size: 0,
    default_branch: settings.defaultBranch ?? "",
    open_issues_count: stats.openIssues,
    is_template: false,
    topics: [],
    has_issues: settings.hasIssues,
    has_projects: settings.hasProjects,
    has_wiki: settings.hasWiki,
    has_pages: false,
    has_downloads: false,
    has_discussions: false,
    archived: settings.archived,
    disabled: false,
    visibility: repo.private ? "private" : "public",
    // GitHub's pushed_at of a repository never pushed to is its creation time.
    pushed_at: isoSeconds(stats.lastPushAt ?? created),
    created_at: isoSeconds(created),
    updated_at: isoSeconds(repositoryUpdatedAt(facts)),
    license: null,
    forks: stats.forks,
    open_issues: stats.openIssues,
    watchers: stats.watchers,
  } satisfies Record<(typeof REPOSITORY_URL_KEYS)[number], string> & ParentRepository;
}

/** A repository as API version 2026-03-10 and later show it: without `has_downloads` or `use_squash_pr_title_as_default`. */
function asVersion<R extends ParentRepository & { use_squash_pr_title_as_default?: boolean }>(
  repository: R,
  version: ApiVersion,
): R {
  if (keepsRemovedFields(version)) return repository;
  const { has_downloads: _downloads, use_squash_pr_title_as_default: _squash, ...current } = repository;
  return current as R;
}

const DISABLED = { status: "disabled" } as const;

const SECURITY_AND_ANALYSIS = {
  secret_scanning: DISABLED,
  secret_scanning_push_protection: DISABLED,
  dependabot_security_updates: DISABLED,
  secret_scanning_non_provider_patterns: DISABLED,
  secret_scanning_validity_checks: DISABLED,
} as const;

/**
 * What GitHub shows a repository's administrators besides: the merge settings as a new repository has them (no
 * route changes them), an empty clone token, and every security and analysis switch off.
 */
function withAdminView(wire: Repository): void {
  wire.allow_rebase_merge = true;
  wire.temp_clone_token = "";
  wire.allow_squash_merge = true;
  wire.allow_auto_merge = false;
  wire.delete_branch_on_merge = false;
  wire.allow_merge_commit = true;
  wire.allow_update_branch = false;
  wire.use_squash_pr_title_as_default = false;
  wire.squash_merge_commit_title = "COMMIT_OR_PR_TITLE";
  wire.squash_merge_commit_message = "COMMIT_MESSAGES";
  wire.merge_commit_title = "MERGE_MESSAGE";
  wire.merge_commit_message = "PR_TITLE";
  wire.security_and_analysis = SECURITY_AND_ANALYSIS;
}

/**
 * `GET /repos/:user/:repo`, in the shape of the API version asked for. Webhook payloads are not versioned on GitHub:
 * they take the default.
 */
export function toWireRepository(
  facts: RepositoryFacts,
  context: RepositoryContext,
  baseUrl: string,
  version: ApiVersion = DEFAULT_API_VERSION,
): Repository {
  const { owner, stats } = facts;
  const related = (repository: RepositoryFacts) => asVersion(toWireParentRepository(repository, baseUrl), version);
  // Added key by key to the parent's object, in GitHub's order: spreads would copy it into a slow object (above). The
  // keys a full repository requires beyond the parent's are all set below.
  const wire = related(facts) as Repository;
  if (context.permissions) wire.permissions = context.permissions;
  if (context.permissions?.admin) withAdminView(wire);
  // Everyone's view: forking is allowed (feedgate has no setting that forbids it), web commits need no sign-off.
  wire.allow_forking = true;
  wire.web_commit_signoff_required = false;
  if (owner.type === "Organization") wire.organization = toWireSimpleUser(owner, baseUrl);
  if (context.parent) wire.parent = related(context.parent);
  if (context.source) wire.source = related(context.source);
  wire.network_count = stats.networkForks;
  wire.subscribers_count = stats.subscribers;
  return asVersion(wire, version);
}

/**
 * The repository GitHub nests in a pull request's `head` and `base` (REST's `repository` schema, and the webhooks'):
 * the repository's object without what only its own object shows, its organization, its network's counts, its parent
 * and source. GitHub's schema of `pull_request.synchronize` refuses an `organization` object there.
 */
export function toWireNestedRepository(facts: RepositoryFacts, baseUrl: string): NestedRepository {
  const {
    organization: _organization,
    network_count: _networkCount,
    subscribers_count: _subscribersCount,
    parent: _parent,
    source: _source,
    ...nested
  } = toWireRepository(facts, {}, baseUrl);
  return nested;
}
