/**
 * Lists by a name (a label's, a login), case-insensitively, in code-point order on both drivers: SQLite's order is
 * that; PostgreSQL's follows the database's collation unless told, and a page must hold the same rows on either.
 */
import type { Dialect } from "./feed-sql.js";

export const BY_NAME: Record<Dialect, (column: string) => string> = {
  sqlite: (column) => `lower(${column})`,
  postgres: (column) => `lower(${column}) COLLATE "C"`,
};
