import Database from "better-sqlite3";

export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Database.SqliteError && error.code.startsWith("SQLITE_CONSTRAINT_UNIQUE");
}
