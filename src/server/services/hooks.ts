/**
 * The rules of GitHub's repository and organization hooks API: who may see and change a hook, what a create or an
 * update may say (./hook-input.ts), and the deliveries a ping, a test or a redelivery queues. No Fastify and no SQL;
 * anything the caller may not see is 404, as for private feeds (wire notes 3.1).
 */
import { satisfies } from "../../api/scopes.js";
import type { AcceptedPermissions } from "../../api/permissions.js";
import { checkOrganization, checkRepository, grantOf } from "./fine-grained-access.js";
import type { endpoints } from "../../api/endpoints.js";
import type { RequestOf } from "../../api/schemas.js";
import { notFound } from "../errors.js";
import { InvalidInputError } from "../failures.js";
import type { DeliveryRow, HookChanges, HookOwner, HookRow, RedeliveryScope } from "../store/hook-store.js";
import { durationMs } from "../clock.js";
import type { Page, PageRequest, Store, UserRow } from "../store/store.js";
import type { Principal } from "./authenticator.js";
import { changedConfig, DEFAULT_EVENTS, validConfig, validEvents, type ConfigInput } from "./hook-input.js";
import { parseId } from "./input-checks.js";

/**
 * What queues the deliveries the API asks for, their bodies made at once (the dispatcher's module implements it):
 * a `ping`, the repository's latest `push` (none when it has none), or an attempt made again.
 */
export interface DeliveryQueue {
  ping(hook: HookRow, sender: UserRow): Promise<void>;
  testPush(hook: HookRow, sender: UserRow): Promise<void>;
  redeliver(hook: HookRow, delivery: DeliveryRow): Promise<void>;
  /** Deliveries were queued by other means (a bulk redelivery): send them now. */
  wake(): void;
}

/** What stores a secret: webhooks/secret-box.ts's SecretBox, which seals it so that the database alone cannot read it. */
export interface SecretSealer {
  seal(secret: string): string;
}

/** The path parameters naming a hook's owner: `user` and `repo`, or `org`. */
export interface HookOwnerParams {
  user?: string;
  repo?: string;
  org?: string;
}

/** A hook's path parameters: its owner's and its id. */
export interface HookPath extends HookOwnerParams {
  hook_id: string;
}

export interface DeliveryPath extends HookPath {
  delivery_id: string;
}

/** Who is asking, and what the operation's table row accepts from a token: scopes (classic), permissions (fine-grained). */
export interface HookAccess {
  principal: Principal | null;
  acceptedScopes: readonly string[];
  permissions: AcceptedPermissions;
}

/** A hooks owner the caller may manage: the store's key, and its API path (`repos/:owner/:repo`, `orgs/:org`). */
export interface HookScope {
  owner: HookOwner;
  path: string;
}

export type CreateHookInput = RequestOf<typeof endpoints.hooks.create, "body">;
export type UpdateHookInput = RequestOf<typeof endpoints.hooks.update, "body">;
export type UpdateConfigInput = RequestOf<typeof endpoints.hooks.updateConfig, "body">;

/** A page of deliveries, newest first, and the cursor of the next one (GitHub's `v1_` form), null on the last. */
export interface DeliveryPage {
  rows: DeliveryRow[];
  next: string | null;
}

/** What a bulk redelivery queued, and from when. */
export interface Redelivered {
  queued: number;
  hooks: number;
  since: Date;
}

/** `2h` back from now, or an ISO 8601 time with its zone, not in the future: where a bulk redelivery's window starts. */
export function windowStart(since: string, now: Date): Date {
  const back = durationMs(since);
  if (back !== null) {
    if (back <= 0)
      throw new InvalidInputError(`since must be a duration longer than 0, got ${JSON.stringify(since.slice(0, 40))}`, {
        field: "since",
      });
    return new Date(now.getTime() - back);
  }
  const at = /^\d{4}-\d{2}-\d{2}T[0-9:.]+(Z|[+-]\d{2}:\d{2})$/.test(since) ? new Date(since) : null;
  if (!at || Number.isNaN(at.getTime())) {
    throw new InvalidInputError(
      `since must be a duration such as 30m, 2h or 7d, or an ISO 8601 time with a zone, got ` +
        `${JSON.stringify(since.slice(0, 40))}`,
      { field: "since" },
    );
  }
  if (at > now)
    throw new InvalidInputError(`since is in the future (${at.toISOString()}): nothing failed after it yet`, {
      field: "since",
    });
  return at;
}

/** GitHub's delivery cursors: `v1_` and the id the next page starts below. */
const CURSOR_PREFIX = "v1_";

/** Only hooks named `web` exist on GitHub since services were retired; any other name is its 422. */
const HOOK_NAME = "web";

/** What the hooks API stores, seals and queues with. */
/** A page of a hook's attempts, newest first, from GitHub's cursor (`v1_` and an id; the route's schema checked it). */
export async function deliveryPage(
  store: Store,
  hook: HookRow,
  limit: number,
  cursor: string | undefined,
): Promise<DeliveryPage> {
  const before = cursor === undefined ? null : Number(cursor.slice(CURSOR_PREFIX.length));
  const rows = await store.hooks.deliveries(hook.id, limit + 1, before);
  const page = rows.slice(0, limit);
  return { rows: page, next: rows.length > limit ? `${CURSOR_PREFIX}${page[page.length - 1]!.id}` : null };
}

/** One attempt of the hook's, by the id in the path; 404 when the hook has none of that id. */
export async function deliveryOf(store: Store, hook: HookRow, id: string): Promise<DeliveryRow> {
  const delivery = await store.hooks.delivery(hook.id, parseId(id));
  if (!delivery) throw notFound();
  return delivery;
}

export interface HookServiceParts {
  store: Store;
  clock: () => Date;
  secrets: SecretSealer;
  deliveries: DeliveryQueue;
}

export class HookService {
  private readonly store: Store;
  private readonly clock: () => Date;
  private readonly secrets: SecretSealer;
  private readonly deliveries: DeliveryQueue;

  constructor(parts: HookServiceParts) {
    ({ store: this.store, clock: this.clock, secrets: this.secrets, deliveries: this.deliveries } = parts);
  }

  /**
   * The hooks owner the request names, when the caller may manage its hooks: a password, or a token holding one of
   * the row's scopes (`public_repo` counts for public repositories only); and the repository's owner, a member of
   * the organization that owns it (for an organization: an owner, as on GitHub), or a site administrator. Anything
   * else is 404, a plain member's request included. A fine-grained token must also be the owner's, cover the
   * repository and hold the row's permission (fine-grained-access.ts: 403 where the caller could otherwise act).
   */
  async scope(params: HookOwnerParams, access: HookAccess): Promise<HookScope> {
    const { principal, acceptedScopes, permissions } = access;
    const grant = grantOf(principal);
    const granted = principal?.kind === "token" && !grant ? principal.authorization.scopes : null;
    if (!principal || (granted && !satisfies(granted, acceptedScopes))) throw notFound();
    const user = principal.user;
    if (params.org !== undefined) {
      const org = await this.store.users.findByLogin(params.org);
      if (org?.type !== "Organization") throw notFound();
      if (!user.siteAdmin && (await this.store.directory.orgRole(org.id, user.id)) !== "admin") throw notFound();
      if (grant) checkOrganization(grant, org.id, permissions);
      return { owner: { kind: "org", orgId: org.id }, path: `orgs/${org.login}` };
    }
    const repo = params.user && params.repo ? await this.store.directory.findRepo(params.user, params.repo) : null;
    if (!repo) throw notFound();
    const publicOnly =
      granted !== null &&
      !satisfies(
        granted,
        acceptedScopes.filter((scope) => scope !== "public_repo"),
      );
    if (publicOnly && repo.private) throw notFound();
    // Hooks are the administrators' (GitHub: admin access to the repository): its owner, its organization's owners, an
    // admin collaborator. A collaborator with less may push, but not see its hooks.
    const held = user.siteAdmin ? null : await this.store.directory.repoAccess(user.id, repo.id);
    if (!user.siteAdmin && held?.permission !== "admin") throw notFound();
    if (grant) checkRepository(grant, repo, permissions);
    return { owner: { kind: "repo", repoId: repo.id }, path: `repos/${repo.fullName}` };
  }

  async list(
    params: HookOwnerParams,
    access: HookAccess,
    page: PageRequest,
  ): Promise<{ scope: HookScope; page: Page<HookRow> }> {
    const scope = await this.scope(params, access);
    return { scope, page: await this.store.hooks.list(scope.owner, page) };
  }

  async get(path: HookPath, access: HookAccess): Promise<{ scope: HookScope; hook: HookRow }> {
    const scope = await this.scope(path, access);
    const hook = await this.store.hooks.find(scope.owner, parseId(path.hook_id));
    if (!hook) throw notFound();
    return { scope, hook };
  }

  /** Creates the hook and, when it is active, pings it, as GitHub does. */
  async create(
    params: HookOwnerParams,
    input: CreateHookInput,
    access: HookAccess,
  ): Promise<{ scope: HookScope; hook: HookRow }> {
    const scope = await this.scope(params, access);
    if (input.name !== undefined && input.name !== HOOK_NAME) {
      throw new InvalidInputError(`name must be "${HOOK_NAME}", got ${JSON.stringify(input.name)}`, { field: "name" });
    }
    const hook = await this.store.hooks.create(
      {
        owner: scope.owner,
        name: HOOK_NAME,
        active: input.active ?? true,
        events: validEvents(input.events ?? DEFAULT_EVENTS),
        config: this.config(input.config),
      },
      this.clock(),
    );
    if (hook.active) await this.deliveries.ping(hook, access.principal!.user);
    return { scope, hook };
  }

  /** `events` replaces the list, then `add_events` and `remove_events` change it; `config` replaces the config. */
  async update(path: HookPath, input: UpdateHookInput, access: HookAccess) {
    const { scope, hook } = await this.get(path, access);
    const changes: HookChanges = {};
    if (input.events || input.add_events || input.remove_events) {
      const removed = new Set(validEvents(input.remove_events ?? [], "remove_events"));
      const events = [
        ...validEvents(input.events ?? hook.events),
        ...validEvents(input.add_events ?? [], "add_events"),
      ];
      changes.events = [...new Set(events)].filter((name) => !removed.has(name));
    }
    if (input.config !== undefined) changes.config = this.config(input.config);
    if (input.active !== undefined) changes.active = input.active;
    return { scope, hook: await this.changed(scope, hook, changes) };
  }

  /** Changes only the config keys given (`PATCH .../config`). */
  async updateConfig(path: HookPath, input: UpdateConfigInput, access: HookAccess): Promise<HookRow> {
    const { scope, hook } = await this.get(path, access);
    const config = changedConfig(hook.config, input, (secret) => this.secrets.seal(secret));
    return this.changed(scope, hook, { config });
  }

  async delete(path: HookPath, access: HookAccess): Promise<void> {
    const scope = await this.scope(path, access);
    if (!(await this.store.hooks.delete(scope.owner, parseId(path.hook_id)))) throw notFound();
  }

  async ping(path: HookPath, access: HookAccess): Promise<void> {
    const { hook } = await this.get(path, access);
    await this.deliveries.ping(hook, access.principal!.user);
  }

  async test(path: HookPath, access: HookAccess): Promise<void> {
    const { hook } = await this.get(path, access);
    await this.deliveries.testPush(hook, access.principal!.user);
  }

  /** The hook's attempts, newest first, `limit` a page, from the cursor on. */
  /** The newest deliveries of a hook the caller already holds through list() or get(): no access check again. */
  recentDeliveries(hook: HookRow, limit: number): Promise<DeliveryRow[]> {
    return this.store.hooks.deliveries(hook.id, limit, null);
  }

  async listDeliveries(
    path: HookPath,
    access: HookAccess,
    limit: number,
    cursor: string | undefined,
  ): Promise<DeliveryPage> {
    const { hook } = await this.get(path, access);
    return deliveryPage(this.store, hook, limit, cursor);
  }

  async delivery(path: DeliveryPath, access: HookAccess): Promise<{ hook: HookRow; delivery: DeliveryRow }> {
    const { hook } = await this.get(path, access);
    return { hook, delivery: await deliveryOf(this.store, hook, path.delivery_id) };
  }

  async redeliver(path: DeliveryPath, access: HookAccess): Promise<void> {
    const { hook, delivery } = await this.delivery(path, access);
    await this.deliveries.redeliver(hook, delivery);
  }

  /**
   * Queues again every failed delivery of the owner's hooks since `since` (a duration back from now, or an ISO time),
   * each once (store/hook-store.ts redeliverFailed says which). A window with none in it is a 422 that changes nothing.
   */
  async redeliverFailed(params: HookOwnerParams, since: string, access: HookAccess): Promise<Redelivered> {
    const { owner } = await this.scope(params, access);
    return this.redeliverIn(owner, since);
  }

  /** The same for every hook on the server: site administrators only (a password, or a token with `site_admin`). */
  async redeliverAllFailed(since: string, principal: Principal | null): Promise<Redelivered> {
    const admin =
      principal?.user.siteAdmin &&
      (principal.kind === "password" || principal.authorization.scopes.includes("site_admin"));
    if (!admin) throw notFound();
    return this.redeliverIn({ kind: "all" }, since);
  }

  private async redeliverIn(scope: RedeliveryScope, since: string): Promise<Redelivered> {
    const now = this.clock();
    const start = windowStart(since, now);
    const count = await this.store.hooks.redeliverFailed(scope, start, now);
    if (count.queued === 0) {
      throw new InvalidInputError(
        `no failed delivery to redeliver since ${start.toISOString()}: nothing was queued ` +
          "(deliveries that later succeeded, or are queued already, are not queued again)",
        { field: "since" },
      );
    }
    this.deliveries.wake();
    return { queued: count.queued, hooks: count.hooks, since: start };
  }

  private config(input: ConfigInput | undefined) {
    return validConfig(input, (secret) => this.secrets.seal(secret));
  }

  private async changed(scope: HookScope, hook: HookRow, changes: HookChanges): Promise<HookRow> {
    const updated = await this.store.hooks.update(scope.owner, hook.id, changes, this.clock());
    if (!updated) throw notFound(); // deleted between the read and the write
    return updated;
  }
}
