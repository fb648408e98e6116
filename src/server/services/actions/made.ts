/**
 * What an action makes, in GitHub's shapes: the Events API event (its envelope as GH Archive records it: actor,
 * repo, org, payload, public, created_at), the issue event, and the webhook body (the payload plus `repository`,
 * `organization` and `sender`, as ../shared/data/webhooks/ has them). Made events are stored complete, with the URLs
 * of the base webhook bodies use, as ingested events keep api.github.com's.
 */
import type {
  IssueEventInsert,
  MadeEvent,
  MadeIssueEvent,
  MadeWebhook,
  RepoRole,
  RepoRow,
  UserRow,
} from "../../store/store.js";
import { toWireSimpleUser } from "../../convert/user.js";
import { avatarOf } from "../../convert/urls.js";
import { isoSeconds } from "../../convert/time.js";
import { parseEvent } from "../event-envelope.js";
import { pushContext, type ContextSources } from "../../webhooks/payload.js";

/** Where an action happens and who does it, read before its transaction (webhook bodies carry them whole). */
export interface ActionScene {
  repo: RepoRow;
  /** The repository's owner, when it is an organization (the event's `org`). */
  org: UserRow | null;
  actor: UserRow;
  /**
   * The actor's role in `repo` as its access was checked (Acting.sceneOf), which the facts the action shows take
   * instead of reading it again; undefined where it was not checked, or where the action may change it.
   */
  actorRole?: RepoRole | null;
  /**
   * `repository` and, for an organization's repository, `organization`, as webhook bodies carry them; null when no
   * active hook would receive the action's webhooks, which are then not made. Empty until `settle` has read it, for
   * a scene that has one.
   */
  context: Record<string, unknown> | null;
  /**
   * Reads `context` in the action's transaction once its work is done: GitHub's bodies count what the action did
   * (`issues.opened` counts the new issue in `open_issues_count`, `star.created` the new star). None for a scene
   * whose context is known before (a repository's own actions, repository-scene.ts).
   */
  settle?: (sources: ContextSources) => Promise<Record<string, unknown>>;
  /** The base of the URLs in what the action makes (the webhooks' base URL). */
  baseUrl: string;
  at: Date;
}

const eventAccount = (account: UserRow, path: "users" | "orgs", baseUrl: string) => ({
  id: account.wireId,
  login: account.login,
  ...(path === "users" ? { display_login: account.login } : {}),
  gravatar_id: "",
  url: `${baseUrl}/${path}/${account.login}`,
  avatar_url: avatarOf(account.login),
});

/** An Events API event of the scene, ready to write. */
export function madeEvent(scene: ActionScene, id: string, type: string, payload: Record<string, unknown>): MadeEvent {
  const { repo, org, actor, baseUrl } = scene;
  const event = {
    id,
    type,
    actor: eventAccount(actor, "users", baseUrl),
    repo: { id: repo.wireId, name: repo.fullName, url: `${baseUrl}/repos/${repo.fullName}` },
    payload,
    public: !repo.private,
    created_at: isoSeconds(scene.at),
    ...(org ? { org: eventAccount(org, "orgs", baseUrl) } : {}),
  };
  const { insert } = parseEvent(event, `action ${type}`, JSON.stringify(event));
  return { ...insert, actorId: actor.id, repoId: repo.id, orgId: org?.id ?? null };
}

/** An issue event of the scene about issue `number`; `issue` is the issue object the repository-wide list shows. */
export function madeIssueEvent(
  scene: ActionScene,
  id: string,
  issue: { number: number; wire: Record<string, unknown> },
  event: string,
  fields: Record<string, unknown> = {},
): MadeIssueEvent {
  const { repo, actor, baseUrl } = scene;
  const body = {
    id,
    node_id: "",
    url: `${baseUrl}/repos/${repo.fullName}/issues/events/${id}`,
    actor: toWireSimpleUser(actor, baseUrl),
    event,
    commit_id: null,
    commit_url: null,
    created_at: isoSeconds(scene.at),
    ...fields,
    performed_via_github_app: null,
    issue: issue.wire,
  };
  const insert: IssueEventInsert = {
    source: `action ${event}`,
    id,
    repoName: repo.fullName,
    actorLogin: actor.login,
    createdAt: scene.at,
    complete: true,
    body: JSON.stringify(body),
  };
  return { ...insert, issueNumber: issue.number, repoId: repo.id, actorId: actor.id };
}

/** A webhook body of the scene: `{action, ...payload, repository, organization, sender}`. */
export function madeWebhook(
  scene: ActionScene,
  event: string,
  action: string | null,
  payload: Record<string, unknown>,
): MadeWebhook {
  const body = {
    ...(action === null ? {} : { action }),
    ...payload,
    ...(event === "push" && scene.context ? pushContext(scene.context, scene.at) : scene.context),
    sender: toWireSimpleUser(scene.actor, scene.baseUrl),
  };
  return { repoId: scene.repo.id, event, action, body: JSON.stringify(body) };
}
