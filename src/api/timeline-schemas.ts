/**
 * An issue's timeline (https://docs.github.com/rest/issues/timeline): its issue events as the issue's own events list
 * shows them, and its comments as `commented` items, each the comment object with `event` and `actor` (GitHub's
 * timeline-issue-events, "Timeline Comment Event"). No Node-only imports.
 */
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { IssueComment } from "./comment-schemas.js";
import { issueEventOfIssueSchema, SimpleUser } from "./schemas.js";

/** A comment as the timeline shows it: `event: "commented"`, and its author again as the `actor`. */
export const TimelineComment = Type.Object({
  ...IssueComment.properties,
  event: Type.Literal("commented"),
  actor: Type.Union([SimpleUser, Type.Null()]),
});
export type TimelineComment = Static<typeof TimelineComment>;

/** A timeline item, its issue events' ids as the server's mode sends them (strings, or `--numeric-ids` integers). */
export const timelineItemSchema = <I extends TSchema>(id: I) =>
  Type.Union([issueEventOfIssueSchema(id), TimelineComment]);
export const TimelineItem = timelineItemSchema(Type.String());
export type TimelineItem = Static<typeof TimelineItem>;
