/** A repository's labels as their own resource (`/repos/{o}/{r}/labels`): the state the label actions write. */
import type { LabelRow } from "./issue-store.js";
import type { Page, PageRequest } from "./page.js";

/** What an edit of a label may change; each field left out stays as it is. */
export type LabelChanges = Partial<Pick<LabelRow, "name" | "color" | "description">>;

export interface LabelStore {
  /** The repository's labels by name, case-insensitively, as GitHub lists them. */
  page(repoId: number, window: PageRequest): Promise<Page<LabelRow>>;
  /** The label of that name (case-insensitively); null when the repository has none. */
  named(repoId: number, name: string): Promise<LabelRow | null>;
  /** Stores a label; the caller has made sure the name is free (a duplicate key would end a PostgreSQL transaction). */
  insert(label: Omit<LabelRow, "id">): Promise<LabelRow>;
  update(id: number, changes: LabelChanges): Promise<LabelRow>;
  /** Removes the label, and with it every issue's use of it. */
  delete(id: number): Promise<void>;
}
