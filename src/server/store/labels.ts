/**
 * A repository's labels, written once over the executor. Names compare case-insensitively, as on GitHub: SQLite's
 * column is NOCASE, PostgreSQL's unique index is on lower(name), so there both sides are lowered.
 */
import type { Executor } from "./executor.js";
import type { Dialect } from "./feed-sql.js";
import { Issues, toLabel } from "./issues.js";
import type { LabelRow } from "./issue-store.js";
import type { LabelChanges, LabelStore } from "./label-store.js";
import { BY_NAME } from "./name-order.js";
import { holdsNul } from "./nul.js";
import type { PageRequest } from "./page.js";

/** A labels row as both drivers read it: the issue aggregate's mapping (issues.ts), which reads them too. */
type LabelRecord = Parameters<typeof toLabel>[0];

const NAME_IS: Record<Dialect, string> = { sqlite: "name = @name", postgres: "lower(name) = lower(@name)" };

export class Labels implements LabelStore {
  constructor(private readonly db: Executor) {}

  async page(repoId: number, window: PageRequest) {
    const [rows, count] = await Promise.all([
      this.db.all<LabelRecord>(
        `SELECT * FROM labels WHERE repo_id = @repo ORDER BY ${BY_NAME[this.db.dialect]("name")}, id
         LIMIT @limit OFFSET @offset`,
        { repo: repoId, ...window },
      ),
      this.db.get<{ n: number }>("SELECT count(*) AS n FROM labels WHERE repo_id = @repo", { repo: repoId }),
    ]);
    return { rows: rows.map(toLabel), total: Number(count!.n) };
  }

  async named(repoId: number, name: string): Promise<LabelRow | null> {
    if (this.db.dialect === "postgres" && holdsNul(name)) return null;
    const row = await this.db.get<LabelRecord>(
      `SELECT * FROM labels WHERE repo_id = @repo AND ${NAME_IS[this.db.dialect]}`,
      { repo: repoId, name },
    );
    return row ? toLabel(row) : null;
  }

  /** As an issue's unknown label is made (issues.ts): one INSERT for both. */
  insert(label: Omit<LabelRow, "id">): Promise<LabelRow> {
    return new Issues(this.db).insertLabel(label);
  }

  async update(id: number, changes: LabelChanges): Promise<LabelRow> {
    const row = await this.db.get<LabelRecord>(
      `UPDATE labels SET name = coalesce(@name, name), color = coalesce(@color, color),
         description = CASE WHEN @describes = 1 THEN @description ELSE description END
       WHERE id = @id RETURNING *`,
      {
        id,
        name: changes.name ?? null,
        color: changes.color ?? null,
        describes: changes.description === undefined ? 0 : 1,
        description: changes.description ?? null,
      },
    );
    return toLabel(row!);
  }

  async delete(id: number): Promise<void> {
    await this.db.run("DELETE FROM issue_labels WHERE label_id = @id", { id });
    await this.db.run("DELETE FROM labels WHERE id = @id", { id });
  }
}
