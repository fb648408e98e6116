/** What the console's server-side tests send and read: form bodies, the session cookie, the pages' CSRF token. */
import type { FastifyInstance, LightMyRequestResponse } from "fastify";

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

/**
 * People signed in to the console of an app, by login (each with the password `<login>-password`, as the client
 * world's): their pages, and their forms posted as a browser posts them, with the CSRF token of the page first shown.
 */
export async function consoleUsers(app: FastifyInstance, logins: string[]) {
  const sessions: Record<string, string> = {};
  for (const login of logins)
    sessions[login] = sessionOf(
      await app.inject({
        method: "POST",
        url: "/console/sign-in",
        headers: FORM,
        payload: form({ login, password: `${login}-password` }),
      }),
    )!;
  const get = (url: string, login: string) =>
    app.inject({ method: "GET", url, headers: { cookie: `feedgate_session=${sessions[login]}` } });
  const post = async (url: string, fields: Record<string, string | string[]>, login: string) => {
    const shown = await get(url, login);
    return app.inject({
      method: "POST",
      url,
      headers: { cookie: `feedgate_session=${sessions[login]}`, ...FORM },
      payload: form({ csrf: csrfOf(shown.body), ...fields }),
    });
  };
  return { get, post };
}
