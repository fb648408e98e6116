/**
 * The schema migrations, in the order they apply: one file per migration (`NNN-what.ts`, see migration.ts), each
 * frozen once released. A change to the schema is a new file, `NNN-what.ts` with the next id, added at the end here
 * and its checksums to tests/unit/store/migrations-frozen.test.ts.
 */
import { migration as m001 } from "./001-users-and-authorizations.js";
import { migration as m002 } from "./002-accounts-repositories-events.js";
import { migration as m003 } from "./003-ingest-generation.js";
import { migration as m004 } from "./004-event-bodies-lz4.js";
import { migration as m005 } from "./005-suspended-accounts.js";
import { migration as m006 } from "./006-versions-of-what-requests-remember.js";
import { migration as m007 } from "./007-ingest-log.js";
import { migration as m008 } from "./008-webhooks.js";
import { migration as m009 } from "./009-arrival-order-and-notifications.js";
import { migration as m010 } from "./010-count-indexes.js";
import { migration as m011 } from "./011-console-sessions.js";
import { migration as m012 } from "./012-session-deletes-raise-credentials.js";
import { migration as m013 } from "./013-authorizations-expire.js";
import { migration as m014 } from "./014-organization-roles.js";
import { migration as m015 } from "./015-fine-grained-tokens.js";
import { migration as m016 } from "./016-retention.js";
import { migration as m017 } from "./017-webhook-operations.js";
import { migration as m018 } from "./018-postgres-feed-indexes-covering-visibility.js";
import { migration as m019 } from "./019-received-number-for-everyone.js";
import { migration as m020 } from "./020-postgres-statement-triggers.js";
import { migration as m021 } from "./021-sqlite-feed-indexes-covering-visibility.js";
import { migration as m022 } from "./022-account-profiles.js";
import { migration as m023 } from "./023-issues.js";
import { migration as m024 } from "./024-stars-and-subscriptions.js";
import { migration as m025 } from "./025-collaborator-invitations.js";
import { migration as m026 } from "./026-repository-settings.js";
import { migration as m027 } from "./027-oauth-apps.js";
import { migration as m028 } from "./028-github-apps.js";
import { migration as m029 } from "./029-app-webhooks.js";
import { migration as m030 } from "./030-app-user-tokens.js";
import { migration as m031 } from "./031-app-manifests.js";
import { migration as m032 } from "./032-git-objects.js";
import { migration as m033 } from "./033-pull-requests.js";
import { migration as m034 } from "./034-statuses-and-checks.js";
import { migration as m035 } from "./035-releases.js";
import { migration as m036 } from "./036-review-comments.js";
import { migration as m037 } from "./037-commit-comments.js";
import { migration as m038 } from "./038-branch-protection.js";
import { migration as m039 } from "./039-check-suites-on-push.js";
import { migration as m040 } from "./040-pushes-by-repository.js";
import { migration as m041 } from "./041-hooks-number.js";
import type { Migration } from "./migration.js";

export type { Migration } from "./migration.js";
export { CHANGES_CHANNEL } from "./009-arrival-order-and-notifications.js";

export const migrations: readonly Migration[] = [
  m001,
  m002,
  m003,
  m004,
  m005,
  m006,
  m007,
  m008,
  m009,
  m010,
  m011,
  m012,
  m013,
  m014,
  m015,
  m016,
  m017,
  m018,
  m019,
  m020,
  m021,
  m022,
  m023,
  m024,
  m025,
  m026,
  m027,
  m028,
  m029,
  m030,
  m031,
  m032,
  m033,
  m034,
  m035,
  m036,
  m037,
  m038,
  m039,
  m040,
  m041,
];
