/**
 * The assignable users of a repository, written once over the executor: the relations of REPO_ROLE (directory.ts),
 * listed instead of asked about one user, and users only (an organization owns but is never assigned).
 */
import type { AssigneeStore } from "./assignee-store.js";
import type { Executor } from "./executor.js";
import type { PageRequest } from "./page.js";
import { toUser } from "./users.js";
import { BY_NAME } from "./name-order.js";

const ASSIGNABLE = `FROM users u JOIN repos r ON r.id = @repo WHERE u.type = 'User' AND (
    u.id = r.owner_id
    OR EXISTS (SELECT 1 FROM collaborators c WHERE c.repo_id = r.id AND c.user_id = u.id)
    OR EXISTS (SELECT 1 FROM org_members m WHERE m.org_id = r.owner_id AND m.user_id = u.id))`;

export class Assignees implements AssigneeStore {
  constructor(private readonly db: Executor) {}

  async page(repoId: number, window: PageRequest) {
    const parameters = { repo: repoId, ...window };
    const [rows, count] = await Promise.all([
      this.db.all<Parameters<typeof toUser>[0]>(
        `SELECT u.* ${ASSIGNABLE} ORDER BY ${BY_NAME[this.db.dialect]("u.login")}, u.id LIMIT @limit OFFSET @offset`,
        parameters,
      ),
      this.db.get<{ n: number }>(`SELECT count(*) AS n ${ASSIGNABLE}`, parameters),
    ]);
    return { rows: rows.map(toUser), total: Number(count!.n) };
  }
}
