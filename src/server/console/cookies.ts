/** The console's cookies: read from the Cookie header, written with the attributes every one of them needs. */
import type { FastifyReply, FastifyRequest } from "fastify";

export const SESSION_COOKIE = "feedgate_session";
/** A newly generated token, sealed to the session, for the one page that shows it (services/sessions.ts). */
export const NEW_TOKEN_COOKIE = "feedgate_new_token";

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), Path=/console (the API never sees
 * it), Secure when served over HTTPS. Values here (base64url ids, SecretBox text) hold no character a cookie value must not.
 */
export function writeCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  value: string,
  maxAgeSeconds?: number,
) {
  const attributes = ["Path=/console", "HttpOnly", "SameSite=Strict"];
  if (request.protocol === "https") attributes.push("Secure");
  if (maxAgeSeconds !== undefined) attributes.push(`Max-Age=${maxAgeSeconds}`);
  reply.header("Set-Cookie", [
    ...headerList(reply.getHeader("Set-Cookie")),
    `${name}=${value}; ${attributes.join("; ")}`,
  ]);
}

export const clearCookie = (request: FastifyRequest, reply: FastifyReply, name: string) =>
  writeCookie(request, reply, name, "", 0);

function headerList(value: ReturnType<FastifyReply["getHeader"]>): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value.map(String) : [String(value)];
}
