/** The release services (releases and their assets), made from the action log's parts over one RepositoryCode. */
import type { ActionParts } from "../actions/acting.js";
import { RepositoryCode } from "../git/repository-code.js";
import { ReleaseAssetService } from "./release-assets.js";
import { ReleaseService } from "./releases.js";

export interface ReleaseServices {
  releases: ReleaseService;
  assets: ReleaseAssetService;
}

export function releaseServices(parts: ActionParts): ReleaseServices {
  const releases = new ReleaseService(parts, new RepositoryCode(parts.store, parts.feeds, parts.clock));
  return { releases, assets: new ReleaseAssetService(parts, releases) };
}
