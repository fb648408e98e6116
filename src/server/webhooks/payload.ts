/**
 * The body of a delivery, built from what feedgate stores: the event's payload as GitHub's Events API recorded it,
 * plus the `repository`, `organization` (for an organization's repository) and `sender` objects every webhook
 * carries. What an event never recorded is left out rather than invented (../shared/data/webhooks/headers.md);
 * only what follows from the event itself is filled in: a push's `after` is its `head`, a commit comment's
 * action is "created" (the only one its webhook has).
 */
import { installationNodeId, toWireInstallation } from "../convert/app.js";
import { toWireRepository } from "../convert/repository.js";
import { legacyNodeId } from "../convert/node-ids.js";
import { toWireOrganization, toWireSimpleUser } from "../convert/user.js";
import type { RepoRow, Store, UserRow } from "../store/store.js";

/** GitHub's organization-simple, the `organization` of a webhook: these keys of organization-full. */
const ORGANIZATION_SIMPLE_KEYS = [
  "login",
  "id",
  "node_id",
  "url",
  "repos_url",
  "events_url",
  "hooks_url",
  "issues_url",
  "members_url",
  "public_members_url",
  "avatar_url",
  "description",
] as const;

/** GitHub's `zen` phrases: the ping's `zen` is one of them. */
const ZEN = [
  "Non-blocking is better than blocking.",
  "Design for failure.",
  "Half measures are as bad as nothing at all.",
  "Favor focus over features.",
  "Approachable is better than simple.",
  "Mind your words, they are important.",
  "Speak like a human.",
  "Keep it logically awesome.",
  "Anything added dilutes everything else.",
  "Practicality beats purity.",
  "Avoid administrative distraction.",
  "Encourage flow.",
  "Responsive is better than fast.",
  "It's not fully shipped until it's fast.",
];

export interface BuiltPayload {
  body: string;
  action: string | null;
  /** The body's `repository.id` (GitHub's delivery `repository_id`), known as it is built. */
  repositoryId: number | null;
}

/** Objects a body carries besides the payload, with their JSON, which bodies splice in (the repository is most of a body). */
interface Part {
  objects: Record<string, unknown>;
  /** `JSON.stringify(objects)`. */
  json: string;
}

const part = (objects: Record<string, unknown>): Part => ({ objects, json: JSON.stringify(objects) });

/**
 * A payload to an app's hook, with the installation it is for (`installation: {id, node_id}`, last, as GitHub's
 * deliveries to apps have it). Spliced into the text, so the rest of the bytes stay exactly as they were made.
 */
export function withInstallation(body: string, installationId: number): string {
  const object = body.trimEnd();
  if (!object.endsWith("}")) return body;
  const installation = `"installation":${JSON.stringify({ id: installationId, node_id: installationNodeId(installationId) })}`;
  const empty = /^\{\s*\}$/.test(object);
  return `${object.slice(0, -1)}${empty ? "" : ","}${installation}}`;
}

/**
 * For the deliveries a dispatcher sends to one hook in one go: each repository's `context()` and each actor's `sender`
 * are read (and turned into JSON) once for all of them (as they are when the first is built, every event already stored).
 */
export class ContextCache {
  readonly repos = new Map<number, Promise<Part>>();
  /** The same in a push's shape (pushContext). */
  readonly pushRepos = new Map<number, Promise<Part>>();
  readonly senders = new Map<number, Promise<Part>>();
}

const EMPTY = part({});

/** The keys a body takes from elsewhere than the event's payload: a payload naming one of them is merged as objects. */
const ADDED_KEYS = ["repository", "organization", "sender"];

/** `{...a, ...b, ...}` as JSON, from each object's JSON, when no key is in two of them. */
function joinedJson(parts: string[]): string {
  const inner = parts.filter((p) => p !== "{}").map((p) => p.slice(1, -1));
  return `{${inner.join(",")}}`;
}

/**
 * A repository as the `installation` and `installation_repositories` payloads list it: what its wire object says of
 * these, without the counts it would read for the rest.
 */
export function installationRepository(repo: RepoRow) {
  const name = repo.fullName.slice(repo.fullName.indexOf("/") + 1);
  return {
    id: repo.wireId,
    node_id: legacyNodeId("Repository", repo.wireId),
    name,
    full_name: repo.fullName,
    private: repo.private,
  };
}

/**
 * The `repository` and `organization` of a `push` webhook, from those every other webhook carries: GitHub's push
 * payload keeps the repository's older shape (../shared/data/webhooks/examples/push.json and the push schema):
 * `created_at` and `pushed_at` in epoch seconds, `stargazers` and `master_branch` beside their newer names,
 * `custom_properties`, and the organization's login as the repository's `organization` (its object stays at the top).
 * `pushedAt`: the push's own time, for a push whose context was read before it was made.
 */
export function pushContext(context: Record<string, unknown>, pushedAt?: Date): Record<string, unknown> {
  const repository = context.repository as Record<string, unknown> | undefined;
  if (!repository) return context;
  const seconds = (value: unknown) => (typeof value === "string" ? Math.floor(Date.parse(value) / 1000) : value);
  const organization = context.organization as { login?: string } | undefined;
  const { organization: _object, ...rest } = repository;
  return {
    ...context,
    repository: {
      ...rest,
      created_at: seconds(repository.created_at),
      pushed_at: pushedAt === undefined ? seconds(repository.pushed_at) : Math.floor(pushedAt.getTime() / 1000),
      stargazers: repository.stargazers_count,
      master_branch: repository.default_branch,
      custom_properties: {},
      ...(organization?.login === undefined ? {} : { organization: organization.login }),
    },
  };
}

/** What a webhook body's `repository` and `organization` are read from: the store, or an action's transaction. */
export type ContextSources = Pick<Store, "directory" | "users">;

export class PayloadBuilder {
  constructor(private readonly store: Store) {}

  /** Read through the store, or through an action's transaction (`sources`) for what the action makes. */
  async organization(
    org: UserRow,
    baseUrl: string,
    sources: ContextSources = this.store,
  ): Promise<Record<string, unknown>> {
    const full = toWireOrganization(org, await sources.directory.accountCounts(org.id), baseUrl) as Record<
      string,
      unknown
    >;
    return Object.fromEntries(ORGANIZATION_SIMPLE_KEYS.map((key) => [key, full[key]]));
  }

  /** `repository` and, when an organization owns it, `organization`. */
  async context(
    repoId: number,
    baseUrl: string,
    sources: ContextSources = this.store,
    /** The repository's owner as the caller read it already: not read again while the repository still has it. */
    knownOwner?: UserRow | null,
  ): Promise<Record<string, unknown>> {
    const found = await sources.directory.repoWithStats(repoId);
    if (!found) return {};
    const { repo, stats } = found;
    // One after another: in a transaction the reads share one connection.
    const owner = knownOwner?.id === repo.ownerId ? knownOwner : await sources.users.findById(repo.ownerId);
    const repository = toWireRepository({ repo, owner: owner!, stats }, {}, baseUrl);
    return owner!.type === "Organization"
      ? { repository, organization: await this.organization(owner!, baseUrl, sources) }
      : { repository };
  }

  /** The delivery of a stored event; null when the event is gone (nothing to announce). */
  async forEvent(eventId: string, baseUrl: string, contexts = new ContextCache()): Promise<BuiltPayload | null> {
    const source = await this.store.hooks.eventSource(eventId);
    if (!source) return null;
    const event = JSON.parse(source.body) as { type: string; payload?: Record<string, unknown> };
    const payload: Record<string, unknown> = { ...event.payload };
    if (event.type === "PushEvent" && payload.after === undefined && typeof payload.head === "string")
      payload.after = payload.head;
    if (event.type === "CommitCommentEvent" && payload.action === undefined) payload.action = "created";
    let sender = contexts.senders.get(source.actorId);
    if (!sender) {
      contexts.senders.set(
        source.actorId,
        (sender = this.store.users
          .findById(source.actorId)
          .then((actor) => part(actor ? { sender: toWireSimpleUser(actor, baseUrl) } : {}))),
      );
    }
    let context = EMPTY;
    if (source.repoId !== null) {
      const push = event.type === "PushEvent";
      const cache = push ? contexts.pushRepos : contexts.repos;
      let cached = cache.get(source.repoId);
      if (!cached) {
        const built = this.context(source.repoId, baseUrl);
        cache.set(source.repoId, (cached = (push ? built.then((context) => pushContext(context)) : built).then(part)));
      }
      context = await cached;
    }
    const { objects: senderObjects, json: senderJson } = await sender;
    // The body is `{...payload, ...context, sender}`. Its JSON is made from the parts' JSON, the context's made once per
    // run, unless the payload has a key of its own that the others replace (it would keep its place in the object).
    const body = ADDED_KEYS.some((key) => Object.hasOwn(payload, key))
      ? JSON.stringify({ ...payload, ...context.objects, ...senderObjects })
      : joinedJson([JSON.stringify(payload), context.json, senderJson]);
    const id = (
      (Object.hasOwn(context.objects, "repository") ? context.objects : payload) as { repository?: { id?: unknown } }
    ).repository?.id;
    return {
      body,
      action: typeof payload.action === "string" ? payload.action : null,
      repositoryId: typeof id === "number" ? id : null,
    };
  }

  /**
   * GitHub's `installation` webhook to an app (`created`): the installation, the repositories it covers (`id`,
   * `node_id`, `name`, `full_name`, `private`), no requester, and as sender the account installed on (the app's
   * owner for an organization: feedgate records no installing user). Null when the installation is gone.
   */
  async forInstallation(installationId: number, action: string, baseUrl: string): Promise<BuiltPayload | null> {
    const installation = await this.store.apps.installation(installationId);
    const app = installation && (await this.store.apps.byId(installation.appId));
    const account = installation && (await this.store.users.findById(installation.accountId));
    if (!installation || !app || !account) return null;
    const ids =
      installation.repositorySelection === "all"
        ? await this.store.apps.repositoryIdsOf(account.id)
        : installation.repositoryIds;
    const repositories = [];
    for (const id of ids) {
      const repo = await this.store.directory.findRepoById(id);
      if (repo) repositories.push(installationRepository(repo));
    }
    const sender = account.type === "Organization" ? await this.store.users.findById(app.ownerId) : account;
    const body = JSON.stringify({
      action,
      installation: toWireInstallation({ installation, app, account }, baseUrl),
      repositories,
      requester: null,
      sender: sender ? toWireSimpleUser(sender, baseUrl) : null,
    });
    return { body, action, repositoryId: null };
  }

  /** GitHub's `ping`: a zen phrase, the hook, where it lives, and who asked. */
  async ping(
    hookId: number,
    hook: object,
    where: Record<string, unknown>,
    sender: UserRow,
    baseUrl: string,
  ): Promise<string> {
    const zen = ZEN[Math.floor(Math.random() * ZEN.length)];
    return JSON.stringify({ zen, hook_id: hookId, hook, ...where, sender: toWireSimpleUser(sender, baseUrl) });
  }
}
