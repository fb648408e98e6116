/**
 * What the served part of GitHub's GraphQL schema (./schema.ts) resolves to, read through the same services as the
 * REST entry points (`/user`, `/users/:user`, `/orgs/:org`, `/repos/:owner/:repo`) and made from the same wire
 * objects, so that both interfaces show one account or repository alike, with the same visibility: what REST answers
 * 404 to the caller is `null` here with GitHub's NOT_FOUND error (./errors.ts).
 */
import { toWireRepository } from "../convert/repository.js";
import { toWireOrganization, toWirePublicUser } from "../convert/user.js";
import { avatarOf, webOrigin } from "../convert/urls.js";
import { isoSeconds } from "../convert/time.js";
import { ApiError } from "../errors.js";
import type { Principal } from "../services/authenticator.js";
import type { EntryPointService } from "../services/entry-points.js";
import type { AccountCounts, UserRow } from "../store/store.js";

/** What every resolver of one request reads: who asks, and the base of the URLs it shows. */
export interface GraphContext {
  principal: Principal;
  baseUrl: string;
  entryPoints: EntryPointService;
}

/** A look-up that found nothing the caller may see: `null` in the data, GitHub's NOT_FOUND in the errors. */
export class NotResolved extends Error {}

/**
 * GitHub's global ids in their first (legacy) form, which GitHub still accepts and shows for accounts and
 * repositories made before 2021: base64 of `0<length of the type>:<type><database id>` ("MDQ6VXNlcjE=" is User 1).
 */
export const globalId = (type: string, id: number) => Buffer.from(`0${type.length}:${type}${id}`).toString("base64");

type Wire = Record<string, unknown>;
type RepositoryView = Awaited<ReturnType<EntryPointService["repository"]>>;

/** A 404 of the services is a look-up that found nothing; every other refusal stands. */
async function found<T>(lookUp: Promise<T>, notFound: string): Promise<T> {
  try {
    return await lookUp;
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 404) throw new NotResolved(notFound);
    throw error;
  }
}

/** What User and Organization share: the Actor and RepositoryOwner interfaces. */
function owner(account: UserRow, context: GraphContext) {
  const url = `${webOrigin(context.baseUrl)}/${account.login}`;
  return {
    __typename: account.type === "Organization" ? "Organization" : "User",
    id: globalId(account.type === "Organization" ? "Organization" : "User", account.wireId),
    databaseId: account.wireId,
    login: account.login,
    avatarUrl: ({ size }: { size?: number | null }) => withSize(avatarOf(account.login), size),
    url,
    resourcePath: `/${account.login}`,
    createdAt: isoSeconds(account.createdAt),
    updatedAt: isoSeconds(account.updatedAt),
    repository: ({ name }: { name: string }) => repository(account.login, name, context).catch(nullWhenNotResolved),
  };
}

/** GitHub's avatar URLs take the size asked for as `s`. */
const withSize = (url: string, size: number | null | undefined) =>
  size ? `${url}${url.includes("?") ? "&" : "?"}s=${size}` : url;

/** A field of an object inside another: null when the caller may not see it, as GitHub answers. */
const nullWhenNotResolved = (error: unknown) => {
  if (error instanceof NotResolved) return null;
  throw error;
};

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
  const { account, counts, asMember } = await found(
    context.entryPoints.organization(login, context.principal),
    notFound,
  );
  const wire = toWireOrganization(account, counts, context.baseUrl, { asMember }) as unknown as Wire;
  const member = await context.entryPoints.isMember(account, context.principal);
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
  return {
    __typename: "Repository",
    id: globalId("Repository", facts.repo.wireId),
    databaseId: facts.repo.wireId,
    name: wire.name,
    nameWithOwner: wire.full_name,
    owner: ownerOf(facts.owner, context),
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
}

/** A repository's owner, as User or Organization, its counts read only when asked for. */
async function ownerOf(account: UserRow, context: GraphContext) {
  if (account.type === "Organization") return organization(account.login, context);
  const { counts } = await context.entryPoints.account(account.login);
  return user(account, counts, context);
}

async function repository(ownerLogin: string, name: string, context: GraphContext) {
  const notFound = `Could not resolve to a Repository with the name '${ownerLogin}/${name}'.`;
  const view = await found(
    context.entryPoints.repository({ user: ownerLogin, repo: name }, context.principal),
    notFound,
  );
  return repositoryObject(view, context);
}

/** The query root: each field a look-up through the entry points' service. */
export const ROOT = {
  viewer: async (_args: unknown, context: GraphContext) => {
    const { account, counts } = await context.entryPoints.self(context.principal);
    return user(account, counts, context);
  },
  user: async ({ login }: { login: string }, context: GraphContext) => {
    const notFound = `Could not resolve to a User with the login of '${login}'.`;
    const { account, counts } = await found(context.entryPoints.account(login), notFound);
    if (account.type === "Organization") throw new NotResolved(notFound);
    return user(account, counts, context);
  },
  organization: ({ login }: { login: string }, context: GraphContext) => organization(login, context),
  repositoryOwner: async ({ login }: { login: string }, context: GraphContext) => {
    const notFound = `Could not resolve to a RepositoryOwner with the login of '${login}'.`;
    const { account } = await found(context.entryPoints.account(login), notFound);
    return ownerOf(account, context);
  },
  repository: ({ owner: login, name }: { owner: string; name: string }, context: GraphContext) =>
    repository(login, name, context),
};
