/**
 * Row values whose type differs by driver, read and written alike by the shared aggregates (hooks.ts, users.ts,
 * authorizations.ts, sessions.ts): SQLite has no boolean (0/1), keeps times as ISO text and JSON as text;
 * PostgreSQL has boolean, timestamptz and jsonb, which pg hands back as booleans, Dates and parsed values.
 */

/** SQLite has no boolean: its driver passes 0/1. */
export type Bool = boolean | number;
/** JSON as text (SQLite) or as pg parsed it from jsonb (PostgreSQL). */
export type Json<T> = T | string;
/** A time as ISO text (SQLite) or a Date (PostgreSQL timestamptz). */
export type Time = Date | string;

export const json = <T>(value: Json<T>): T => (typeof value === "string" ? (JSON.parse(value) as T) : value);
export const date = (value: Time): Date => (value instanceof Date ? value : new Date(value));

/** How a driver writes the values above: one of these is handed to the shared parameter builders. */
export interface ValueWriter<B extends Bool = Bool, T extends Time = Time> {
  bool(value: boolean): B;
  time(value: Date): T;
}

/** better-sqlite3 binds no boolean and no Date. */
export const SQLITE_VALUES: ValueWriter<number, string> = {
  bool: (value) => (value ? 1 : 0),
  time: (value) => value.toISOString(),
};
export const POSTGRES_VALUES: ValueWriter<boolean, Date> = { bool: (value) => value, time: (value) => value };
