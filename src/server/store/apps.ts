/** GitHub Apps and their installations, written once over the executor (app-store.ts says what each method does). */
import { randomUUID } from "node:crypto";
import type { GrantedPermissions } from "../../api/permissions.js";
import type { AppRow, AppStore, InstallationRow, ManifestCodeRow, NewApp, NewInstallation } from "./app-store.js";
import { DuplicateError } from "./duplicate-error.js";
import { UniqueViolation, type Executor } from "./executor.js";
import { date, json, type Json, type Time } from "./sql-values.js";
import type { NewHook } from "./hook-store.js";
import { HOOK_SQL, hookInsertParameters } from "./hook-sql.js";

interface AppRecord {
  id: number | string;
  slug: string;
  name: string;
  owner_id: number | string;
  bot_id: number | string;
  client_id: string;
  client_secret_hash: string | null;
  public_key: string;
  permissions: Json<GrantedPermissions>;
  events: Json<string[]>;
  created_at: Time;
  updated_at: Time;
}

interface InstallationRecord {
  id: number | string;
  app_id: number | string;
  account_id: number | string;
  repository_selection: "all" | "selected";
  repository_ids: Json<number[]>;
  permissions: Json<GrantedPermissions>;
  events: Json<string[]>;
  suspended_at: Time | null;
  created_at: Time;
  updated_at: Time;
}

const toApp = (r: AppRecord): AppRow => ({
  id: Number(r.id),
  slug: r.slug,
  name: r.name,
  ownerId: Number(r.owner_id),
  botId: Number(r.bot_id),
  clientId: r.client_id,
  clientSecretHash: r.client_secret_hash,
  publicKey: r.public_key,
  permissions: json(r.permissions),
  events: json(r.events),
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
});

const toInstallation = (r: InstallationRecord): InstallationRow => ({
  id: Number(r.id),
  appId: Number(r.app_id),
  accountId: Number(r.account_id),
  repositorySelection: r.repository_selection,
  repositoryIds: json(r.repository_ids),
  permissions: json(r.permissions),
  events: json(r.events),
  suspendedAt: r.suspended_at === null ? null : date(r.suspended_at),
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
});

/**
 * Queues an `installation` webhook to the app's hook (when it has an active one), in the caller's transaction. With
 * no body, the dispatcher makes it from the installation at the first attempt (payload.ts forInstallation).
 */
async function queueInstallationEvent(
  tx: Executor,
  event: { appId: number; installationId: number | null; action: string; body?: string; name?: string },
  now: Date,
): Promise<void> {
  await tx.run(
    `INSERT INTO hook_queue (hook_id, guid, event, action, event_id, body, redelivery, next_attempt_at,
       created_at, installation_id)
     SELECT h.id, @guid, @event, @action, NULL, @body, @redelivery, @due, @now, @installation
     FROM hooks h WHERE h.app_id = @app AND h.active = @active`,
    {
      guid: randomUUID(),
      event: event.name ?? "installation",
      action: event.action,
      body: event.body ?? null,
      redelivery: tx.values.bool(false),
      due: now.getTime(),
      now: tx.values.time(now),
      installation: event.installationId,
      app: event.appId,
      active: tx.values.bool(true),
    },
  );
}

export class Apps implements AppStore {
  constructor(private readonly db: Executor) {}

  async insert(app: NewApp, now: Date): Promise<AppRow> {
    const at = this.db.values.time(now);
    try {
      return await this.db.transaction(async (tx) => {
        const bot = await tx.get<{ id: number }>(
          `INSERT INTO users (login, type, password_hash, otp_secret, site_admin, created_at)
           VALUES (@login, 'Bot', NULL, NULL, @admin, @now) RETURNING id`,
          { login: app.botLogin, admin: tx.values.bool(false), now: at },
        );
        const row = await tx.get<AppRecord>(
          `INSERT INTO apps (id, slug, name, owner_id, bot_id, client_id, client_secret_hash, public_key, permissions,
             events, created_at, updated_at)
           VALUES (@id, @slug, @name, @owner, @bot, @client_id, @secret, @key, @permissions, @events, @now, @now)
           RETURNING *`,
          {
            id: app.id,
            slug: app.slug,
            name: app.name,
            owner: app.ownerId,
            bot: bot!.id,
            client_id: app.clientId,
            secret: app.clientSecretHash,
            key: app.publicKey,
            permissions: JSON.stringify(app.permissions),
            events: JSON.stringify(app.events),
            now: at,
          },
        );
        await tx.run(
          `INSERT INTO oauth_apps (client_id, client_secret_hash, name, owner_id, url, callback_url, device_flow,
             suspended, created_at, github_app_id)
           VALUES (@client_id, @secret, @name, @owner, @url, @callback, @device, @suspended, @now, @id)`,
          {
            client_id: app.clientId,
            secret: app.clientSecretHash ?? "",
            name: app.name,
            owner: app.ownerId,
            url: app.signIn.callbackUrl ?? "",
            callback: app.signIn.callbackUrl ?? "",
            device: tx.values.bool(app.signIn.deviceFlow),
            suspended: tx.values.bool(false),
            now: at,
            id: app.id,
          },
        );
        if (app.webhook) {
          const hook: NewHook = {
            owner: { kind: "app", appId: app.id },
            name: "web",
            active: true,
            events: app.events,
            config: {
              url: app.webhook.url,
              contentType: "json",
              insecureSsl: "0",
              sealedSecret: app.webhook.sealedSecret,
            },
          };
          await tx.get(HOOK_SQL.insert, hookInsertParameters(hook, tx.values, now));
        }
        return toApp(row!);
      });
    } catch (error) {
      if (error instanceof UniqueViolation) throw new DuplicateError(`app ${app.slug}`);
      throw error;
    }
  }

  async byId(id: number) {
    const row = await this.db.get<AppRecord>("SELECT * FROM apps WHERE id = @id", { id });
    return row ? toApp(row) : null;
  }

  async byClientId(clientId: string) {
    const row = await this.db.get<AppRecord>("SELECT * FROM apps WHERE client_id = @client_id", {
      client_id: clientId,
    });
    return row ? toApp(row) : null;
  }

  async ownedBy(ownerId: number) {
    const rows = await this.db.all<AppRecord>("SELECT * FROM apps WHERE owner_id = @owner ORDER BY name, id", {
      owner: ownerId,
    });
    return rows.map(toApp);
  }

  async bySlug(slug: string) {
    const row = await this.db.get<AppRecord>("SELECT * FROM apps WHERE lower(slug) = lower(@slug)", { slug });
    return row ? toApp(row) : null;
  }

  async lastId() {
    return Number((await this.db.get<{ n: number | null }>("SELECT max(id) AS n FROM apps"))?.n ?? 0);
  }

  async install(installation: NewInstallation, now: Date): Promise<InstallationRow> {
    try {
      return await this.db.transaction(async (tx) => {
        const row = await tx.get<InstallationRecord>(
          `INSERT INTO installations (id, app_id, account_id, repository_selection, repository_ids, permissions, events,
           created_at, updated_at)
         VALUES (@id, @app, @account, @selection, @repository_ids, @permissions, @events, @now, @now) RETURNING *`,
          {
            id: installation.id,
            app: installation.appId,
            account: installation.accountId,
            selection: installation.repositorySelection,
            repository_ids: JSON.stringify(installation.repositoryIds),
            permissions: JSON.stringify(installation.permissions),
            events: JSON.stringify(installation.events),
            now: tx.values.time(now),
          },
        );
        await queueInstallationEvent(
          tx,
          { appId: installation.appId, installationId: installation.id, action: "created" },
          now,
        );
        return toInstallation(row!);
      });
    } catch (error) {
      if (error instanceof UniqueViolation) throw new DuplicateError(`installation ${installation.id}`);
      throw error;
    }
  }

  async installation(id: number) {
    const row = await this.db.get<InstallationRecord>("SELECT * FROM installations WHERE id = @id", { id });
    return row ? toInstallation(row) : null;
  }

  async installationOn(appId: number, accountId: number) {
    const row = await this.db.get<InstallationRecord>(
      "SELECT * FROM installations WHERE app_id = @app AND account_id = @account",
      { app: appId, account: accountId },
    );
    return row ? toInstallation(row) : null;
  }

  async installations(appId: number) {
    const rows = await this.db.all<InstallationRecord>("SELECT * FROM installations WHERE app_id = @app ORDER BY id", {
      app: appId,
    });
    return rows.map(toInstallation);
  }

  async lastInstallationId() {
    return Number((await this.db.get<{ n: number | null }>("SELECT max(id) AS n FROM installations"))?.n ?? 0);
  }

  async setSuspended(id: number, suspendedAt: Date | null, now: Date) {
    return this.db.transaction(async (tx) => {
      const row = await tx.get<InstallationRecord>(
        "UPDATE installations SET suspended_at = @suspended, updated_at = @now WHERE id = @id RETURNING *",
        {
          id,
          suspended: suspendedAt === null ? null : tx.values.time(suspendedAt),
          now: tx.values.time(now),
        },
      );
      if (!row) return null;
      const action = suspendedAt === null ? "unsuspend" : "suspend";
      await queueInstallationEvent(tx, { appId: Number(row.app_id), installationId: id, action }, now);
      return toInstallation(row);
    });
  }

  async setRepositories(
    id: number,
    from: number[],
    to: number[],
    changed: { action: string; body: string },
    now: Date,
  ) {
    // Only from what the caller read: a change made meanwhile is not overwritten (the caller reads again).
    const was = this.db.dialect === "postgres" ? "CAST(@from AS jsonb)" : "@from";
    return this.db.transaction(async (tx) => {
      const row = await tx.get<InstallationRecord>(
        `UPDATE installations SET repository_ids = @to, updated_at = @now
         WHERE id = @id AND repository_ids = ${was} RETURNING *`,
        { id, from: JSON.stringify(from), to: JSON.stringify(to), now: tx.values.time(now) },
      );
      if (!row) return null;
      await queueInstallationEvent(
        tx,
        { appId: Number(row.app_id), installationId: null, name: "installation_repositories", ...changed },
        now,
      );
      return toInstallation(row);
    });
  }

  async uninstall(id: number, deletedBody: string, now: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      const gone = await tx.get<{ app_id: number | string }>("SELECT app_id FROM installations WHERE id = @id", { id });
      if (!gone) return;
      await tx.run(
        `DELETE FROM authorizations WHERE id IN
           (SELECT authorization_id FROM installation_tokens WHERE installation_id = @id)`,
        { id },
      );
      await tx.run("DELETE FROM installations WHERE id = @id", { id });
      // The body names the installation itself: no installation id for the dispatcher to add it from.
      await queueInstallationEvent(
        tx,
        { appId: Number(gone.app_id), installationId: null, action: "deleted", body: deletedBody },
        now,
      );
    });
  }

  async repositoryIdsOf(accountId: number): Promise<number[]> {
    const rows = await this.db.all<{ id: number | string }>(
      "SELECT id FROM repos WHERE owner_id = @owner ORDER BY id",
      {
        owner: accountId,
      },
    );
    return rows.map((row) => Number(row.id));
  }

  async saveManifestCode(code: ManifestCodeRow): Promise<void> {
    await this.db.run(
      `INSERT INTO app_manifest_codes (code_hash, owner_id, manifest, expires_at)
       VALUES (@hash, @owner, @manifest, @expires)`,
      {
        hash: code.codeHash,
        owner: code.ownerId,
        manifest: code.manifest,
        expires: this.db.values.time(code.expiresAt),
      },
    );
  }

  async takeManifestCode(codeHash: string): Promise<ManifestCodeRow | null> {
    const row = await this.db.get<{
      code_hash: string;
      owner_id: number | string;
      manifest: Json<object>;
      expires_at: Time;
    }>("DELETE FROM app_manifest_codes WHERE code_hash = @hash RETURNING *", { hash: codeHash });
    return row
      ? {
          codeHash: row.code_hash,
          ownerId: Number(row.owner_id),
          manifest: JSON.stringify(json(row.manifest)),
          expiresAt: date(row.expires_at),
        }
      : null;
  }

  async linkToken(authorizationId: number, installationId: number): Promise<void> {
    await this.db.run(
      "INSERT INTO installation_tokens (authorization_id, installation_id) VALUES (@authorization, @installation)",
      { authorization: authorizationId, installation: installationId },
    );
  }
}
