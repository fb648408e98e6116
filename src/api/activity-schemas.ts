/**
 * The activity family's wire shapes (starring, watching), keys in the order GitHub sends them
 * (`../shared/data/openapi/stargazer.schema.json`, `activity-starring-watching.paths.json`). No Node-only imports.
 */
import { Type, type Static } from "@sinclair/typebox";
import { ParentRepository, SimpleUser } from "./schemas.js";

/** A stargazer as `application/vnd.github.star+json` shows it: when, and who. */
export const Stargazer = Type.Object({ starred_at: Type.String(), user: SimpleUser });
export type Stargazer = Static<typeof Stargazer>;

/** A starred repository as `application/vnd.github.star+json` shows it. */
export const StarredRepository = Type.Object({ starred_at: Type.String(), repo: ParentRepository });
export type StarredRepository = Static<typeof StarredRepository>;

/**
 * `GET`/`PUT /repos/{o}/{r}/subscription`. GitHub's description titles it "Repository Invitation" (a copy slip in its
 * schema); its keys are these. `reason` is always null here: feedgate has no notifications to give a reason for.
 */
export const RepositorySubscription = Type.Object({
  subscribed: Type.Boolean(),
  ignored: Type.Boolean(),
  reason: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  url: Type.String(),
  repository_url: Type.String(),
});
export type RepositorySubscription = Static<typeof RepositorySubscription>;
