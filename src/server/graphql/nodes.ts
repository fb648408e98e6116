/**
 * GitHub's `node(id:)` and `nodes(ids:)`: an object by its global id, as REST's `node_id` and GraphQL's `id` give it
 * (convert/node-ids.ts). Served for users, organizations, repositories, refs and pull requests, each with the
 * visibility of its own look-up; any other id, or one the caller may not see, is GitHub's NOT_FOUND.
 */
import { legacyNodeId, parseLegacyNodeId } from "../convert/node-ids.js";
import { ApiError } from "../errors.js";
import { type GraphContext, NotResolved } from "./graph-context.js";
import { pullObject } from "./pull-requests.js";

type Found = Promise<unknown>;

/** What each served type's id holds after its type name, and how it is looked up. */
const LOOK_UPS: Record<string, (rest: string, context: GraphContext) => Found> = {
  User: (id, context) => account(id, "User", context),
  Organization: (id, context) => account(id, "Organization", context),
  Repository: async (id, context) => {
    const { user, repo } = await context.services.entryPoints.byWireId("repo", id);
    return context.links.repository(user!, repo!);
  },
  // `03:Ref<repository id>:<full name>` (graphql/refs.ts refNodeId).
  Ref: async (rest, context) => {
    const colon = rest.indexOf(":");
    const name = rest.slice(colon + 1);
    if (colon < 0 || !name.startsWith("refs/")) return null;
    const { user, repo } = await context.services.entryPoints.byWireId("repo", rest.slice(0, colon));
    const repository = (await context.links.repository(user!, repo!)) as {
      ref(args: { qualifiedName: string }): Promise<unknown>;
    };
    return repository.ref({ qualifiedName: name });
  },
  PullRequest: async (id, context) => {
    if (!/^[0-9]{1,15}$/.test(id)) return null;
    const facts = await context.services.pulls.byWireId(Number(id), context.principal);
    return facts && pullObject(facts, context);
  },
};

async function account(id: string, type: "User" | "Organization", context: GraphContext): Found {
  const { entryPoints } = context.services;
  const params = await entryPoints.byWireId(type === "User" ? "user" : "org", id);
  const { account } = await entryPoints.account((params.user ?? params.org)!);
  return account.type === type ? context.links.account(account) : null;
}

export async function node(id: string, context: GraphContext): Found {
  const notFound = new NotResolved(`Could not resolve to a node with the global id of '${id}'.`);
  const parsed = parseLegacyNodeId(id);
  const lookUp = parsed && LOOK_UPS[parsed.type];
  // Only an id as GitHub writes it names its object: base64 written another way names none.
  if (!parsed || !lookUp || legacyNodeId(parsed.type, parsed.rest) !== id) throw notFound;
  try {
    const found = await lookUp(parsed.rest, context);
    if (found === null) throw notFound;
    return found;
  } catch (error) {
    if (error instanceof NotResolved || (error instanceof ApiError && error.statusCode === 404)) throw notFound;
    throw error;
  }
}
