/** Repository look-ups and read-access checks in PostgreSQL. */
import type pg from "pg";
import { BY_WIRE_ID, READABLE_REPOS } from "../feed-sql.js";
import type { DirectoryStore, RepoRow } from "../store.js";
import { holdsNul, named } from "./pool.js";

interface RepoRecord {
  id: number; owner_id: number; owner_login: string; name: string; private: boolean; network_id: number;
  external_id: number | null;
}

export class PostgresDirectory implements DirectoryStore {
  constructor(private readonly pool: pg.Pool) {}

  async findRepo(owner: string, name: string): Promise<RepoRow | null> {
    if (holdsNul(owner, name)) return null;
    const { rows } = await this.pool.query<RepoRecord>(
      `SELECT r.*, u.login AS owner_login FROM repos r JOIN users u ON u.id = r.owner_id
       WHERE lower(u.login) = lower($1) AND lower(r.name) = lower($2)`, [owner, name]);
    const r = rows[0];
    return r ? {
      id: r.id, ownerId: r.owner_id, fullName: `${r.owner_login}/${r.name}`, private: r.private, networkId: r.network_id,
      wireId: r.external_id ?? r.id,
    } : null;
  }

  async loginByWireId(wireId: number) {
    const { rows } = await this.pool.query<{ login: string }>(named(BY_WIRE_ID.account, { id: wireId }));
    return rows[0]?.login ?? null;
  }

  async repoNameByWireId(wireId: number) {
    const { rows } = await this.pool.query<{ name: string }>(named(BY_WIRE_ID.repo, { id: wireId }));
    return rows[0]?.name ?? null;
  }

  async canRead(userId: number, repoId: number) {
    const { rows } = await this.pool.query(named(`SELECT 1 WHERE @repo IN (${READABLE_REPOS})`, { repo: repoId, reader: userId }));
    return rows.length > 0;
  }

  async isMember(orgId: number, userId: number) {
    const { rows } = await this.pool.query("SELECT 1 FROM org_members WHERE org_id = $1 AND user_id = $2", [orgId, userId]);
    return rows.length > 0;
  }
}
