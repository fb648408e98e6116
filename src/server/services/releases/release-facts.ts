/**
 * What a release is shown with, read in one go for a page: its author, its assets and their uploaders; and who sees a
 * repository's drafts (GitHub: "Only users with push access will receive listings for draft releases").
 */
import { atLeast } from "../../../api/collaborator-schemas.js";
import type { AcceptedPermissions } from "../../../api/permissions.js";
import type { ReleaseFacts } from "../../convert/release.js";
import type { ReleaseRow, ReleaseStore, RepoRow, Store, UserRow, UserStore } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import { grantOf, readsPrivateOf } from "../fine-grained-access.js";

const CONTENTS_WRITE: AcceptedPermissions = [{ contents: "write" }];

/** The stores a release's facts are read from: the store's, or an action's transaction's. */
interface Readers {
  releases: ReleaseStore;
  users: UserStore;
}

export async function releaseFacts(store: Readers, releases: readonly ReleaseRow[]): Promise<ReleaseFacts[]> {
  const assets = await store.releases.assetsOf(releases.map((r) => r.id));
  const accounts = new Map<number, UserRow | null>();
  const account = async (id: number | null) => {
    if (id === null) return null;
    if (!accounts.has(id)) accounts.set(id, await store.users.findById(id));
    return accounts.get(id) ?? null;
  };
  const facts: ReleaseFacts[] = [];
  for (const release of releases) {
    const listed = [];
    for (const asset of assets.get(release.id) ?? []) listed.push({ asset, uploader: await account(asset.uploaderId) });
    facts.push({ release, author: await account(release.authorId), assets: listed });
  }
  return facts;
}

/**
 * Whether the caller pushes to the repository: its role there (or a site administrator), and for a fine-grained token
 * or an app, a grant of the repository's Contents with write, as the writes themselves need.
 */
export async function seesDrafts(store: Store, repo: RepoRow, principal: Principal | null): Promise<boolean> {
  if (!principal) return false;
  const grant = grantOf(principal);
  if (grant && !readsPrivateOf(grant, repo, CONTENTS_WRITE)) return false;
  if (principal.user.siteAdmin) return true;
  const held = await store.directory.repoAccess(principal.user.id, repo.id);
  return held !== null && atLeast(held.permission, "push");
}
