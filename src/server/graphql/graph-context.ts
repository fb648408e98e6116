/**
 * What every resolver of one request reads (who asks, the base of the URLs it shows, the services it reads through),
 * and the refusals a resolver throws in GitHub's terms (./errors.ts writes them out).
 */
import { ApiError } from "../errors.js";
import type { Principal } from "../services/authenticator.js";
import type { EntryPointService } from "../services/entry-points.js";
import type { CodeServices } from "../services/git/code-services.js";
import type { PullRequestService } from "../services/pulls/pull-requests.js";
import type { UserRow } from "../store/store.js";

/** The services GraphQL reads through: the same as REST's routes, so that both show one object alike. */
export interface GraphServices {
  entryPoints: EntryPointService;
  pulls: PullRequestService;
  code: Pick<CodeServices, "refs" | "objects">;
}

/**
 * The objects that objects of other files link to (a pull request's repository and author), given by ./resolvers.ts
 * so that the files making them need not import one another in a circle.
 */
export interface GraphLinks {
  /** A repository by its owner's login and name; NotResolved when the caller may not see it. */
  repository(owner: string, name: string): Promise<unknown>;
  /** An account as its User or Organization. */
  account(account: UserRow): Promise<unknown>;
}

export interface GraphContext {
  principal: Principal;
  baseUrl: string;
  services: GraphServices;
  links: GraphLinks;
}

/** A refusal GitHub names by its `type` (`NOT_FOUND`, `INVALID_CURSOR_ARGUMENTS`, ...), beside `null` in the data. */
export class GraphRefusal extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

/** A look-up that found nothing the caller may see: `null` in the data, GitHub's NOT_FOUND in the errors. */
export class NotResolved extends GraphRefusal {
  constructor(message: string) {
    super("NOT_FOUND", message);
  }
}

/** A 404 of the services is a look-up that found nothing; every other refusal stands. */
export async function found<T>(lookUp: Promise<T>, notFound: string): Promise<T> {
  try {
    return await lookUp;
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 404) throw new NotResolved(notFound);
    throw error;
  }
}

/** A field of an object inside another: null when the caller may not see it, as GitHub answers. */
export const nullWhenNotResolved = (error: unknown) => {
  if (error instanceof NotResolved) return null;
  throw error;
};
