/** Stored authorization rows -> the wire object. The only place that shapes an authorization response. */
import type { ServedAuthorization } from "../../api/schemas.js";
import type { AuthorizationRow } from "../store/store.js";
import { isoSeconds } from "./time.js";

// A personal token has no application; GitHub described it as this pseudo-app (2018 recording, wire notes 1.2).
const PERSONAL_TOKEN_APP_URL = "https://developer.github.com/v3/oauth_authorizations/";
const NO_CLIENT_ID = "00000000000000000000";

/** What a response's shape depends on besides the row: the base of its URLs, and whether ids are integers. */
export interface WireOptions {
  baseUrl: string;
  /** `--numeric-ids`: `id` as a JSON integer, as GitHub sent it; otherwise a string, as the spec says. */
  numericIds: boolean;
}

/** The OAuth app a token was granted to, as `app` shows it. */
export interface GrantingApp {
  name: string;
  url: string;
  clientId: string;
}

/**
 * @param token the full token, only for the response to its creation; every other response shows "".
 * @param grantedTo the OAuth app of a `gho_` token; a personal token shows GitHub's pseudo-app.
 */
export function toWireAuthorization(
  row: AuthorizationRow,
  { baseUrl, numericIds }: WireOptions,
  token = "",
  grantedTo?: GrantingApp,
): ServedAuthorization {
  return {
    id: numericIds ? row.id : String(row.id),
    url: `${baseUrl}/authorizations/${row.id}`,
    app: grantedTo
      ? { name: grantedTo.name, url: grantedTo.url, client_id: grantedTo.clientId }
      : { name: row.note ?? "Personal access token", url: PERSONAL_TOKEN_APP_URL, client_id: NO_CLIENT_ID },
    token,
    hashed_token: row.hashedToken,
    token_last_eight: row.tokenLastEight,
    note: row.note,
    note_url: row.noteUrl,
    created_at: isoSeconds(row.createdAt),
    updated_at: isoSeconds(row.updatedAt),
    scopes: row.scopes,
    fingerprint: row.fingerprint,
    expires_at: row.expiresAt && isoSeconds(row.expiresAt),
  };
}
