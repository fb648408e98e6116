/**
 * Collaborators' wire facts: GitHub's five repository roles and their names, and the shapes of a collaborator, a
 * repository invitation and a collaborator's permission, keys in the order GitHub sends them
 * (`../shared/data/openapi/collaborator.schema.json`, `repository-invitation.schema.json`,
 * `repository-collaborator-permission.schema.json` and their examples). No Node-only imports.
 */
import { Type, type Static } from "@sinclair/typebox";
import { ParentRepository, RepositoryPermissions, SimpleUser } from "./schemas.js";

/** A collaborator's permission as `PUT .../collaborators/{u}` takes it, the weakest first. */
export const REPOSITORY_PERMISSIONS = ["pull", "triage", "push", "maintain", "admin"] as const;
export type RepositoryPermission = (typeof REPOSITORY_PERMISSIONS)[number];

export const isRepositoryPermission = (value: unknown): value is RepositoryPermission =>
  (REPOSITORY_PERMISSIONS as readonly unknown[]).includes(value);

/** Whether `held` is at least `needed`. */
export const atLeast = (held: RepositoryPermission, needed: RepositoryPermission): boolean =>
  REPOSITORY_PERMISSIONS.indexOf(held) >= REPOSITORY_PERMISSIONS.indexOf(needed);

/** The role's name (`role_name`, and an invitation's `permissions`): GitHub calls `pull` read and `push` write. */
export const ROLE_NAMES = {
  pull: "read",
  triage: "triage",
  push: "write",
  maintain: "maintain",
  admin: "admin",
} as const satisfies Record<RepositoryPermission, string>;
export type RoleName = (typeof ROLE_NAMES)[RepositoryPermission];

/** The role a name stands for (an invitation's `permissions` as `PATCH .../invitations/{id}` takes it). */
export const permissionNamed = (name: unknown): RepositoryPermission | undefined =>
  REPOSITORY_PERMISSIONS.find((permission) => ROLE_NAMES[permission] === name);

/**
 * The legacy base role (`.../permission`'s `permission`, the `member` webhook's `changes.permission`): `maintain` is
 * write and `triage` read, as GitHub documents.
 */
export const LEGACY_PERMISSIONS = {
  pull: "read",
  triage: "read",
  push: "write",
  maintain: "write",
  admin: "admin",
} as const satisfies Record<RepositoryPermission, string>;

/** The `permissions` switches of a role: each role has those of the roles below it. */
export function permissionSwitches(permission: RepositoryPermission): RepositoryPermissions {
  const has = (needed: RepositoryPermission) => atLeast(permission, needed);
  return { admin: has("admin"), maintain: has("maintain"), push: has("push"), triage: has("triage"), pull: true };
}

/** GitHub's repository invitations expire seven days after they were made. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** Whether an invitation made at `createdAt` has expired by `now`. */
export const expiredAt = (createdAt: Date, now: Date): boolean =>
  now.getTime() - createdAt.getTime() >= INVITATION_LIFETIME_MS;

/** A collaborator as `GET .../collaborators` lists it: a simple user with its permissions and role. */
export const Collaborator = Type.Object({
  ...SimpleUser.properties,
  permissions: RepositoryPermissions,
  role_name: Type.String(),
});
export type Collaborator = Static<typeof Collaborator>;

/** `GET .../collaborators/{u}/permission`: `none` for a user with no access to a private repository. */
export const RepositoryCollaboratorPermission = Type.Object({
  permission: Type.String(),
  role_name: Type.String(),
  user: Collaborator,
});
export type RepositoryCollaboratorPermission = Static<typeof RepositoryCollaboratorPermission>;

export const RepositoryInvitation = Type.Object({
  id: Type.Integer(),
  node_id: Type.String(),
  repository: ParentRepository,
  invitee: SimpleUser,
  inviter: SimpleUser,
  permissions: Type.String(),
  created_at: Type.String(),
  expired: Type.Boolean(),
  url: Type.String(),
  html_url: Type.String(),
});
export type RepositoryInvitation = Static<typeof RepositoryInvitation>;
