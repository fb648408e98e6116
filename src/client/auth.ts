/**
 * Credentials (spec section 5): Basic with username and password for managing authorizations, an OAuth
 * token for reading feeds. Encoded without Buffer so the SDK runs in browsers: UTF-8 through TextEncoder,
 * then btoa over the bytes, which is what RFC 7617's `charset="UTF-8"` means and what GitHub clients send.
 */
import { ParameterError } from "./errors.js";

/** Asked for a one-time code when the server answers 401 with `X-Service-OTP: required; <method>`. */
export type OtpCallback = (challenge: { method: string }) => string | Promise<string>;

export interface BasicAuth {
  type: "basic";
  username: string;
  password: string;
  /** A code to send with every request, or a callback asked only when the server requires one. */
  otp?: string | OtpCallback;
}

export interface OAuthAuth {
  type: "oauth";
  token: string;
}

export type AuthOptions = BasicAuth | OAuthAuth;

function requireString(value: unknown, name: string): void {
  if (typeof value !== "string") throw new ParameterError(name, `${name} must be a string`);
}

export function checkAuth(auth: unknown): AuthOptions {
  if (typeof auth !== "object" || auth === null) throw new ParameterError("auth", "auth must be an object with a type");
  const given = auth as Record<string, unknown>;
  if (given.type === "basic") {
    requireString(given.username, "auth.username");
    requireString(given.password, "auth.password");
    if (given.otp !== undefined && typeof given.otp !== "string" && typeof given.otp !== "function") {
      throw new ParameterError("auth.otp", "auth.otp must be a string or a function returning one");
    }
    // Copied, so later changes to the caller's object cannot change what is sent.
    return {
      type: "basic",
      username: given.username as string,
      password: given.password as string,
      otp: given.otp as BasicAuth["otp"],
    };
  }
  if (given.type === "oauth") {
    requireString(given.token, "auth.token");
    return { type: "oauth", token: given.token as string };
  }
  throw new ParameterError("auth.type", `auth.type must be "basic" or "oauth", got ${JSON.stringify(given.type)}`);
}

function base64(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function authorizationHeader(auth: AuthOptions): string {
  return auth.type === "basic" ? `Basic ${base64(`${auth.username}:${auth.password}`)}` : `token ${auth.token}`;
}

/**
 * The method a 401 asks a one-time code for (`required; app` -> "app"), or null when it asks for none.
 * GitHub's header name and this service's are both read: clients split on ";" (wire notes 1.4).
 */
export function otpChallenge(headers: Headers): { method: string } | null {
  const value = headers.get("x-service-otp") ?? headers.get("x-github-otp");
  if (!value) return null;
  const [required, method = ""] = value.split(";").map((part) => part.trim());
  return required?.toLowerCase() === "required" ? { method } : null;
}
