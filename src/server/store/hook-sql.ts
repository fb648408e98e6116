/**
 * The webhooks' SQL, shared by both drivers (`@name` parameters; PostgreSQL's driver numbers them), and the
 * mapping of their rows, whose column types differ by driver (text or jsonb, text or timestamptz, 0/1 or boolean).
 */
import type {
  DeliveryAttempt,
  DeliveryRow,
  HookChanges,
  HookConfig,
  HookOwner,
  HookRow,
  NewHook,
  NewQueuedDelivery,
  QueuedDelivery,
  RedeliveryScope,
} from "./hook-store.js";
import { date, json, type Bool, type Json } from "./sql-values.js";
import type { Executor } from "./executor.js";
import { unpackBody } from "./delivery-bodies.js";

/** The owner's column and value: every statement on one hook names its owner, so another owner's id is not found. */
export type OwnerColumn = "repo_id" | "org_id" | "app_id";

export function ownerWhere(owner: HookOwner): { column: OwnerColumn; value: number } {
  switch (owner.kind) {
    case "repo":
      return { column: "repo_id", value: owner.repoId };
    case "org":
      return { column: "org_id", value: owner.orgId };
    case "app":
      return { column: "app_id", value: owner.appId };
  }
}

export const HOOK_SQL = {
  insert: `INSERT INTO hooks (repo_id, org_id, app_id, name, active, events, url, content_type, insecure_ssl, secret,
      created_at, updated_at)
    VALUES (@repo, @org, @app, @name, @active, @events, @url, @contentType, @insecureSsl, @secret, @now, @now) RETURNING *`,
  find: (column: string) => `SELECT * FROM hooks WHERE ${column} = @owner AND id = @id`,
  get: "SELECT * FROM hooks WHERE id = @id",
  page: (column: string) => `SELECT * FROM hooks WHERE ${column} = @owner ORDER BY id LIMIT @limit OFFSET @offset`,
  count: (column: string) => `SELECT count(*) AS n FROM hooks WHERE ${column} = @owner`,
  // A hook made active again starts afresh: its failing streak and the record of its disabling end.
  update: (
    column: string,
  ) => `UPDATE hooks SET active = @active, events = @events, url = @url, content_type = @contentType,
    insecure_ssl = @insecureSsl, secret = @secret, updated_at = @now,
    failing_since = CASE WHEN @reactivated THEN NULL ELSE failing_since END,
    disabled_at = CASE WHEN @reactivated THEN NULL ELSE disabled_at END,
    disabled_reason = CASE WHEN @reactivated THEN NULL ELSE disabled_reason END
    WHERE ${column} = @owner AND id = @id RETURNING *`,
  // Its queue and its record go with it: both reference hooks ON DELETE CASCADE (migration 8).
  delete: (column: string) => `DELETE FROM hooks WHERE ${column} = @owner AND id = @id`,
  sealedSecrets: "SELECT id, secret FROM hooks WHERE secret IS NOT NULL AND id > @after ORDER BY id LIMIT @limit",
  reseal: "UPDATE hooks SET secret = @to WHERE id = @id AND secret = @from",

  enqueue: `INSERT INTO hook_queue (hook_id, guid, event, action, event_id, body, redelivery, next_attempt_at, created_at,
      installation_id)
    VALUES (@hookId, @guid, @event, @action, @eventId, @body, @redelivery, @due, @now, @installationId)`,
  /**
   * The head of each active hook's queue, when it is due and nobody holds it: one index read per hook, however long
   * its queue (an import can queue thousands). A later delivery of the same hook waits for its head.
   */
  heads: `SELECT q.* FROM hooks h JOIN hook_queue q ON q.id = (SELECT min(id) FROM hook_queue WHERE hook_id = h.id)
    WHERE h.active = @active AND q.next_attempt_at <= @now AND (q.claimed_until IS NULL OR q.claimed_until < @now)
    ORDER BY q.next_attempt_at LIMIT @limit`,
  /** The deliveries queued behind a claimed head, in order (claim's `perHook`); due and unclaimed ones are kept. */
  behind: "SELECT * FROM hook_queue WHERE hook_id = @hookId AND id > @after ORDER BY id LIMIT @limit",
  lease: "UPDATE hook_queue SET claimed_until = @until WHERE id = @id",
  /** Leases a hook's claimed run: the ids from its head to its last, which claim takes with nothing between. */
  leaseRun: "UPDATE hook_queue SET claimed_until = @until WHERE hook_id = @hookId AND id BETWEEN @first AND @last",
  release: "UPDATE hook_queue SET claimed_until = NULL WHERE id = @id",
  postpone: "UPDATE hook_queue SET claimed_until = NULL, next_attempt_at = @due WHERE id = @id",
  retry: `UPDATE hook_queue SET attempts = attempts + 1, next_attempt_at = @due, claimed_until = NULL, body = @body, action = @action
    WHERE id = @id`,
  dequeue: "DELETE FROM hook_queue WHERE id = @id",
  /**
   * When a head of an active hook's queue can next be claimed: when it falls due, or, leased, when its lease runs out.
   * Only heads count (a later delivery waits for its head however due it is), so this reads one row per hook.
   */
  nextDue: `SELECT min(CASE WHEN q.claimed_until > @now THEN q.claimed_until ELSE q.next_attempt_at END) AS due
    FROM hooks h JOIN hook_queue q ON q.id = (SELECT min(id) FROM hook_queue WHERE hook_id = h.id) WHERE h.active = @active`,
  queued: "SELECT count(*) AS n FROM hook_queue WHERE hook_id = @hookId",
  record: `INSERT INTO hook_deliveries (hook_id, guid, delivered_at, redelivery, duration, status, status_code, event, action,
      repository_id, url, request_headers, request_body, request_body_gzip, response_headers, response_body)
    VALUES (@hookId, @guid, @deliveredAt, @redelivery, @duration, @status, @statusCode, @event, @action,
      @repositoryId, @url, @requestHeaders, @requestBody, @requestBodyGzip, @responseHeaders, @responseBody)`,
  lastResponse: "UPDATE hooks SET last_code = @code, last_status = @status, last_message = @message WHERE id = @hookId",
  succeeded: "UPDATE hooks SET failing_since = NULL WHERE id = @hookId AND failing_since IS NOT NULL",
  failed: "UPDATE hooks SET failing_since = coalesce(failing_since, @at) WHERE id = @hookId",
  disable: `UPDATE hooks SET active = @inactive, disabled_at = @now, disabled_reason = @reason
    WHERE id = @hookId AND active = @active AND failing_since <= @before`,
  queueStats: `SELECT (SELECT count(*) FROM hook_queue) AS depth,
    (SELECT min(q.next_attempt_at) FROM hook_queue q JOIN hooks h ON h.id = q.hook_id
      WHERE h.active = @active AND q.next_attempt_at <= @now) AS oldest`,
  eventSource: "SELECT body, repo_id, actor_id FROM events WHERE id = @id",
  /**
   * Whether an active hook of the repository, of the organization owning it, or of an app installed on its owner
   * would receive its webhooks (an app's installation may leave the repository out: then a body is made for nothing).
   */
  anyActiveHook: `SELECT 1 AS ok FROM repos r WHERE r.id = @repoId AND (
      EXISTS (SELECT 1 FROM hooks h WHERE h.repo_id = r.id AND h.active = @active)
      OR EXISTS (SELECT 1 FROM hooks h WHERE h.org_id = r.owner_id AND h.active = @active)
      OR EXISTS (SELECT 1 FROM installations i JOIN hooks h ON h.app_id = i.app_id
        WHERE i.account_id = r.owner_id AND i.suspended_at IS NULL AND h.active = @active))`,
  latestPush:
    "SELECT id FROM events WHERE repo_id = @repoId AND type = 'PushEvent' ORDER BY created_at DESC, id DESC LIMIT 1",
  deliveries: `SELECT * FROM hook_deliveries WHERE hook_id = @hookId AND id < @before ORDER BY id DESC LIMIT @limit`,
  delivery: "SELECT * FROM hook_deliveries WHERE hook_id = @hookId AND id = @id",
};

/** Whether an installation (`i`) covers the repository `r`: all of its account's, or `r` among those selected. */
export const INSTALLATION_COVERS = {
  sqlite: "(i.repository_selection = 'all' OR EXISTS (SELECT 1 FROM json_each(i.repository_ids) WHERE value = r.id))",
  postgres: "(i.repository_selection = 'all' OR i.repository_ids @> to_jsonb(r.id))",
};

/**
 * The active hooks an event in one of `@repoIds` goes to: the repository's own, its owning organization's, and those
 * of the apps installed on it (with the installation, whose accepted events are the ones it gets); each with its
 * queue's length (`--webhook-max-queue`). One join per kind, so that each reads an index. `ids` is the dialect's "in
 * this list" (SQLite: a JSON array; PostgreSQL: an array parameter).
 */
export function hookTargetsSql(ids: string, dialect: "sqlite" | "postgres"): string {
  const queued = "(SELECT count(*) FROM hook_queue q WHERE q.hook_id = h.id) AS queued";
  const part = (join: string) => `SELECT r.id AS repo_id, h.id AS hook_id, h.events AS events, ${queued},
      CAST(NULL AS BIGINT) AS installation_id
    FROM repos r JOIN hooks h ON ${join} WHERE h.active = @active AND r.id IN (${ids})`;
  const apps = `SELECT r.id AS repo_id, h.id AS hook_id, i.events AS events, ${queued}, i.id AS installation_id
    FROM repos r JOIN installations i ON i.account_id = r.owner_id AND i.suspended_at IS NULL
      AND ${INSTALLATION_COVERS[dialect]}
    JOIN hooks h ON h.app_id = i.app_id WHERE h.active = @active AND r.id IN (${ids})`;
  return `${part("h.repo_id = r.id")} UNION ALL ${part("h.org_id = r.owner_id")} UNION ALL ${apps}`;
}

export interface HookTargetRecord {
  repo_id: number;
  hook_id: number;
  events: Json<string[]>;
  queued: number;
  installation_id: number | string | null;
}

export const toHookTarget = (r: HookTargetRecord) => ({
  repoId: r.repo_id,
  hookId: r.hook_id,
  events: json(r.events),
  queued: Number(r.queued),
  installationId: r.installation_id === null ? null : Number(r.installation_id),
});

/**
 * The failed deliveries a bulk redelivery queues (store/hook-store.ts redeliverFailed): per hook and GUID, the last
 * failed attempt since `@since`, unless an attempt of that GUID to that hook succeeded or the GUID is in its queue.
 */
export function failedSinceSql(scope: RedeliveryScope): string {
  const where = scope.kind === "all" ? "" : scope.kind === "repo" ? "AND h.repo_id = @owner" : "AND h.org_id = @owner";
  return `SELECT d.* FROM hook_deliveries d JOIN hooks h ON h.id = d.hook_id
    WHERE d.id IN (SELECT max(f.id) FROM hook_deliveries f
        WHERE f.delivered_at >= @since AND (f.status_code < 200 OR f.status_code >= 300) GROUP BY f.hook_id, f.guid)
      ${where}
      AND NOT EXISTS (SELECT 1 FROM hook_deliveries s WHERE s.hook_id = d.hook_id AND s.guid = d.guid
        AND s.status_code >= 200 AND s.status_code < 300)
      AND NOT EXISTS (SELECT 1 FROM hook_queue q WHERE q.hook_id = d.hook_id AND q.guid = d.guid)
    ORDER BY d.id`;
}

/** The owner a scope names (`@owner`), when it names one. */
export const scopeOwner = (scope: RedeliveryScope) => (scope.kind === "all" ? {} : { owner: ownerWhere(scope).value });

/** A failed attempt queued again: a redelivery of the same GUID and `body` (its request body as sent), due now. */
export const redeliveryOf = (r: DeliveryRecord, body: string): NewQueuedDelivery => ({
  hookId: r.hook_id,
  guid: r.guid,
  event: r.event,
  action: r.action,
  eventId: null,
  body,
  redelivery: true,
});

/** Larger than any id: `before` when the listing starts at the newest. */
export const NO_CURSOR = Number.MAX_SAFE_INTEGER;

export interface HookRecord {
  id: number;
  repo_id: number | null;
  org_id: number | null;
  app_id: number | null;
  name: string;
  active: Bool;
  events: Json<string[]>;
  url: string;
  content_type: string;
  insecure_ssl: string;
  secret: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  last_code: number | null;
  last_status: string;
  last_message: string | null;
  failing_since: number | null;
  disabled_at: Date | string | null;
  disabled_reason: string | null;
}

export function toHook(r: HookRecord): HookRow {
  return {
    id: r.id,
    owner:
      r.repo_id !== null
        ? { kind: "repo", repoId: r.repo_id }
        : r.org_id !== null
          ? { kind: "org", orgId: r.org_id }
          : { kind: "app", appId: Number(r.app_id) },
    name: r.name,
    active: Boolean(r.active),
    events: json(r.events),
    config: {
      url: r.url,
      contentType: r.content_type as HookConfig["contentType"],
      insecureSsl: r.insecure_ssl as HookConfig["insecureSsl"],
      sealedSecret: r.secret,
    },
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
    lastResponse: { code: r.last_code, status: r.last_status, message: r.last_message },
    failingSince: r.failing_since === null ? null : new Date(Number(r.failing_since)),
    disabled: r.disabled_at === null ? null : { at: date(r.disabled_at), reason: r.disabled_reason ?? "" },
  };
}

/** Whether an update turns an inactive hook on: its failing streak and disabling are then forgotten. */
export const reactivates = (hook: HookRow, changes: HookChanges) => changes.active === true && !hook.active;

/** The parameters of `insert` and `update`: a hook with its changes applied. */
export function hookParameters<B extends Bool>(
  hook: NewHook | HookRow,
  changes: HookChanges,
  bool: (value: boolean) => B,
) {
  const config = changes.config ?? hook.config;
  return {
    active: bool(changes.active ?? hook.active),
    events: JSON.stringify(changes.events ?? hook.events),
    url: config.url,
    contentType: config.contentType,
    insecureSsl: config.insecureSsl,
    secret: config.sealedSecret,
  };
}

/** HOOK_SQL.insert's parameters: the hook's, its owner in the column of its kind, and its creation time. */
export function hookInsertParameters(hook: NewHook, values: Executor["values"], now: Date) {
  const { column, value } = ownerWhere(hook.owner);
  return {
    ...hookParameters(hook, {}, values.bool),
    repo: column === "repo_id" ? value : null,
    org: column === "org_id" ? value : null,
    app: column === "app_id" ? value : null,
    name: hook.name,
    now: values.time(now),
  };
}

export interface QueueRecord {
  id: number;
  hook_id: number;
  guid: string;
  event: string;
  action: string | null;
  event_id: number | string | null;
  body: string | null;
  redelivery: Bool;
  attempts: number;
  next_attempt_at: number | string;
  claimed_until: number | string | null;
  installation_id: number | string | null;
}

/**
 * Of the deliveries queued behind a claimed head (`behind`), those claim's `perHook` takes with it: the run up to the
 * first that is not due or is claimed, which must wait as the head would.
 */
export function claimableBehind(behind: QueueRecord[], now: number): QueueRecord[] {
  const stop = behind.findIndex(
    (r) => Number(r.next_attempt_at) > now || (r.claimed_until !== null && Number(r.claimed_until) >= now),
  );
  return stop === -1 ? behind : behind.slice(0, stop);
}

export const toQueued = (r: QueueRecord): QueuedDelivery => ({
  id: r.id,
  hookId: r.hook_id,
  guid: r.guid,
  event: r.event,
  action: r.action,
  eventId: r.event_id === null ? null : String(r.event_id),
  body: r.body,
  redelivery: Boolean(r.redelivery),
  attempts: r.attempts,
  installationId: r.installation_id === null ? null : Number(r.installation_id),
});

export interface DeliveryRecord {
  id: number;
  hook_id: number;
  guid: string;
  delivered_at: Date | string;
  redelivery: Bool;
  duration: number;
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  repository_id: number | null;
  url: string;
  request_headers: Json<Record<string, string>>;
  request_body: string;
  request_body_gzip: Uint8Array | null;
  response_headers: Json<Record<string, string>>;
  response_body: string | null;
}

/** The row with its request body inflated when it was stored compressed (delivery-bodies.ts). */
export const toDelivery = async (r: DeliveryRecord): Promise<DeliveryRow> => ({
  id: r.id,
  hookId: r.hook_id,
  guid: r.guid,
  deliveredAt: date(r.delivered_at),
  redelivery: Boolean(r.redelivery),
  duration: r.duration,
  status: r.status,
  statusCode: r.status_code,
  event: r.event,
  action: r.action,
  repositoryId: r.repository_id,
  url: r.url,
  request: { headers: json(r.request_headers), payload: await unpackBody(r.request_body, r.request_body_gzip) },
  response: { headers: json(r.response_headers), payload: r.response_body },
});

/** @param packed the request body compressed (packBody), or null to store it as text. */
export function attemptParameters<B extends Bool>(
  a: DeliveryAttempt,
  bool: (value: boolean) => B,
  packed: Buffer | null,
) {
  return {
    hookId: a.hookId,
    guid: a.guid,
    deliveredAt: a.deliveredAt.toISOString(),
    redelivery: bool(a.redelivery),
    duration: a.duration,
    status: a.status,
    statusCode: a.statusCode,
    event: a.event,
    action: a.action,
    repositoryId: a.repositoryId,
    url: a.url,
    requestHeaders: JSON.stringify(a.request.headers),
    requestBody: packed ? "" : a.request.payload,
    requestBodyGzip: packed,
    responseHeaders: JSON.stringify(a.response.headers),
    responseBody: a.response.payload,
  };
}

/** Whether the receiver took the delivery: any 2xx, as GitHub counts it. */
export const delivered = (a: DeliveryAttempt) => a.statusCode >= 200 && a.statusCode < 300;

/** GitHub's `last_response` after an attempt: "active" with the receiver's status, or the failure's message. */
export function lastResponse(a: DeliveryAttempt): { code: number | null; status: string; message: string | null } {
  return delivered(a)
    ? { code: a.statusCode, status: "active", message: "OK" }
    : { code: a.statusCode || null, status: "misconfigured", message: a.status };
}
