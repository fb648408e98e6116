// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 17,
  name: "webhook operations",
  // A hook failing every attempt for --webhook-disable-after is made inactive: `failing_since` is when the first
  // failure after its last success was made (epoch ms, compared as the queue's times are; NULL while it succeeds),
  // `disabled_at` and `disabled_reason` say when and why it was turned off (NULL for a hook nobody turned off that
  // way). The index on the queue's due times answers /metrics' "oldest due delivery" without reading the queue.
  // The index on deliveries by GUID (with migration 16's by time) answers a bulk redelivery of the failures since a
  // time (was each one delivered since, by a retry or a redelivery?).
  sqlite: `
      ALTER TABLE hooks ADD COLUMN failing_since INTEGER;
      ALTER TABLE hooks ADD COLUMN disabled_at TEXT;
      ALTER TABLE hooks ADD COLUMN disabled_reason TEXT;
      CREATE INDEX hook_queue_by_due ON hook_queue (next_attempt_at);
      CREATE INDEX hook_deliveries_by_guid ON hook_deliveries (hook_id, guid);
    `,
  postgres: `
      ALTER TABLE hooks ADD COLUMN failing_since bigint;
      ALTER TABLE hooks ADD COLUMN disabled_at timestamptz;
      ALTER TABLE hooks ADD COLUMN disabled_reason text;
      CREATE INDEX hook_queue_by_due ON hook_queue (next_attempt_at);
      CREATE INDEX hook_deliveries_by_guid ON hook_deliveries (hook_id, guid);
    `,
};
