/**
 * What the served part of GitHub's GraphQL schema (./schema.ts) resolves to, read through the same services as the
 * REST entry points (`/user`, `/users/:user`, `/orgs/:org`, `/repos/:owner/:repo`) and made from the same wire
 * objects, so that both interfaces show one account or repository alike, with the same visibility: what REST answers
 * 404 to the caller is `null` here with GitHub's NOT_FOUND error (./errors.ts). A repository's refs are ./refs.ts,
 * pull requests ./pull-requests.ts, look-ups by global id ./nodes.ts.
 */
import { toWireRepository } from "../convert/repository.js";
import { toWireOrganization, toWirePublicUser } from "../convert/user.js";
import { avatarOf, webOrigin } from "../convert/urls.js";
import { isoSeconds } from "../convert/time.js";
import { accountNodeId, legacyNodeId } from "../convert/node-ids.js";
import { RepositoryMoved } from "../errors.js";
import type { Principal } from "../services/authenticator.js";
import type { EntryPointService } from "../services/entry-points.js";
import type { AccountCounts, UserRow } from "../store/store.js";
import { connection, type PageArguments } from "./connections.js";
import { found, type GraphContext, type GraphServices, NotResolved, nullWhenNotResolved } from "./graph-context.js";
import { node } from "./nodes.js";
import { refObject, type RefRepository } from "./refs.js";

type Wire = Record<string, unknown>;
type RepositoryView = Awaited<ReturnType<EntryPointService["repository"]>>;

/** One request's context: its links are this file's look-ups, for the objects of the other files to link to. */
export function graphContext(principal: Principal, baseUrl: string, services: GraphServices): GraphContext {
  const context: GraphContext = {
    principal,
    baseUrl,
    services,
    links: {
      repository: (login, name) => repository(login, name, context),
      account: (account) => ownerOf(account, context),
    },
  };
  return context;
}

/** What User and Organization share: the Actor and RepositoryOwner interfaces. */
function owner(account: UserRow, context: GraphContext) {
  const url = `${webOrigin(context.baseUrl)}/${account.login}`;
  return {
    __typename: account.type === "Organization" ? "Organization" : "User",
    id: accountNodeId(account),
    databaseId: account.wireId,
    login: account.login,
    avatarUrl: ({ size }: { size?: number | null }) => withSize(avatarOf(account.login), size),
    url,
    resourcePath: `/${account.login}`,
    createdAt: isoSeconds(account.createdAt),
    updatedAt: isoSeconds(account.updatedAt),
    repository: ({ name, followRenames }: { name: string; followRenames: boolean }) =>
      repository(account.login, name, context, followRenames).catch(nullWhenNotResolved),
  };
}

/** GitHub's avatar URLs take the size asked for as `s`. */
const withSize = (url: string, size: number | null | undefined) =>
  size ? `${url}${url.includes("?") ? "&" : "?"}s=${size}` : url;

function user(account: UserRow, counts: AccountCounts, context: GraphContext) {
  const wire = toWirePublicUser(account, counts, context.baseUrl) as unknown as Wire;
  return {
    ...owner(account, context),
    name: wire.name,
    email: (wire.email as string | null) ?? "",
    bio: wire.bio,
    company: wire.company,
    location: wire.location,
    websiteUrl: (wire.blog as string | null) || null,
    twitterUsername: wire.twitter_username ?? null,
    isSiteAdmin: account.siteAdmin,
    isViewer: account.id === context.principal.user.id,
    followers: { totalCount: counts.followers },
    following: { totalCount: counts.following },
  };
}

async function organization(login: string, context: GraphContext) {
  const notFound = `Could not resolve to an Organization with the login of '${login}'.`;
  const { entryPoints } = context.services;
  const { account, counts, asMember } = await found(entryPoints.organization(login, context.principal), notFound);
  const wire = toWireOrganization(account, counts, context.baseUrl, { asMember }) as unknown as Wire;
  const member = await entryPoints.isMember(account, context.principal);
  return {
    ...owner(account, context),
    name: wire.name ?? null,
    email: wire.email ?? null,
    description: wire.description ?? null,
    websiteUrl: (wire.blog as string | null) || null,
    viewerIsAMember: member,
  };
}

const PERMISSION = [
  ["admin", "ADMIN"],
  ["maintain", "MAINTAIN"],
  ["push", "WRITE"],
  ["triage", "TRIAGE"],
  ["pull", "READ"],
] as const;

function repositoryObject(view: RepositoryView, context: GraphContext) {
  const { facts, ...repositoryContext } = view;
  const wire = toWireRepository(facts, repositoryContext, context.baseUrl) as unknown as Wire;
  const permissions = wire.permissions as Record<string, boolean> | undefined;
  const object = {
    __typename: "Repository",
    id: legacyNodeId("Repository", facts.repo.wireId),
    databaseId: facts.repo.wireId,
    name: wire.name,
    nameWithOwner: wire.full_name,
    // Read when asked for: a repository made for another object's link (a pull request's) rarely shows its owner.
    owner: () => ownerOf(facts.owner, context),
    description: wire.description,
    homepageUrl: (wire.homepage as string | null) || null,
    url: wire.html_url,
    resourcePath: `/${facts.repo.fullName}`,
    sshUrl: wire.ssh_url,
    isPrivate: wire.private,
    isFork: wire.fork,
    isArchived: wire.archived,
    isDisabled: wire.disabled,
    isTemplate: wire.is_template,
    visibility: String(wire.visibility).toUpperCase(),
    hasIssuesEnabled: wire.has_issues,
    hasWikiEnabled: wire.has_wiki,
    createdAt: wire.created_at,
    updatedAt: wire.updated_at,
    pushedAt: wire.pushed_at,
    stargazerCount: wire.stargazers_count,
    stargazers: { totalCount: wire.stargazers_count },
    forkCount: wire.forks_count,
    viewerPermission: PERMISSION.find(([key]) => permissions?.[key])?.[1] ?? null,
    parent: () =>
      view.parent
        ? repository(view.parent.owner.login, view.parent.repo.fullName.split("/")[1]!, context).catch(
            nullWhenNotResolved,
          )
        : null,
  };
  // The ref fields' repository is this whole object, theirs included.
  const at: RefRepository = { repo: facts.repo, params: { user: facts.owner.login, repo: String(wire.name) }, object };
  const whole = { ...object, ...refFields(at, context) };
  at.object = whole;
  return whole;
}

/** A repository's refs: one by name, its default branch's, and those under a prefix (one page of them). */
function refFields(at: RefRepository, context: GraphContext) {
  const { refs } = context.services.code;
  const named = async (qualifiedName: string) => {
    const view = await refs.qualified(at.params, qualifiedName, context.principal);
    return view && refObject(view, at, context);
  };
  const defaultBranch = at.repo.settings.defaultBranch;
  return {
    ref: ({ qualifiedName }: { qualifiedName: string }) => named(qualifiedName),
    defaultBranchRef: () => (defaultBranch ? named(`refs/heads/${defaultBranch}`) : null),
    refs: async ({ refPrefix, ...page }: PageArguments & { refPrefix: string }) => {
      const views = await refs.prefixed(at.params, refPrefix, context.principal);
      // By name, the same on either driver whatever the database's collation.
      views.sort((a, b) => (a.ref.name < b.ref.name ? -1 : a.ref.name > b.ref.name ? 1 : 0));
      return connection("refs", views, page, (view) => refObject(view, at, context, refPrefix));
    },
  };
}

/** A repository's owner, as User or Organization, its counts read only when asked for. */
async function ownerOf(account: UserRow, context: GraphContext) {
  if (account.type === "Organization") return organization(account.login, context);
  const { counts } = await context.services.entryPoints.account(account.login);
  return user(account, counts, context);
}

/**
 * A repository by its owner's login and name; by a name it had before a rename too, as GitHub follows renames unless
 * asked not to (`followRenames: false`).
 */
async function repository(ownerLogin: string, name: string, context: GraphContext, followRenames = true) {
  const notFound = `Could not resolve to a Repository with the name '${ownerLogin}/${name}'.`;
  const { entryPoints } = context.services;
  try {
    return repositoryObject(
      await found(entryPoints.repository({ user: ownerLogin, repo: name }, context.principal), notFound),
      context,
    );
  } catch (error) {
    if (!(error instanceof RepositoryMoved)) throw error;
    if (!followRenames) throw new NotResolved(notFound);
    const moved = await entryPoints.byWireId("repo", String(error.wireId));
    return repository(moved.user!, moved.repo!, context, false);
  }
}

/** The query root: each field a look-up through REST's services. */
export const ROOT = {
  viewer: async (_args: unknown, context: GraphContext) => {
    const { account, counts } = await context.services.entryPoints.self(context.principal);
    return user(account, counts, context);
  },
  user: async ({ login }: { login: string }, context: GraphContext) => {
    const notFound = `Could not resolve to a User with the login of '${login}'.`;
    const { account, counts } = await found(context.services.entryPoints.account(login), notFound);
    if (account.type === "Organization") throw new NotResolved(notFound);
    return user(account, counts, context);
  },
  organization: ({ login }: { login: string }, context: GraphContext) => organization(login, context),
  repositoryOwner: async ({ login }: { login: string }, context: GraphContext) => {
    const notFound = `Could not resolve to a RepositoryOwner with the login of '${login}'.`;
    const { account } = await found(context.services.entryPoints.account(login), notFound);
    return ownerOf(account, context);
  },
  repository: (
    { owner: login, name, followRenames }: { owner: string; name: string; followRenames: boolean },
    context: GraphContext,
  ) => repository(login, name, context, followRenames),
  node: ({ id }: { id: string }, context: GraphContext) => node(id, context),
  // Each id on its own: one not found is null in the list with its error, as GitHub answers.
  nodes: ({ ids }: { ids: string[] }, context: GraphContext) => ids.map((id) => node(id, context)),
};
