/**
 * A PostgreSQL database migrated to the latest schema, made once and copied for each test that needs one
 * (`CREATE DATABASE ... TEMPLATE`): migrating a new database costs the server some 200 ms of CPU, a copy a tenth
 * of that, and the suites make hundreds. Its name carries a hash of the migrations' SQL, so a change to the schema
 * makes a new template; processes running at once agree on who builds it through an advisory lock.
 */
import { createHash } from "node:crypto";
import { migrations } from "../../src/server/store/migrations/index.js";
import { PostgresStore } from "../../src/server/store/postgres/postgres-store.js";
import { adminClient } from "./services.js";

const schemaHash = createHash("sha256")
  .update(JSON.stringify(migrations.map((m) => [m.id, m.postgres])))
  .digest("hex")
  .slice(0, 16);
export const TEMPLATE_NAME = `feedgate_test_template_${schemaHash}`;

let built: Promise<string> | undefined;

/** The template's name, once it exists on the server `adminUrl` reaches. */
export const migratedTemplate = (adminUrl: string): Promise<string> => (built ??= build(adminUrl));

async function build(adminUrl: string): Promise<string> {
  const admin = adminClient(adminUrl);
  await admin.connect();
  try {
    // Session-level: held until this connection ends or unlocks, whatever the building does.
    await admin.query("SELECT pg_advisory_lock(hashtext($1))", [TEMPLATE_NAME]);
    const { rowCount } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [TEMPLATE_NAME]);
    if (rowCount === 0) {
      // Built under another name and renamed when done: a template that exists is always a whole one.
      const building = `${TEMPLATE_NAME}_building`;
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${building}`);
      const url = new URL(adminUrl);
      url.pathname = `/${building}`;
      const store = await PostgresStore.open(url.toString());
      await store.close();
      // A copy needs the source without connections; the pool's backends may still be on their way out.
      await admin.query(`ALTER DATABASE ${building} WITH ALLOW_CONNECTIONS false`);
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
        [building],
      );
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${TEMPLATE_NAME}`);
    }
    return TEMPLATE_NAME;
  } finally {
    await admin.end();
  }
}
