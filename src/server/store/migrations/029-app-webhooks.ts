// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 29,
  name: "app webhooks",
  // A GitHub App's webhook is a hook of its own owner kind (`app_id`), so that it is delivered by the same outbox,
  // retried, redelivered and listed as repository and organization hooks are. A queued delivery to it names the
  // installation it is for (`installation_id`): its payload carries `installation`. The apps' webhook columns of
  // migration 28 move into `hooks`, which /app/hook/config then edits.
  //
  // SQLite cannot change a CHECK in place: the three hook tables are made again under new names, filled, the old ones
  // dropped (the queue and the record first, so that dropping `hooks` cascades to nothing) and the new ones renamed.
  // Their AUTOINCREMENT counters are carried over, so an id of a deleted hook or attempt is still never reused.
  sqlite: `
      CREATE TABLE hooks_new (
        id              INTEGER PRIMARY KEY AUTOINCREMENT,
        repo_id         INTEGER REFERENCES repos(id),
        org_id          INTEGER REFERENCES users(id),
        app_id          INTEGER REFERENCES apps(id) ON DELETE CASCADE,
        name            TEXT NOT NULL,
        active          INTEGER NOT NULL,
        events          TEXT NOT NULL,
        url             TEXT NOT NULL,
        content_type    TEXT NOT NULL,
        insecure_ssl    TEXT NOT NULL,
        secret          TEXT,
        created_at      TEXT NOT NULL,
        updated_at      TEXT NOT NULL,
        last_code       INTEGER,
        last_status     TEXT NOT NULL DEFAULT 'unused',
        last_message    TEXT,
        failing_since   INTEGER,
        disabled_at     TEXT,
        disabled_reason TEXT,
        CHECK ((repo_id IS NOT NULL) + (org_id IS NOT NULL) + (app_id IS NOT NULL) = 1)
      );
      INSERT INTO hooks_new (id, repo_id, org_id, name, active, events, url, content_type, insecure_ssl, secret,
          created_at, updated_at, last_code, last_status, last_message, failing_since, disabled_at, disabled_reason)
        SELECT id, repo_id, org_id, name, active, events, url, content_type, insecure_ssl, secret,
          created_at, updated_at, last_code, last_status, last_message, failing_since, disabled_at, disabled_reason
        FROM hooks;
      CREATE TABLE hook_queue_new (
        id              INTEGER PRIMARY KEY AUTOINCREMENT,
        hook_id         INTEGER NOT NULL REFERENCES hooks_new(id) ON DELETE CASCADE,
        guid            TEXT NOT NULL,
        event           TEXT NOT NULL,
        action          TEXT,
        event_id        INTEGER,
        body            TEXT,
        redelivery      INTEGER NOT NULL DEFAULT 0,
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        claimed_until   INTEGER,
        created_at      TEXT NOT NULL,
        installation_id INTEGER
      );
      INSERT INTO hook_queue_new (id, hook_id, guid, event, action, event_id, body, redelivery, attempts,
          next_attempt_at, claimed_until, created_at)
        SELECT id, hook_id, guid, event, action, event_id, body, redelivery, attempts, next_attempt_at, claimed_until,
          created_at
        FROM hook_queue;
      CREATE TABLE hook_deliveries_new (
        id                INTEGER PRIMARY KEY AUTOINCREMENT,
        hook_id           INTEGER NOT NULL REFERENCES hooks_new(id) ON DELETE CASCADE,
        guid              TEXT NOT NULL,
        delivered_at      TEXT NOT NULL,
        redelivery        INTEGER NOT NULL,
        duration          REAL NOT NULL,
        status            TEXT NOT NULL,
        status_code       INTEGER NOT NULL,
        event             TEXT NOT NULL,
        action            TEXT,
        repository_id     INTEGER,
        url               TEXT NOT NULL,
        request_headers   TEXT NOT NULL,
        request_body      TEXT NOT NULL,
        response_headers  TEXT NOT NULL,
        response_body     TEXT,
        request_body_gzip BLOB
      );
      INSERT INTO hook_deliveries_new SELECT id, hook_id, guid, delivered_at, redelivery, duration, status,
          status_code, event, action, repository_id, url, request_headers, request_body, response_headers,
          response_body, request_body_gzip
        FROM hook_deliveries;
      DELETE FROM sqlite_sequence WHERE name IN ('hooks_new', 'hook_queue_new', 'hook_deliveries_new');
      INSERT INTO sqlite_sequence (name, seq)
        SELECT name || '_new', seq FROM sqlite_sequence WHERE name IN ('hooks', 'hook_queue', 'hook_deliveries');
      DROP TABLE hook_queue;
      DROP TABLE hook_deliveries;
      DROP TABLE hooks;
      ALTER TABLE hooks_new RENAME TO hooks;
      ALTER TABLE hook_queue_new RENAME TO hook_queue;
      ALTER TABLE hook_deliveries_new RENAME TO hook_deliveries;
      CREATE INDEX hooks_by_repo ON hooks (repo_id, id) WHERE repo_id IS NOT NULL;
      CREATE INDEX hooks_by_org ON hooks (org_id, id) WHERE org_id IS NOT NULL;
      CREATE UNIQUE INDEX hooks_by_app ON hooks (app_id) WHERE app_id IS NOT NULL;
      CREATE INDEX hook_queue_by_hook ON hook_queue (hook_id, id);
      CREATE INDEX hook_queue_by_due ON hook_queue (next_attempt_at);
      CREATE INDEX hook_deliveries_by_hook ON hook_deliveries (hook_id, id);
      CREATE INDEX hook_deliveries_by_time ON hook_deliveries (delivered_at);
      CREATE INDEX hook_deliveries_by_guid ON hook_deliveries (hook_id, guid);
      INSERT INTO hooks (app_id, name, active, events, url, content_type, insecure_ssl, secret, created_at, updated_at)
        SELECT id, 'web', 1, events, webhook_url, 'json', '0', webhook_secret, created_at, updated_at
        FROM apps WHERE webhook_url IS NOT NULL;
      ALTER TABLE apps DROP COLUMN webhook_url;
      ALTER TABLE apps DROP COLUMN webhook_secret;
    `,
  postgres: `
      ALTER TABLE hooks ADD COLUMN app_id bigint REFERENCES apps(id) ON DELETE CASCADE;
      ALTER TABLE hooks DROP CONSTRAINT hooks_check;
      ALTER TABLE hooks ADD CONSTRAINT hooks_one_owner CHECK (num_nonnulls(repo_id, org_id, app_id) = 1);
      CREATE UNIQUE INDEX hooks_by_app ON hooks (app_id) WHERE app_id IS NOT NULL;
      ALTER TABLE hook_queue ADD COLUMN installation_id bigint;
      INSERT INTO hooks (app_id, name, active, events, url, content_type, insecure_ssl, secret, created_at, updated_at)
        SELECT id, 'web', true, events, webhook_url, 'json', '0', webhook_secret, created_at, updated_at
        FROM apps WHERE webhook_url IS NOT NULL;
      ALTER TABLE apps DROP COLUMN webhook_url, DROP COLUMN webhook_secret;
    `,
};
