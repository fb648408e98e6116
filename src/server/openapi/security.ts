/** How the OpenAPI document says who may call an operation: the security schemes, and the requirements per auth rule. */
import type { OpenAPIV3_1 } from "openapi-types";

export type Security = { [scheme: string]: string[] }[];

export const SECURITY_SCHEMES: Record<string, OpenAPIV3_1.SecuritySchemeObject> = {
  basicAuth: {
    type: "http",
    scheme: "basic",
    description: "login:password. A token as the password works too, except for managing authorizations.",
  },
  githubOtp: {
    type: "apiKey",
    in: "header",
    name: "X-GitHub-OTP",
    description: "The current one-time code of a two-factor account, sent with Basic auth.",
  },
  serviceOtp: { type: "apiKey", in: "header", name: "X-Service-OTP", description: "Same as X-GitHub-OTP." },
  tokenAuth: {
    type: "apiKey",
    in: "header",
    name: "Authorization",
    description: "A token, as `Authorization: token <token>` (enter the whole value, `token ...`).",
  },
  bearerAuth: { type: "http", scheme: "bearer", description: "A token, as `Authorization: Bearer <token>`." },
  appJwt: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "A GitHub App's JWT (RS256, `iss` the app's id or client id), as `Authorization: Bearer <jwt>`.",
  },
  accessToken: { type: "apiKey", in: "query", name: "access_token", description: "A token in the query string." },
};

const PASSWORD: Security = [{ basicAuth: [] }, { basicAuth: [], githubOtp: [] }, { basicAuth: [], serviceOtp: [] }];
/** Role names in a requirement are allowed for any scheme type since OpenAPI 3.1: here, the token's scopes. */
const TOKEN = (scopes: string[]): Security => [{ tokenAuth: scopes }, { bearerAuth: scopes }, { accessToken: scopes }];

/** The requirements of each auth rule: the table's (`Endpoint["auth"]`) and the admin routes'. */
export const SECURITY = {
  password: PASSWORD,
  // `{}`: anonymous callers are served; credentials, when sent, must be valid.
  optional: [{}, ...PASSWORD, ...TOKEN([])],
  required: [...PASSWORD, ...TOKEN([])],
  siteAdmin: [...PASSWORD, ...TOKEN(["site_admin"])],
  // Callers must not authenticate (credential revocation): only the empty requirement.
  anonymous: [{}],
  // An OAuth app's client id and secret as Basic auth's user name and password.
  client: [{ basicAuth: [] }],
  app: [{ appJwt: [] }],
  // No credentials are read at all (the test controls).
  none: [],
} satisfies Record<string, Security>;

export type SecurityRule = keyof typeof SECURITY;
