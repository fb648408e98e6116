/**
 * GitHub Apps' answers (https://docs.github.com/rest/apps): the app (GitHub's `integration`), an installation, an
 * installation token and an installation's repositories, as ../shared/data/openapi/ has them. No Node-only imports.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Repository, SimpleUser } from "./schemas.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);
const Permissions = Type.Record(Type.String(), Type.String());

export const Integration = Type.Object({
  id: Type.Integer(),
  slug: Type.String(),
  node_id: Type.String(),
  client_id: Type.String(),
  owner: SimpleUser,
  name: Type.String(),
  description: NullableString,
  external_url: Type.String(),
  html_url: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
  permissions: Permissions,
  events: Type.Array(Type.String()),
  installations_count: Type.Integer(),
});
export type Integration = Static<typeof Integration>;

/** `POST /app-manifests/{code}/conversions`: the app made from a manifest, with its secrets and key, shown once. */
export const AppManifestConversion = Type.Intersect([
  Integration,
  Type.Object({
    client_secret: Type.String(),
    webhook_secret: NullableString,
    pem: Type.String(),
  }),
]);
export type AppManifestConversion = Static<typeof AppManifestConversion>;

export const Installation = Type.Object({
  id: Type.Integer(),
  account: SimpleUser,
  repository_selection: Type.Union([Type.Literal("all"), Type.Literal("selected")]),
  access_tokens_url: Type.String(),
  repositories_url: Type.String(),
  html_url: Type.String(),
  app_id: Type.Integer(),
  client_id: Type.String(),
  target_id: Type.Integer(),
  target_type: Type.String(),
  permissions: Permissions,
  events: Type.Array(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
  single_file_name: Type.Null(),
  app_slug: Type.String(),
  suspended_by: Type.Union([SimpleUser, Type.Null()]),
  suspended_at: NullableString,
});
export type Installation = Static<typeof Installation>;

export const InstallationToken = Type.Object({
  token: Type.String(),
  expires_at: Type.String(),
  permissions: Permissions,
  repository_selection: Type.Union([Type.Literal("all"), Type.Literal("selected")]),
  repositories: Type.Optional(Type.Array(Repository)),
});
export type InstallationToken = Static<typeof InstallationToken>;

export const InstallationRepositories = Type.Object({
  total_count: Type.Integer(),
  repository_selection: Type.Union([Type.Literal("all"), Type.Literal("selected")]),
  repositories: Type.Array(Repository),
});
export type InstallationRepositories = Static<typeof InstallationRepositories>;

/** `GET /user/installations`: the installations a user token's app has that its user reaches. */
export const UserInstallations = Type.Object({
  total_count: Type.Integer(),
  installations: Type.Array(Installation),
});
export type UserInstallations = Static<typeof UserInstallations>;
