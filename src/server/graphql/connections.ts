/**
 * GitHub's connections (https://docs.github.com/graphql/guides/using-pagination-in-the-graphql-api) over a list read
 * whole: `first`/`after` forwards, `last`/`before` backwards, `edges` with their cursors, `nodes`, `pageInfo` and
 * `totalCount`. A cursor names a position (base64 of `cursor:<n>`, counted from 1, the form GitHub's offset cursors
 * have). GitHub's refusals: a connection asked without `first` or `last`, more than 100 records, a cursor it did not
 * make.
 */
import { GraphRefusal } from "./graph-context.js";

/** GitHub's most records a connection gives at once. */
export const MAX_RECORDS = 100;

export interface PageArguments {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

const cursorOf = (position: number) => Buffer.from(`cursor:${position}`).toString("base64");

/** The position a cursor names; GitHub's INVALID_CURSOR_ARGUMENTS for one that is not a cursor of ours. */
function positionOf(cursor: string): number {
  const match = /^cursor:([1-9]\d{0,8})$/.exec(Buffer.from(cursor, "base64").toString("utf8"));
  if (!match || cursorOf(Number(match[1])) !== cursor)
    throw new GraphRefusal("INVALID_CURSOR_ARGUMENTS", `\`${cursor}\` does not appear to be a valid cursor.`);
  return Number(match[1]);
}

/** How many records a page asks for: `first` or `last`, at most 100, as GitHub requires. */
function checkBoundaries(field: string, { first, last }: PageArguments): void {
  if ((first ?? null) === null && (last ?? null) === null)
    throw new GraphRefusal(
      "MISSING_PAGINATION_BOUNDARIES",
      `You must provide a \`first\` or \`last\` value to properly paginate the \`${field}\` connection.`,
    );
  for (const [name, value] of [
    ["first", first],
    ["last", last],
  ] as const)
    if (value !== null && value !== undefined && value > MAX_RECORDS)
      throw new GraphRefusal(
        "EXCESSIVE_PAGINATION",
        `Requesting ${value} records on the \`${field}\` connection exceeds the \`${name}\` limit of ${MAX_RECORDS} records.`,
      );
}

/** One page of `items` as the connection `field` answers it; `node` makes each item's GraphQL object. */
export function connection<T>(field: string, items: readonly T[], page: PageArguments, node: (item: T) => unknown) {
  checkBoundaries(field, page);
  let low = page.after ? Math.min(positionOf(page.after), items.length) : 0;
  let high = page.before ? Math.max(low, Math.min(positionOf(page.before) - 1, items.length)) : items.length;
  if (typeof page.first === "number") high = Math.min(high, low + Math.max(0, page.first));
  if (typeof page.last === "number") low = Math.max(low, high - Math.max(0, page.last));
  const edges = items.slice(low, high).map((item, index) => ({ cursor: cursorOf(low + index + 1), node: node(item) }));
  return {
    edges,
    nodes: edges.map((edge) => edge.node),
    totalCount: items.length,
    pageInfo: {
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
      hasPreviousPage: low > 0,
      hasNextPage: high < items.length,
    },
  };
}
