/** A page of a listing and how it is asked for: shared by every aggregate that lists (authorizations, hooks). */

export interface Page<T> {
  rows: T[];
  total: number;
}

export interface PageRequest {
  limit: number;
  offset: number;
}
