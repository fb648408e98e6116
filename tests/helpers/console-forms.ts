/** What the console's server-side tests send and read: form bodies, the session cookie, the pages' CSRF token. */
import type { LightMyRequestResponse } from "fastify";

export const form = (fields: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(name, v);
  return body.toString();
};

export const FORM = { "content-type": "application/x-www-form-urlencoded" };

/** The session id a response's Set-Cookie hands out, if any. */
export const sessionOf = (res: LightMyRequestResponse) => {
  const cookie = [res.headers["set-cookie"] ?? []].flat().find((c) => c.startsWith("feedgate_session="));
  return cookie === undefined ? undefined : cookie.split(";")[0]!.split("=")[1];
};

/** The CSRF token a console page's forms carry. */
export const csrfOf = (page: string) => /name="csrf" value="([^"]*)"/.exec(page)?.[1] ?? "";
