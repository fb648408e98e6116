/**
 * The collaborators family's rows of the endpoint table (./endpoints.ts spreads them in): a repository's
 * collaborators and their permissions (https://docs.github.com/rest/collaborators/collaborators) and the invitations
 * that make them (https://docs.github.com/rest/collaborators/invitations), the repository's and the invitee's. Managing
 * them is the repository's administrators' (fine-grained `administration`); reading them needs `metadata`. Writes are
 * actions of the action log: accepting an invitation makes MemberEvent and `member.added`. No Node-only imports.
 */
import { DIGITS, paging, type ParamSpec } from "./params.js";
import type { AcceptedPermissions } from "./permissions.js";
import type { ResponseKind } from "./responses.js";

const COLLABORATORS = "https://docs.github.com/rest/collaborators/collaborators";
const INVITATIONS = "https://docs.github.com/rest/collaborators/invitations";

/**
 * Classic tokens: `repo` manages and reads collaborators (GitHub documents `repo`, with `read:org` for an
 * organization's repositories, which feedgate does not ask for); `repo:invite` (which `repo` includes) is GitHub's
 * scope for accepting and declining one's own invitations.
 */
export const COLLABORATOR_SCOPES = ["repo"] as const;
export const INVITE_SCOPES = ["repo", "repo:invite"] as const;

const required = { in: "path", type: "string", required: true } as const;
const repoPath = { user: required, repo: required } as const satisfies Record<string, ParamSpec>;
const collaboratorPath = { ...repoPath, username: required } as const satisfies Record<string, ParamSpec>;
const invitationId = {
  invitation_id: { in: "path", type: "string", required: true, pattern: DIGITS },
} as const satisfies Record<string, ParamSpec>;

const MANAGE: AcceptedPermissions = [{ administration: "write" }];
const READ: AcceptedPermissions = [{ metadata: "read" }];

interface Need {
  readonly scopes: readonly string[];
  readonly permissions: AcceptedPermissions;
}
const MANAGING: Need = { scopes: COLLABORATOR_SCOPES, permissions: MANAGE };
const READING: Need = { scopes: COLLABORATOR_SCOPES, permissions: READ };
/** The invitee's own invitations: a personal matter, no repository permission of a fine-grained token's. */
const OWN: Need = { scopes: INVITE_SCOPES, permissions: [] };

function row<
  const M extends "GET" | "PUT" | "PATCH" | "DELETE",
  const P extends Readonly<Record<string, ParamSpec>>,
  const R extends ResponseKind,
>(method: M, path: string, params: P, need: Need, response: R, docs: string, summary: string) {
  return {
    method,
    path,
    params,
    auth: "required",
    acceptedScopes: need.scopes,
    permissions: need.permissions,
    response,
    resource: docs === COLLABORATORS ? "Repository" : "RepositoryInvitation",
    documentationUrl: `${docs}#${summary.toLowerCase().replaceAll(" ", "-")}`,
    summary,
    tag: "collaborators",
  } as const;
}

export const collaboratorEndpoints = {
  list: row(
    "GET",
    "/repos/:user/:repo/collaborators",
    {
      ...repoPath,
      affiliation: { in: "query", type: "string", description: "`outside`, `direct` or `all` (the default)." },
      permission: { in: "query", type: "string", description: "`pull`, `triage`, `push`, `maintain` or `admin`." },
      ...paging,
    },
    READING,
    "Collaborator[]",
    COLLABORATORS,
    "List repository collaborators",
  ),
  check: row(
    "GET",
    "/repos/:user/:repo/collaborators/:username",
    collaboratorPath,
    READING,
    "empty",
    COLLABORATORS,
    "Check if a user is a repository collaborator",
  ),
  // 201 with the invitation it makes; 204 (no body) when it adds or changes a collaborator at once.
  add: {
    ...row(
      "PUT",
      "/repos/:user/:repo/collaborators/:username",
      { ...collaboratorPath, permission: { in: "body", type: "string", description: "Default `push`." } },
      MANAGING,
      "RepositoryInvitation",
      COLLABORATORS,
      "Add a repository collaborator",
    ),
    creates: true,
  },
  remove: row(
    "DELETE",
    "/repos/:user/:repo/collaborators/:username",
    collaboratorPath,
    MANAGING,
    "empty",
    COLLABORATORS,
    "Remove a repository collaborator",
  ),
  getPermission: row(
    "GET",
    "/repos/:user/:repo/collaborators/:username/permission",
    collaboratorPath,
    READING,
    "RepositoryCollaboratorPermission",
    COLLABORATORS,
    "Get repository permissions for a user",
  ),
  listInvitations: row(
    "GET",
    "/repos/:user/:repo/invitations",
    { ...repoPath, ...paging },
    MANAGING,
    "RepositoryInvitation[]",
    INVITATIONS,
    "List repository invitations",
  ),
  updateInvitation: row(
    "PATCH",
    "/repos/:user/:repo/invitations/:invitation_id",
    {
      ...repoPath,
      ...invitationId,
      permissions: { in: "body", type: "string", description: "`read`, `triage`, `write`, `maintain` or `admin`." },
    },
    MANAGING,
    "RepositoryInvitation",
    INVITATIONS,
    "Update a repository invitation",
  ),
  deleteInvitation: row(
    "DELETE",
    "/repos/:user/:repo/invitations/:invitation_id",
    { ...repoPath, ...invitationId },
    MANAGING,
    "empty",
    INVITATIONS,
    "Delete a repository invitation",
  ),
  listForUser: row(
    "GET",
    "/user/repository_invitations",
    paging,
    OWN,
    "RepositoryInvitation[]",
    INVITATIONS,
    "List repository invitations for the authenticated user",
  ),
  accept: row(
    "PATCH",
    "/user/repository_invitations/:invitation_id",
    invitationId,
    OWN,
    "empty",
    INVITATIONS,
    "Accept a repository invitation",
  ),
  decline: row(
    "DELETE",
    "/user/repository_invitations/:invitation_id",
    invitationId,
    OWN,
    "empty",
    INVITATIONS,
    "Decline a repository invitation",
  ),
} as const;
