/**
 * GitHub's credential revocation (https://docs.github.com/rest/credentials/revoke): anyone who finds a token exposed
 * may have it revoked without owning it. No Fastify, no SQL. The answer is the same whether or not a token was ours,
 * so the endpoint cannot be used to test which tokens exist.
 */
import type { Store } from "../store/store.js";
import { hashToken, isTokenShaped } from "./credentials.js";

export class CredentialRevocationService {
  constructor(private readonly store: Store) {}

  /**
   * Deletes every authorization whose token is listed, as GitHub deletes a revoked token (it cannot be reactivated),
   * in one statement: all of them or, on a failure, none. The store's version triggers then make every instance
   * forget the tokens it remembered. Strings that cannot be tokens (isTokenShaped) are passed over, as the
   * authenticator never accepts them. Returns how many were revoked, for the log; never for the caller.
   */
  async revoke(credentials: readonly string[]): Promise<number> {
    const hashes = [...new Set(credentials.filter(isTokenShaped).map(hashToken))];
    if (hashes.length === 0) return 0;
    return (await this.store.authorizations.revokeByHashes(hashes)).length;
  }
}
