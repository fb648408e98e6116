/** Applies an ingest program (store/ingest-plan.ts) on one PostgreSQL client inside one transaction. */
import type pg from "pg";
import { ingestProgram, type AccountRecord, type IngestOp } from "../ingest-plan.js";
import type { IngestBatch, IngestResult, IngestStore } from "../store.js";
import { transaction } from "./pool.js";
import { copyIntoIgnoringDuplicates } from "./copy.js";

async function run(client: pg.PoolClient, o: IngestOp): Promise<unknown> {
  const q = (text: string, values: unknown[]) => client.query(text, values);
  switch (o.op) {
    case "findAccount": {
      const { rows } = await q(`SELECT id, type, password_hash AS "passwordHash", external_id AS "externalId"
        FROM users WHERE lower(login) = lower($1)`, [o.login]);
      return (rows[0] as AccountRecord | undefined) ?? null;
    }
    case "insertAccount":
      return (await q("INSERT INTO users (login, type, external_id, created_at) VALUES ($1, $2, $3, $4) RETURNING id",
        [o.login, o.type, o.externalId, o.now])).rows[0].id;
    case "setAccountExternalId": return q("UPDATE users SET external_id = $1 WHERE id = $2 AND external_id IS NULL", [o.externalId, o.id]);
    case "makeOrganization": return q("UPDATE users SET type = 'Organization' WHERE id = $1", [o.id]);
    case "setPassword": return q("UPDATE users SET password_hash = $1 WHERE id = $2", [o.passwordHash, o.id]);
    case "setOtpSecret": return q("UPDATE users SET otp_secret = $1 WHERE id = $2", [o.otpSecret, o.id]);
    case "setSiteAdmin": return q("UPDATE users SET site_admin = $1 WHERE id = $2", [o.siteAdmin, o.id]);
    case "addMember": return q("INSERT INTO org_members (org_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [o.orgId, o.userId]);
    case "findRepo": {
      const { rows } = await q(`SELECT id, network_id AS "networkId", external_id AS "externalId" FROM repos
        WHERE owner_id = $1 AND lower(name) = lower($2)`, [o.ownerId, o.name]);
      return rows[0] ?? null;
    }
    case "insertRepo":
      // A new repository is the root of its own fork network.
      return (await q(`INSERT INTO repos (id, owner_id, name, network_id, external_id)
        SELECT id, $1, $2, id, $3 FROM (SELECT nextval(pg_get_serial_sequence('repos', 'id')) AS id) AS next RETURNING id`,
      [o.ownerId, o.name, o.externalId])).rows[0].id;
    case "setRepoExternalId": return q("UPDATE repos SET external_id = $1 WHERE id = $2 AND external_id IS NULL", [o.externalId, o.id]);
    case "setPrivate": return q("UPDATE repos SET private = $1 WHERE id = $2", [o.private, o.id]);
    case "setParent": return q("UPDATE repos SET parent_id = $1 WHERE id = $2", [o.parentId, o.id]);
    case "moveNetwork": return q("UPDATE repos SET network_id = $1 WHERE network_id = $2", [o.to, o.from]);
    case "collaborator":
      return o.remove
        ? q("DELETE FROM collaborators WHERE repo_id = $1 AND user_id = $2", [o.repoId, o.userId])
        : q("INSERT INTO collaborators (repo_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [o.repoId, o.userId]);
    case "follow": return q("INSERT INTO follows (follower_id, followee_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [o.followerId, o.followeeId]);
    case "watch": return q("INSERT INTO watches (user_id, repo_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [o.userId, o.repoId]);
    case "tokenOwner": return (await q("SELECT user_id FROM authorizations WHERE hashed_token = $1", [o.hashedToken])).rows[0]?.user_id ?? null;
    case "insertToken":
      return q(`INSERT INTO authorizations (user_id, hashed_token, token_last_eight, scopes, note, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $6)`, [o.userId, o.hashedToken, o.tokenLastEight, JSON.stringify(o.scopes), o.note, o.now]);
    case "raiseGeneration": return q("UPDATE ingest_state SET generation = generation + 1 WHERE id = 1", []);
    case "insertEvents":
      return copyIntoIgnoringDuplicates(client, "events",
        ["id", "type", "actor_id", "repo_id", "org_id", "public", "created_at", "complete", "body"],
        o.rows.map((e) => [e.id, e.type, e.actorId, e.repoId, e.orgId, e.public, e.createdAt, e.complete, e.body]));
    case "insertIssueEvents":
      return copyIntoIgnoringDuplicates(client, "issue_events",
        ["id", "repo_id", "actor_id", "created_at", "complete", "body"],
        o.rows.map((e) => [e.id, e.repoId, e.actorId, e.createdAt, e.complete, e.body]));
  }
}

export class PostgresIngest implements IngestStore {
  constructor(private readonly pool: pg.Pool) {}

  apply(batch: IngestBatch, now: Date): Promise<IngestResult> {
    return transaction(this.pool, async (client) => {
      // Concurrent ingests serialize: each batch sees the accounts and repositories the previous one created.
      await client.query("SELECT pg_advisory_xact_lock(hashtext('feedgate:ingest'))");
      const program = ingestProgram(batch, now);
      let step = program.next();
      while (!step.done) step = program.next(await run(client, step.value));
      return step.value;
    });
  }
}
