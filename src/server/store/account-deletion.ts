/**
 * The SQL of deleting a login user, shared by both drivers so that they remove the same things: every table
 * that references `users` is named here, once. Parameters are named (`@id`).
 *
 * Relations go: a token must stop working, and follows, watches, memberships and collaborations of an account
 * that no longer logs in would only keep feeding other users' received feeds and widening what it could read if
 * the login were added again. History stays: events and issue events are what happened, other users' feeds show
 * them, repositories carry their events, and issues, comments and milestones their authors. While history names the account, its row stays without
 * credentials (like an actor known only from imported events) instead of taking the events with it.
 */
export const DELETE_AUTHORIZATIONS = "DELETE FROM authorizations WHERE user_id = @id";

export const DELETE_RELATIONS = [
  "DELETE FROM follows WHERE follower_id = @id",
  "DELETE FROM follows WHERE followee_id = @id",
  "DELETE FROM watches WHERE user_id = @id",
  "DELETE FROM subscriptions WHERE user_id = @id",
  "DELETE FROM org_members WHERE user_id = @id",
  "DELETE FROM collaborators WHERE user_id = @id",
  "DELETE FROM repository_invitations WHERE invitee_id = @id OR inviter_id = @id",
  // What an account did to issues that is no record of history: its reactions, and its assignments.
  "DELETE FROM reactions WHERE user_id = @id",
  "DELETE FROM issue_assignees WHERE user_id = @id",
  "DELETE FROM pull_request_reviewers WHERE user_id = @id",
];

/** 1 when stored history names the account. Separate EXISTS, so each uses its own index. */
export const NAMED_BY_HISTORY = `SELECT CASE WHEN
    EXISTS (SELECT 1 FROM events WHERE actor_id = @id)
    OR EXISTS (SELECT 1 FROM events WHERE org_id = @id)
    OR EXISTS (SELECT 1 FROM issue_events WHERE actor_id = @id)
    OR EXISTS (SELECT 1 FROM repos WHERE owner_id = @id)
    OR EXISTS (SELECT 1 FROM issues WHERE user_id = @id)
    OR EXISTS (SELECT 1 FROM issues WHERE closed_by_id = @id)
    OR EXISTS (SELECT 1 FROM issue_comments WHERE user_id = @id)
    OR EXISTS (SELECT 1 FROM milestones WHERE creator_id = @id)
    OR EXISTS (SELECT 1 FROM pull_request_reviews WHERE user_id = @id)
    OR EXISTS (SELECT 1 FROM pull_request_review_comments WHERE user_id = @id)
    OR EXISTS (SELECT 1 FROM commit_comments WHERE user_id = @id)
    OR EXISTS (SELECT 1 FROM pull_requests WHERE merged_by_id = @id)
    OR EXISTS (SELECT 1 FROM releases WHERE author_id = @id)
    OR EXISTS (SELECT 1 FROM release_assets WHERE uploader_id = @id)
  THEN 1 ELSE 0 END AS named`;

/** The row kept for history loses everything that made it a login user; `user add` may claim it again. */
export const STRIP_CREDENTIALS =
  "UPDATE users SET password_hash = NULL, otp_secret = NULL, site_admin = FALSE, suspended_at = NULL WHERE id = @id";

export const DELETE_ROW = "DELETE FROM users WHERE id = @id";
