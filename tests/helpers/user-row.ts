/** A stored account as the store hands it to the services, for pure tests that need one and no database. */
import type { UserRow } from "../../src/server/store/store.js";

export const userRow = (overrides: Partial<UserRow> & Pick<UserRow, "id" | "login">): UserRow => ({
  type: "User",
  wireId: overrides.id,
  passwordHash: null,
  otpSecret: null,
  siteAdmin: false,
  suspendedAt: null,
  createdAt: new Date(0),
  email: null,
  blog: null,
  billingEmail: null,
  updatedAt: new Date(0),
  ...overrides,
});
