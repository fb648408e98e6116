/**
 * GitHub's global node ids in their first (legacy) form, which GitHub still accepts and shows for objects made before
 * 2021: base64 of `0<length of the type>:<type><database id>` ("MDQ6VXNlcjE=" is `04:User1`,
 * "MDEwOlJlcG9zaXRvcnkx" `010:Repository1`). REST's `node_id` and GraphQL's `id` are this one value, so that an id
 * read from either is found by GraphQL's `node(id:)` (graphql/nodes.ts reads it back).
 */
export const legacyNodeId = (type: string, id: number | string) =>
  Buffer.from(`0${type.length}:${type}${id}`).toString("base64");

/** A legacy id read back: its type and what follows the type; null for anything else. */
export function parseLegacyNodeId(id: string): { type: string; rest: string } | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(id)) return null;
  const text = Buffer.from(id, "base64").toString("utf8");
  const match = /^0(\d{1,2}):/.exec(text);
  if (!match) return null;
  const length = Number(match[1]);
  const type = text.slice(match[0].length, match[0].length + length);
  if (type.length !== length || !/^[A-Za-z]+$/.test(type)) return null;
  return { type, rest: text.slice(match[0].length + length) };
}

/** An account's id: as User, or as Organization. */
export const accountNodeId = (account: { type: string; wireId: number }) =>
  legacyNodeId(account.type === "Organization" ? "Organization" : "User", account.wireId);
