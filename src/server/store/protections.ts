/** Branch protections, written once over the executor; the rules are one JSON document (migration 038). */
import type { Executor } from "./executor.js";
import type { BranchProtectionRow, ProtectionRules, ProtectionStore } from "./protection-store.js";
import { date, json, type Json, type Time } from "./sql-values.js";

interface ProtectionRecord {
  repo_id: number;
  branch: string;
  rules: Json<ProtectionRules>;
  created_at: Time;
  updated_at: Time;
}

const toProtection = (r: ProtectionRecord): BranchProtectionRow => ({
  repoId: Number(r.repo_id),
  branch: r.branch,
  rules: json(r.rules),
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
});

export class Protections implements ProtectionStore {
  constructor(private readonly db: Executor) {}

  async find(repoId: number, branch: string): Promise<BranchProtectionRow | null> {
    const row = await this.db.get<ProtectionRecord>(
      "SELECT * FROM branch_protections WHERE repo_id = @repo AND branch = @branch",
      { repo: repoId, branch },
    );
    return row ? toProtection(row) : null;
  }

  async list(repoId: number): Promise<BranchProtectionRow[]> {
    const rows = await this.db.all<ProtectionRecord>(
      "SELECT * FROM branch_protections WHERE repo_id = @repo ORDER BY branch",
      { repo: repoId },
    );
    return rows.map(toProtection);
  }

  async put(repoId: number, branch: string, rules: ProtectionRules, at: Date): Promise<BranchProtectionRow> {
    const row = await this.db.get<ProtectionRecord>(
      `INSERT INTO branch_protections (repo_id, branch, rules, created_at, updated_at)
       VALUES (@repo, @branch, @rules, @at, @at)
       ON CONFLICT (repo_id, branch) DO UPDATE SET rules = excluded.rules, updated_at = excluded.updated_at
       RETURNING *`,
      { repo: repoId, branch, rules: JSON.stringify(rules), at: this.db.values.time(at) },
    );
    return toProtection(row!);
  }

  async delete(repoId: number, branch: string): Promise<boolean> {
    const { changes } = await this.db.run("DELETE FROM branch_protections WHERE repo_id = @repo AND branch = @branch", {
      repo: repoId,
      branch,
    });
    return changes > 0;
  }
}
