/**
 * Fine-grained personal access tokens: made, listed and deleted by their user (with the password, as authorizations
 * are), each limited to one resource owner, a repository selection and permissions (api/permissions.ts). What a token
 * may then reach is fine-grained-access.ts's. No Fastify, no SQL: this throws ApiError for anything it refuses, and
 * a refused request stores nothing.
 */
import type { endpoints } from "../../api/endpoints.js";
import {
  isPermissionName,
  PERMISSIONS,
  REPOSITORY_SELECTIONS,
  type AccessLevel,
  type GrantedPermissions,
  type PermissionGroup,
  type RepositorySelection,
} from "../../api/permissions.js";
import type { RequestOf } from "../../api/schemas.js";
import { notFound } from "../errors.js";
import type { AuthorizationRow, Page, PageRequest, RepoRow, Store, UserRow } from "../store/store.js";
import { FINE_GRAINED_TOKEN_PREFIX, hashToken, isTokenShaped, mintFineGrainedToken } from "./credentials.js";
import { fail, isObject, parseId } from "./input-checks.js";
import { defaultExpiry, hasExpired, NO_MAX_LIFETIME, requestedExpiry, type ExpiryPolicy } from "./token-expiry.js";
import type { FineGrainedTokenView } from "../convert/fine-grained-token.js";

export type CreateFineGrainedTokenInput = RequestOf<typeof endpoints.personalAccessTokens.create, "body">;

export type { FineGrainedTokenView };

/** What a token is made of, checked: the CLI builds it from flags, the API and the console from a request body. */
export interface FineGrainedTokenRequest {
  name: string;
  description?: string | null;
  /** The resource owner's login; the user's own when absent. */
  resourceOwner?: string;
  repositorySelection?: string;
  repositories?: readonly string[];
  /** By group, as the API takes them, or unchecked input to refuse. */
  permissions?: unknown;
  expiresAt?: string | null;
  /** A value to register instead of a new one (the CLI's `--token`, for test fixtures): feedgate's fine-grained form. */
  token?: string;
}

const NAME_MAX = 40; // GitHub's token name field takes 40 characters
const DESCRIPTION_MAX = 1024;

export class FineGrainedTokenService {
  constructor(
    private readonly store: Store,
    private readonly clock: () => Date,
    private readonly expiry: ExpiryPolicy = NO_MAX_LIFETIME,
  ) {}

  async list(user: UserRow, page: PageRequest): Promise<Page<FineGrainedTokenView>> {
    const { rows, total } = await this.store.authorizations.list(user.id, page, "fine-grained");
    return { rows: await Promise.all(rows.map((row) => this.view(user, row))), total };
  }

  async get(user: UserRow, id: string): Promise<FineGrainedTokenView> {
    const row = await this.store.authorizations.find(user.id, parseId(id));
    if (!row?.fineGrained) throw notFound();
    return this.view(user, row);
  }

  /** Checks every part of the request before storing anything; the token is in the answer and nowhere else. */
  async create(
    user: UserRow,
    request: FineGrainedTokenRequest,
  ): Promise<{ view: FineGrainedTokenView; token: string }> {
    const now = this.clock();
    const name = request.name.trim();
    if (!name || name.length > NAME_MAX) fail("name", `name must be 1 to ${NAME_MAX} characters`);
    const description = request.description ?? null;
    if (description !== null && description.length > DESCRIPTION_MAX) {
      fail("description", `description must be at most ${DESCRIPTION_MAX} characters`);
    }
    const owner = await this.resourceOwner(user, request.resourceOwner);
    const repositorySelection = selection(request.repositorySelection);
    const repositories = await this.selectedRepositories(user, owner, repositorySelection, request.repositories ?? []);
    const permissions = granted(request.permissions, owner, repositorySelection);
    const expiresAt = requestedExpiry(request.expiresAt, now, this.expiry);
    if (
      request.token !== undefined &&
      !(request.token.startsWith(FINE_GRAINED_TOKEN_PREFIX) && isTokenShaped(request.token))
    ) {
      fail("token", `token must be a fine-grained token in feedgate's form (${FINE_GRAINED_TOKEN_PREFIX}...)`);
    }
    const token = request.token ?? mintFineGrainedToken();
    const row = await this.store.authorizations.create(
      {
        userId: user.id,
        hashedToken: hashToken(token),
        tokenLastEight: token.slice(-8),
        scopes: [],
        note: name,
        noteUrl: null,
        fingerprint: null,
        expiresAt: expiresAt === undefined ? defaultExpiry(now, this.expiry) : expiresAt,
        fineGrained: {
          ownerId: owner.id,
          repositorySelection,
          repositoryIds: repositories.map((r) => r.id),
          permissions,
          description,
        },
      },
      now,
    );
    return { view: await this.view(user, row), token };
  }

  async delete(user: UserRow, id: string): Promise<void> {
    const { row } = await this.get(user, id);
    if (!(await this.store.authorizations.delete(user.id, row.id))) throw notFound();
  }

  /** The user, or an organization the user belongs to: GitHub offers no other resource owners. */
  private async resourceOwner(user: UserRow, login: string | undefined): Promise<UserRow> {
    if (login === undefined || login.toLowerCase() === user.login.toLowerCase()) return user;
    const org = await this.store.users.findByLogin(login);
    if (org?.type !== "Organization" || !(await this.store.directory.isMember(org.id, user.id))) {
      fail(
        "resource_owner",
        `resource_owner must be you or an organization you belong to, got "${login.slice(0, 100)}"`,
      );
    }
    return org;
  }

  /** `subset` needs at least one repository, each the resource owner's and readable by the user; the others none. */
  private async selectedRepositories(
    user: UserRow,
    owner: UserRow,
    chosen: RepositorySelection,
    names: readonly string[],
  ) {
    if (chosen !== "subset") {
      if (names.length > 0) fail("repositories", `repositories are only given with repository_selection "subset"`);
      return [];
    }
    if (names.length === 0) fail("repositories", `repository_selection "subset" needs at least one repository`);
    const repos = new Map<number, RepoRow>();
    for (const name of names) {
      const [ownerLogin, repoName] = name.includes("/")
        ? (name.split("/", 2) as [string, string])
        : [owner.login, name];
      const repo =
        ownerLogin.toLowerCase() === owner.login.toLowerCase()
          ? await this.store.directory.findRepo(ownerLogin, repoName)
          : null;
      if (!repo || !(await this.store.directory.canRead(user.id, repo.id))) {
        fail("repositories", `${owner.login} has no repository "${name.slice(0, 100)}" that you can reach`);
      }
      repos.set(repo.id, repo);
    }
    return [...repos.values()];
  }

  private async view(user: UserRow, row: AuthorizationRow): Promise<FineGrainedTokenView> {
    const grant = row.fineGrained!;
    const owner = grant.ownerId === user.id ? user : await this.store.users.findById(grant.ownerId);
    if (!owner) throw notFound(); // the resource owner was deleted with its tokens between two reads
    const repositories = (
      await Promise.all(grant.repositoryIds.map((id) => this.store.directory.findRepoById(id)))
    ).filter((repo): repo is RepoRow => repo !== null);
    return {
      row: { ...row, fineGrained: grant },
      user,
      owner,
      repositories,
      expired: hasExpired(row.expiresAt, this.clock()),
    };
  }
}

function selection(raw: string | undefined): RepositorySelection {
  if (raw === undefined) return "none";
  if (!(REPOSITORY_SELECTIONS as readonly string[]).includes(raw)) {
    fail(
      "repository_selection",
      `repository_selection must be one of ${REPOSITORY_SELECTIONS.join(", ")}, got "${raw.slice(0, 40)}"`,
    );
  }
  return raw as RepositorySelection;
}

const GROUPS: readonly PermissionGroup[] = ["repository", "organization", "other"];

/**
 * The permissions asked for, by group, checked as GitHub's token page allows them: known names at levels they offer,
 * repository ones only with repositories to use them on, organization ones only for an organization; Metadata read is
 * always added.
 */
function granted(raw: unknown, owner: UserRow, chosen: RepositorySelection): GrantedPermissions {
  const permissions: GrantedPermissions = { metadata: "read" };
  if (raw === undefined || raw === null) return permissions;
  if (!isObject(raw))
    return fail("permissions", 'permissions must be an object of groups: {"repository": {...}, "organization": {...}}');
  for (const [group, entries] of Object.entries(raw)) {
    if (!(GROUPS as readonly string[]).includes(group))
      fail("permissions", `permissions has no group "${group.slice(0, 40)}": use ${GROUPS.join(" or ")}`);
    if (!isObject(entries))
      fail(`permissions.${group}`, `permissions.${group} must be an object of permission names and levels`);
    for (const [name, level] of Object.entries(entries)) {
      const field = `permissions.${group}.${name.slice(0, 40)}`;
      if (!isPermissionName(name) || PERMISSIONS[name].group !== group)
        fail(field, `${field} is not a permission feedgate knows`);
      if (!(PERMISSIONS[name].levels as readonly string[]).includes(level as string)) {
        fail(
          field,
          `${field} must be ${PERMISSIONS[name].levels.join(" or ")}, got ${JSON.stringify(level)?.slice(0, 40)}`,
        );
      }
      if (group === "repository" && chosen === "none" && name !== "metadata") {
        fail(
          field,
          `${field} needs repositories: with repository_selection "none" a token reads public repositories only`,
        );
      }
      if (group === "organization" && owner.type !== "Organization")
        fail(field, `${field} needs an organization as resource_owner`);
      permissions[name] = level as AccessLevel;
    }
  }
  return permissions;
}
