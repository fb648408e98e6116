/** Who may be assigned to a repository's issues (`GET /repos/{o}/{r}/assignees`). */
import type { Page, PageRequest } from "./page.js";
import type { UserRow } from "./user-store.js";

export interface AssigneeStore {
  /**
   * The users GitHub offers as assignees: the owner (a user), the collaborators, and the members of the owning
   * organization, by login. The same people as a role from DirectoryStore.repoRole, the issue actions' rule.
   */
  page(repoId: number, window: PageRequest): Promise<Page<UserRow>>;
}
