// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 41,
  name: "a number for who receives webhooks",
  // Every action asks whether an active hook would receive its webhooks (HookStore.hasActiveHook): the repository's
  // own, its owning organization's, or an app's installed on its owner. The answer is remembered between requests
  // (store/remembering-store.ts) under this number, raised in the transaction of every change it depends on, as
  // migration 6's are: a hook made, deleted, turned on or off or moved, an installation made, deleted, suspended or
  // unsuspended. A delivery updates its hook's last response and failure times on every attempt; those raise nothing
  // (the triggers name the columns the answer reads), or a busy hook would make every instance forget on every
  // delivery. Row triggers: hooks and installations change one at a time.
  sqlite: `
      ALTER TABLE ingest_state ADD COLUMN hooks INTEGER NOT NULL DEFAULT 0;
      CREATE TRIGGER hooks_insert_raises AFTER INSERT ON hooks
        BEGIN UPDATE ingest_state SET hooks = hooks + 1 WHERE id = 1; END;
      CREATE TRIGGER hooks_update_raises AFTER UPDATE OF active, repo_id, org_id, app_id ON hooks
        BEGIN UPDATE ingest_state SET hooks = hooks + 1 WHERE id = 1; END;
      CREATE TRIGGER hooks_delete_raises AFTER DELETE ON hooks
        BEGIN UPDATE ingest_state SET hooks = hooks + 1 WHERE id = 1; END;
      CREATE TRIGGER installations_insert_raises AFTER INSERT ON installations
        BEGIN UPDATE ingest_state SET hooks = hooks + 1 WHERE id = 1; END;
      CREATE TRIGGER installations_update_raises AFTER UPDATE OF suspended_at, account_id, app_id ON installations
        BEGIN UPDATE ingest_state SET hooks = hooks + 1 WHERE id = 1; END;
      CREATE TRIGGER installations_delete_raises AFTER DELETE ON installations
        BEGIN UPDATE ingest_state SET hooks = hooks + 1 WHERE id = 1; END;
    `,
  postgres: `
      ALTER TABLE ingest_state ADD COLUMN hooks bigint NOT NULL DEFAULT 0;
      CREATE FUNCTION raise_hooks_number() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN UPDATE ingest_state SET hooks = hooks + 1 WHERE id = 1; RETURN NULL; END $$;
      CREATE TRIGGER hooks_raise_hooks AFTER INSERT OR DELETE OR UPDATE OF active, repo_id, org_id, app_id ON hooks
        FOR EACH ROW EXECUTE FUNCTION raise_hooks_number();
      CREATE TRIGGER installations_raise_hooks AFTER INSERT OR DELETE OR UPDATE OF suspended_at, account_id, app_id
        ON installations FOR EACH ROW EXECUTE FUNCTION raise_hooks_number();
    `,
};
