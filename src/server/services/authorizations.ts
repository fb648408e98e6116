/**
 * Business rules of the authorizations family (spec 4.1, wire notes 1.2-1.5). No Fastify, no SQL:
 * callers pass the authenticated user, this throws ApiError for anything it refuses.
 */
import { normalize } from "../../api/scopes.js";
import type { RequestOf } from "../../api/schemas.js";
import type { endpoints } from "../../api/endpoints.js";
import { ApiError, notFound } from "../errors.js";
import { InvalidInputError } from "../failures.js";
import { parseId, validScopes } from "./input-checks.js";
import type {
  AuthorizationChanges,
  AuthorizationRow,
  OAuthAppRow,
  Page,
  PageRequest,
  Store,
  UserRow,
} from "../store/store.js";
import { hashToken, mintToken } from "./credentials.js";
import { defaultExpiry, hasExpired, NO_MAX_LIFETIME, requestedExpiry, type ExpiryPolicy } from "./token-expiry.js";

/** A create request's body, as the endpoint table describes it; `client_id`/`client_secret` are read to refuse them. */
export type CreateAuthorizationInput = RequestOf<typeof endpoints.authorization.create, "body"> & {
  client_id?: unknown;
  client_secret?: unknown;
};

export type UpdateAuthorizationInput = RequestOf<typeof endpoints.authorization.update, "body">;

/** What a new authorization is made of; without `expiresAt` it never expires (the CLI, the demo, seeded worlds). */
export type IssuedFields = Required<Omit<AuthorizationChanges, "expiresAt">> & { expiresAt?: Date | null };

const SCOPE_KEYS = ["scopes", "add_scopes", "remove_scopes"] as const;

/** Every scope list a request names, checked together: one error names all the unknown scopes. */
const checkScopes = (...lists: (string[] | undefined)[]) => validScopes(lists.flatMap((list) => list ?? []));

export class AuthorizationService {
  constructor(
    private readonly store: Store,
    private readonly clock: () => Date,
    private readonly expiry: ExpiryPolicy = NO_MAX_LIFETIME,
  ) {}

  list(user: UserRow, page: PageRequest): Promise<Page<AuthorizationRow>> {
    return this.store.authorizations.list(user.id, page);
  }

  /** The user's classic token with that id: a fine-grained one is not an authorization, as on GitHub. */
  async get(user: UserRow, id: string): Promise<AuthorizationRow> {
    const row = await this.store.authorizations.find(user.id, parseId(id));
    if (!row || row.fineGrained) throw notFound();
    return row;
  }

  /** Creates the authorization and returns it with its token, which is never shown again. */
  async create(user: UserRow, input: CreateAuthorizationInput): Promise<{ row: AuthorizationRow; token: string }> {
    // feedgate has no registered OAuth applications, so an application token cannot be minted.
    if (input.client_id !== undefined || input.client_secret !== undefined) {
      throw new ApiError(422, "Invalid OAuth application client_id or secret.");
    }
    const now = this.clock();
    const scopes = validScopes(input.scopes ?? []);
    const expiresAt = requestedExpiry(input.expires_at, now, this.expiry);
    return this.issue(
      user,
      {
        scopes,
        note: input.note ?? null,
        noteUrl: input.note_url ?? null,
        fingerprint: input.fingerprint ?? null,
        expiresAt: expiresAt === undefined ? defaultExpiry(now, this.expiry) : expiresAt,
      },
      mintToken(),
      now,
    );
  }

  /** Registers a token minted here or given by an administrator (the CLI's `token add --token`). */
  async issue(user: UserRow, fields: IssuedFields, token: string = mintToken(), now = this.clock()) {
    const row = await this.store.authorizations.create(
      {
        userId: user.id,
        hashedToken: hashToken(token),
        tokenLastEight: token.slice(-8),
        ...fields,
        expiresAt: fields.expiresAt ?? null,
      },
      now,
    );
    return { row, token };
  }

  async update(user: UserRow, id: string, input: UpdateAuthorizationInput): Promise<AuthorizationRow> {
    const current = await this.get(user, id);
    const scopeKeys = SCOPE_KEYS.filter((key) => input[key] !== undefined);
    if (scopeKeys.length > 1) {
      throw new InvalidInputError(`You can only send one of these scope keys at a time: ${scopeKeys.join(", ")}`, {
        field: "scopes",
      });
    }
    checkScopes(input.scopes, input.add_scopes, input.remove_scopes);
    const now = this.clock();
    const expiresAt = requestedExpiry(input.expires_at, now, this.expiry);
    // An expired token is revoked, as on GitHub: a new expiry must not bring it back.
    if (expiresAt !== undefined && hasExpired(current.expiresAt, now)) {
      throw new InvalidInputError("expires_at cannot be changed: this token has expired", { field: "expires_at" });
    }

    const changes: AuthorizationChanges = {};
    if (input.scopes) changes.scopes = normalize(input.scopes);
    if (input.add_scopes) changes.scopes = normalize([...current.scopes, ...input.add_scopes]);
    if (input.remove_scopes) changes.scopes = current.scopes.filter((s) => !input.remove_scopes!.includes(s));
    if (input.note !== undefined) changes.note = input.note;
    if (input.note_url !== undefined) changes.noteUrl = input.note_url;
    if (input.fingerprint !== undefined) changes.fingerprint = input.fingerprint;
    if (expiresAt !== undefined) changes.expiresAt = expiresAt;

    const updated = await this.store.authorizations.update(user.id, current.id, changes, now);
    if (!updated) throw notFound(); // deleted between the read and the write
    return updated;
  }

  /** The OAuth apps of these tokens, by app id: what their `app` fields show. */
  async appsOf(rows: readonly AuthorizationRow[]): Promise<Map<number, OAuthAppRow>> {
    const apps = new Map<number, OAuthAppRow>();
    for (const id of new Set(rows.map((row) => row.oauthAppId).filter((id) => id !== null))) {
      const app = await this.store.oauthApps.findById(id);
      if (app) apps.set(id, app);
    }
    return apps;
  }

  async delete(user: UserRow, id: string): Promise<void> {
    const row = await this.get(user, id);
    if (!(await this.store.authorizations.delete(user.id, row.id))) throw notFound();
  }
}
