/**
 * Who may act on the caller's own relations (stars, subscriptions, follows), as GitHub decides: a signed-in caller
 * (else 401); a classic token holding one of the row's scopes, `public_repo` counting on public repositories only
 * (else 404, GitHub's answer to a token that may not know of the resource); a fine-grained token holding the row's
 * account permission (`starring`, `watching`, `followers`: else 403). The repository acted on must be one the caller
 * sees (services/feeds.ts), as every repository resource.
 */
import { grants } from "../../../api/permissions.js";
import { satisfies } from "../../../api/scopes.js";
import { notFound, requiresAuthentication } from "../../errors.js";
import type { RepoRow } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import { grantOf, notAccessibleByToken } from "../fine-grained-access.js";
import type { PrivateReader } from "../../store/store.js";
import { PRIVATE_FEED_SCOPES } from "../../../api/endpoints.js";
import type { ActionAccess } from "./repository-access.js";

/** The caller, once the row's scopes or permissions allow the operation at all. */
export function accountCaller(access: ActionAccess): Principal {
  const { principal } = access;
  if (!principal) throw requiresAuthentication();
  const grant = grantOf(principal);
  if (grant) {
    if (!grants(grant.permissions, access.permissions)) throw notAccessibleByToken(grant);
  } else if (principal.kind === "token" && !satisfies(principal.authorization.scopes, access.acceptedScopes)) {
    throw notFound();
  }
  return principal;
}

/** A private repository needs more of a classic token than `public_repo`: the row's other scopes. */
export function mayActOnRepository(principal: Principal, repo: RepoRow, access: ActionAccess): void {
  if (!repo.private || principal.kind !== "token" || grantOf(principal)) return;
  const fully = access.acceptedScopes.filter((scope) => scope !== "public_repo");
  if (!satisfies(principal.authorization.scopes, fully)) throw notFound();
}

/**
 * Whose private repositories a list of repositories may show: the caller's readable ones, with a password or a
 * classic token holding `repo` (as the private feeds); public ones only to anyone else, fine-grained tokens included.
 */
export function privateReader(principal: Principal | null): PrivateReader {
  if (!principal) return null;
  if (principal.kind === "password") return principal.user.id;
  const { authorization } = principal;
  return authorization.fineGrained === null && satisfies(authorization.scopes, PRIVATE_FEED_SCOPES)
    ? principal.user.id
    : null;
}
